package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** {@code 2026-03_elodin_simple_mul_x86_64_bc17.vmfb}: element-wise product of two 4xf32. */
@IreeModule(name = "module")
public interface SimpleMul {
  String FILE = "vmfb/2026-03_elodin_simple_mul_x86_64_bc17.vmfb";
  String DECLARATION =
      "sync func @simple_mul(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
          + " tensor<4xf32>)";

  @IreeFunction(value = "simple_mul", abi = DECLARATION)
  FloatArray multiply(FloatArray a, FloatArray b);
}
