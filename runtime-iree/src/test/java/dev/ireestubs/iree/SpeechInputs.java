package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.iree.models.Iree_Speech;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Sixteen inputs of micro_speech that give sixteen different results, to catch a result handed to
 * the wrong caller: input {@code k} is the "yes" features with {@code 37 k} added to every byte
 * (mod 256). Their results are computed once, one call after the other on a plain session, and the
 * first four checked against what {@code iree-run-module --function=tf2onnx} prints for them.
 */
final class SpeechInputs {

  static final int COUNT = 16;

  /**
   * {@code iree-run-module --device=local-sync --function=tf2onnx --input=1x49x40x1xui8=@vK.bin}
   * for inputs 0 to 3 (IREE 3.11.0; input 0 is the "yes" features themselves).
   */
  private static final float[][] KNOWN = {
    {-12.6956f, -3.90635f, 9.94343f, -3.28488f},
    {-7.28001f, 1.15415f, 0.976587f, 2.3083f},
    {-12.6956f, 1.68683f, 3.10732f, 4.79415f},
    {-12.6956f, 1.15415f, 4.17269f, 7.72391f},
  };

  private final byte[][] inputs = new byte[COUNT][];
  private final float[][] expected = new float[COUNT][];

  /** Reads the "yes" features (skips the test without ../shared) and computes the references. */
  SpeechInputs(IreeRuntime runtime, Device device) throws IOException {
    byte[] yes = Files.readAllBytes(SharedData.require(MicroSpeech.YES));
    for (int k = 0; k < COUNT; k++) {
      byte[] b = new byte[yes.length];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) ((yes[i] & 0xFF) + 37 * k);
      }
      inputs[k] = b;
    }
    try (IreeSession reference = MicroSpeech.session(runtime, device)) {
      var speech = new Iree_Speech(reference);
      for (int k = 0; k < COUNT; k++) {
        try (UByteArray x = input(k);
            FloatArray y = speech.tf2onnx(x)) {
          expected[k] = y.toArray();
        }
      }
    }
    for (int k = 0; k < KNOWN.length; k++) {
      assertThat(expected[k]).usingTolerance(1e-4).containsExactly(KNOWN[k]).inOrder();
    }
    Set<List<Float>> distinct = new HashSet<>();
    for (float[] e : expected) {
      List<Float> l = new ArrayList<>();
      for (float f : e) {
        l.add(f);
      }
      distinct.add(l);
    }
    assertThat(distinct).hasSize(COUNT);
  }

  /** Input {@code k}, 1x49x40x1 ui8, in a new array. */
  UByteArray input(int k) {
    UByteArray x = UByteArray.zeros(1, 49, 40, 1);
    byte[] b = inputs[k];
    for (int i = 0; i < b.length; i++) {
      x.setFlat(b[i] & 0xFF, i);
    }
    return x;
  }

  /**
   * Whether {@code logits} are exactly input {@code k}'s results (the same code on the same data).
   */
  boolean isResultOf(int k, FloatArray logits) {
    return Arrays.equals(logits.toArray(), expected[k]);
  }

  /** Asserts that {@code logits} are input {@code k}'s results. */
  void assertResultOf(int k, FloatArray logits) {
    assertThat(logits.shape()).isEqualTo(new long[] {1, 4});
    assertThat(logits.toArray()).isEqualTo(expected[k]);
  }
}
