package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.vm.Fence;
import java.util.concurrent.CompletableFuture;

/**
 * {@code models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb}, the ONNX import
 * of micro_speech: {@code tf2onnx} and its asynchronous twin {@code tf2onnx$async}. The module
 * carries no reflection but calling conventions; the types below are the ones its bytecode asserts
 * and creates (1x49x40x1 ui8 in, 1x4 f32 out: see the disassembly in the shared folder's README),
 * written as declarations; {@code StubDeclarationsTest} checks them against the module's calling
 * conventions.
 */
@IreeModule(name = "module")
public interface Speech {
  String FILE = "models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb";
  String SYNC = "sync func @tf2onnx(%input0: tensor<1x49x40x1xui8>) -> (%output0: tensor<1x4xf32>)";
  String ASYNC =
      "async func @tf2onnx$async(%input0: tensor<1x49x40x1xui8>) -> (%output0: tensor<1x4xf32>)";

  /** The synchronous wrapper: IREE's VM makes the fences and waits. */
  @IreeFunction(value = "tf2onnx", abi = SYNC)
  FloatArray tf2onnx(UByteArray features);

  /** The asynchronous twin, called asynchronously. */
  @IreeFunction(value = "tf2onnx$async", abi = ASYNC)
  CompletableFuture<FloatArray> tf2onnxAsync(UByteArray features);

  /** The asynchronous twin after another call, its future carrying its own signal fence. */
  @IreeFunction(value = "tf2onnx$async", abi = ASYNC)
  FencedFuture<FloatArray> tf2onnxAfter(UByteArray features, Fence wait);

  /** The asynchronous twin called synchronously: the backend makes the fences and waits. */
  @IreeFunction(value = "tf2onnx$async", abi = ASYNC)
  FloatArray tf2onnxFenced(UByteArray features);
}
