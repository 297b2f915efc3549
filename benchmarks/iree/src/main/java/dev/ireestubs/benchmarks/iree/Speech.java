package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import java.util.concurrent.CompletableFuture;

/**
 * micro_speech ({@code models/...micro_speech...vmfb}): {@code tf2onnx} and its asynchronous twin
 * {@code tf2onnx$async}, typed as the module's bytecode asserts (it carries no reflection).
 */
@IreeModule(name = "module")
public interface Speech {
  /** The module, relative to {@code ../shared/iree-reflection}. */
  String FILE = "models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb";

  /** The "yes" features, 1x49x40x1 ui8, relative to {@code ../shared/iree-reflection}. */
  String YES = "models/2026-06_iree-embedded_micro_speech_yes_features.input.bin";

  /** {@code tf2onnx}, written as a declaration. */
  String SYNC = "sync func @tf2onnx(%input0: tensor<1x49x40x1xui8>) -> (%output0: tensor<1x4xf32>)";

  /** {@code tf2onnx$async}, written as a declaration. */
  String ASYNC =
      "async func @tf2onnx$async(%input0: tensor<1x49x40x1xui8>) -> (%output0: tensor<1x4xf32>)";

  /** The synchronous wrapper: IREE's VM makes the fences and waits, on the calling thread. */
  @IreeFunction(value = "tf2onnx", abi = SYNC)
  FloatArray tf2onnx(UByteArray features);

  /** The asynchronous twin: returns at once. */
  @IreeFunction(value = "tf2onnx$async", abi = ASYNC)
  CompletableFuture<FloatArray> tf2onnxAsync(UByteArray features);
}
