package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * The real model of {@code ../shared/iree-reflection/models}: micro_speech, an ONNX import with
 * {@code tf2onnx} ({@code 0r_r}) and its asynchronous twin {@code tf2onnx$async} ({@code 0rrr_r}),
 * and the features of a recording of "yes". Tests using it are skipped without the folder.
 */
final class MicroSpeech {

  static final String FILE =
      "models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb";
  static final String YES = "models/2026-06_iree-embedded_micro_speech_yes_features.input.bin";

  /**
   * What {@code iree-run-module --function=tf2onnx --input=1x49x40x1xui8=@yes...bin} prints on
   * local-sync and local-task: {@code 1x4xf32=[-12.6956 -3.90635 9.94343 -3.28488]}.
   */
  static final float[] YES_LOGITS = {-12.6956f, -3.90635f, 9.94343f, -3.28488f};

  private MicroSpeech() {}

  /** A new session on {@code device} with the model loaded; skips the test without ../shared. */
  static IreeSession session(IreeRuntime runtime, Device device) throws IOException {
    return runtime.newSession(device).load(Corpus.require(FILE));
  }

  /** The "yes" features, 1x49x40x1 ui8, in a new array. */
  static UByteArray yes() {
    try {
      byte[] bytes = Files.readAllBytes(Corpus.require(YES));
      UByteArray x = UByteArray.zeros(1, 49, 40, 1);
      for (int i = 0; i < bytes.length; i++) {
        x.setFlat(bytes[i] & 0xFF, i);
      }
      return x;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Asserts that {@code logits} are the "yes" logits, 1x4, within 1e-4. */
  static void assertYes(FloatArray logits) {
    assertThat(logits.shape()).isEqualTo(new long[] {1, 4});
    assertThat(logits.toArray()).usingTolerance(1e-4).containsExactly(YES_LOGITS).inOrder();
  }
}
