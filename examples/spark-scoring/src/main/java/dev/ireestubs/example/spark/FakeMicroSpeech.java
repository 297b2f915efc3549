package dev.ireestubs.example.spark;

import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.ByteArray;
import dev.ireestubs.ndarray.FloatArray;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;

/**
 * A host-module fake of micro_speech, for JDK 17 and for tests without IREE: {@link
 * HostModule#fake} takes its function's signature from the real {@code .vmfb} (so the stub binds
 * and checks every call exactly as on IREE's runtime), and its body is a small template matcher in
 * Java, not the network: the logits of silence, yes and no are minus the mean distance (over the
 * 1,960 features, signed) to a template (silence all -128, yes the recording of "yes", no that
 * recording with its time slices reversed), and unknown's is a fixed -{@value #UNKNOWN}, so that a
 * frame far from every template is unknown. Clean and slightly noisy "yes" frames score yes, very
 * noisy ones unknown.
 *
 * @param vmfb the real module's file (a path, or a name shipped with {@code --files})
 * @param yes the "yes" features' file, likewise
 */
public record FakeMicroSpeech(String vmfb, String yes) implements ModelSource {

  /** The mean distance past which a frame is unknown. */
  static final int UNKNOWN = 32;

  @Override
  public String name() {
    return "host-fake:" + vmfb;
  }

  @Override
  public ModuleBackend open(int concurrentCalls) throws IOException {
    byte[][] templates = templates(Files.readAllBytes(ModelFiles.resolve(yes)));
    // A host module runs calls on the callers' threads, any number at once: no pool needed.
    return HostModule.fake(
        ModelFiles.resolve(vmfb),
        Map.of("tf2onnx", arguments -> logits(templates, (ByteArray) arguments.get(0))));
  }

  /** The templates of silence, unknown (none), yes and no, from the "yes" features. */
  static byte[][] templates(byte[] yes) {
    if (yes.length != MicroSpeech.FRAME_BYTES) {
      throw new UncheckedIOException(
          new IOException(
              "the yes features have " + yes.length + " bytes, not " + MicroSpeech.FRAME_BYTES));
    }
    byte[] silence = new byte[yes.length];
    Arrays.fill(silence, (byte) -128);
    byte[] no = new byte[yes.length];
    int slice = 40;
    for (int t = 0; t < 49; t++) {
      System.arraycopy(yes, t * slice, no, (48 - t) * slice, slice);
    }
    return new byte[][] {silence, null, yes.clone(), no};
  }

  /** The body: one logit per template. Reads the argument during the call only. */
  static FloatArray logits(byte[][] templates, ByteArray features) {
    byte[] x = features.copyInto(new byte[MicroSpeech.FRAME_BYTES]);
    float[] logits = new float[templates.length];
    for (int k = 0; k < templates.length; k++) {
      byte[] t = templates[k];
      if (t == null) {
        logits[k] = -UNKNOWN;
        continue;
      }
      long distance = 0;
      for (int i = 0; i < x.length; i++) {
        distance += Math.abs(x[i] - t[i]);
      }
      logits[k] = 0f - (float) distance / x.length; // 0, not -0, for a perfect match
    }
    return FloatArray.of(logits, 1, templates.length);
  }
}
