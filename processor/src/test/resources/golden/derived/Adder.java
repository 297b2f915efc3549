package derived;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.VmRef;
import java.util.concurrent.CompletableFuture;
import javax.annotation.processing.Generated;

/**
 * The typed client of IREE module {@code adder}, derived by iree-stubs from {@code models/adder.vmfb}: one method per exported function.
 *
 * <p>Runtime generation: any IREE runtime (no generation-specific HAL imports; asks for hal 0.2).
 */
@Generated("dev.ireestubs.processor.IreeStubsProcessor")
@IreeModule(vmfb = "models/adder.vmfb")
public interface Adder {
  /**
   * Calls {@code simple_add}:
   *
   * <pre>{@code sync func @simple_add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0: tensor<4xf32>)}</pre>
   *
   * <p>Checked against {@code (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>) (from iree.abi.declaration)}.
   */
  @IreeFunction("simple_add")
  FloatArray simpleAdd(FloatArray input0, FloatArray input1);

  /** Holds the results of split. */
  record SplitResult(FloatArray low, FloatArray high) {}

  /**
   * Calls {@code split}:
   *
   * <pre>{@code sync func @split(%whole: tensor<4xf32>) -> (%low: tensor<2xf32>, %high: tensor<2xf32>)}</pre>
   *
   * <p>Checked against {@code (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) (from iree.abi.declaration)}.
   */
  SplitResult split(FloatArray whole);

  /**
   * Calls {@code main$async} (unchecked):
   *
   * <pre>{@code calling convention 0rrr_r}</pre>
   *
   * <p>Checked against {@code async (ref) -> (ref) (from calling convention)}.
   *
   * <p>Asynchronous (coarse-fences): returns at once; the future completes when the call's signal fence is reached. The backend passes the wait and signal fences; add a last parameter Fence wait to run the call after another's (its FencedFuture.signal()).
   *
   * <p>Unchecked: only the calling convention describes this function, so its refs are opaque (a buffer view for a tensor, a list for a list) and nothing checks their types or shapes before the call.
   */
  @IreeFunction("main$async")
  CompletableFuture<VmRef> mainAsync(VmRef input0);

  /**
   * Calls {@code main} (unchecked):
   *
   * <pre>{@code calling convention 0r_r}</pre>
   *
   * <p>Checked against {@code (ref) -> (ref) (from calling convention)}.
   *
   * <p>Unchecked: only the calling convention describes this function, so its refs are opaque (a buffer view for a tensor, a list for a list) and nothing checks their types or shapes before the call.
   */
  VmRef main(VmRef input0);

  /**
   * Calls {@code scale} (unchecked):
   *
   * <pre>{@code calling convention 0rf_r}</pre>
   *
   * <p>Checked against {@code (ref, f32) -> (ref) (from calling convention)}.
   *
   * <p>Unchecked: only the calling convention describes this function, so its refs are opaque (a buffer view for a tensor, a list for a list) and nothing checks their types or shapes before the call.
   */
  VmRef scale(VmRef input0, float input1);

  // Not in this interface:
  // __init: names starting with __ are IREE's own (the runtime calls __init itself when it loads the module)
}
