package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** {@code 2026-08_djl-iree-engine_add_bc17.vmfb}'s {@code add}, as its declaration says. */
@IreeModule(name = "module")
public interface Adder {
  /** The module, relative to {@code ../shared/iree-reflection}. */
  String FILE = "vmfb/2026-08_djl-iree-engine_add_bc17.vmfb";

  /**
   * Its twin in IREE 3.12's format (hal 0.7, ported from it: {@code hal07/README.md}), for a
   * 3.12-line runtime.
   */
  String FILE_HAL07 = "hal07/2026-08_djl-iree-engine_add_hal07.vmfb";

  /** {@code add}'s declaration. */
  String DECLARATION =
      "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
          + " tensor<4xf32>)";

  @IreeFunction(abi = DECLARATION)
  FloatArray add(FloatArray a, FloatArray b);

  /** The same function with Java arrays, which the stub copies in and out each call. */
  @IreeFunction(value = "add", abi = DECLARATION)
  float[] addArrays(float[] a, float[] b);
}
