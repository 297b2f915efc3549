package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.iree.models.Iree_MicroSpeech;
import dev.ireestubs.iree.models.MicroSpeech;
import dev.ireestubs.ndarray.ByteArray;
import dev.ireestubs.ndarray.FloatArray;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real keyword-spotting model, typed from its bytecode, on IREE's runtime: through a stub
 * (whose bind-time check compares it with the types the session's reader found in the module's
 * bytecode) and through {@link DynamicFunction}, on local-sync and local-task. Skipped without a
 * runtime library or without {@code ../shared}.
 *
 * <pre>
 * iree-run-module --module=models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb \
 *   --device=local-sync --function=tf2onnx \
 *   --input=1x49x40x1xui8=@models/2026-06_iree-embedded_micro_speech_yes_features.input.bin
 * -> 1x4xf32=[-12.6956 -3.90635 9.94343 -3.28488]   (local-task gives the same)
 * </pre>
 */
class MicroSpeechIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  static final float[] YES_LOGITS = {-12.6956f, -3.90635f, 9.94343f, -3.28488f};

  private static ByteArray yes() throws IOException {
    return ByteArray.of(Files.readAllBytes(Corpus.require(MicroSpeech.YES)), 1, 49, 40, 1);
  }

  @Test
  void theYesFeaturesGiveTheModelsLogitsOnEveryDevice() throws IOException {
    for (Device device : Device.values()) {
      try (IreeSession session =
          IREE.runtime().newSession(device).load(Corpus.require(MicroSpeech.FILE))) {
        dev.ireestubs.invoke.BackendFunction f = session.function("module.tf2onnx");
        Reflection.Resolved r = f.signature();
        assertThat(r.source()).isEqualTo("bytecode");
        assertThat(r.signature().toString())
            .isEqualTo("(tensor<1x49x40x1xi8>) -> (tensor<1x4xf32>)");
        // The $async twin is typed as the coarse-fences function it is.
        assertThat(session.function("module.tf2onnx$async").signature().signature().model())
            .isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);

        FloatArray logits = new Iree_MicroSpeech(session).tf2onnx(yes());
        assertThat(logits.shape()).isEqualTo(new long[] {1, 4});
        assertThat(logits.toArray()).usingTolerance(1e-4).containsExactly(YES_LOGITS).inOrder();

        Object dynamic = DynamicFunction.of(f).call(yes());
        assertThat(((FloatArray) dynamic).toArray())
            .usingTolerance(1e-4)
            .containsExactly(YES_LOGITS)
            .inOrder();
      }
    }
  }

  @Test
  void theFunctionsNameAloneFindsIt() throws IOException {
    // iree-run-module --function=tf2onnx takes the name alone; so do sessions and pools.
    try (IreeSession session =
            IREE.runtime().newSession(Device.LOCAL_SYNC).load(Corpus.require(MicroSpeech.FILE));
        IreeSessionPool pool =
            IREE.runtime().newPool(Device.LOCAL_SYNC, 2).load(Corpus.require(MicroSpeech.FILE))) {
      for (dev.ireestubs.invoke.ModuleBackend backend :
          java.util.List.<dev.ireestubs.invoke.ModuleBackend>of(session, pool)) {
        assertThat(backend.function("tf2onnx"))
            .isSameInstanceAs(backend.function("module.tf2onnx"));
        Object logits = DynamicFunction.of(backend.function("tf2onnx")).call(yes());
        assertThat(((FloatArray) logits).toArray())
            .usingTolerance(1e-4)
            .containsExactly(YES_LOGITS)
            .inOrder();
        assertThat(backend.lookup("tf2onnx$async")).isPresent();
        assertThat(backend.lookup("tf2")).isEmpty();
      }
    }
  }

  @Test
  void aWrongShapeIsRefusedBeforeTheCall() throws IOException {
    ByteArray wrong = ByteArray.of(new byte[49 * 41], 1, 49, 41, 1);
    try (IreeSession session =
        IREE.runtime().newSession(Device.LOCAL_SYNC).load(Corpus.require(MicroSpeech.FILE))) {
      IreeValueException stub =
          assertThrows(
              IreeValueException.class, () -> new Iree_MicroSpeech(session).tf2onnx(wrong));
      IreeValueException dynamic =
          assertThrows(
              IreeValueException.class,
              () -> DynamicFunction.of(session.function("module.tf2onnx")).call(wrong));
      assertThat(stub.getMessage())
          .isEqualTo(
              "tf2onnx: features: expected tensor<1x49x40x1xi8> but got tensor<1x49x41x1xi8>"
                  + " (dimension 2 is 41, not 40)");
      assertThat(dynamic.getMessage())
          .isEqualTo(
              "tf2onnx: arg0: expected tensor<1x49x40x1xi8> but got tensor<1x49x41x1xi8>"
                  + " (dimension 2 is 41, not 40)");
    }
  }
}
