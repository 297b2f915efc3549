package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** {@code 2026-06_iree-mlir-explorations_mips_simple_abs_0d_bc17.vmfb}: a 0-d tensor. */
@IreeModule(name = "module")
public interface Abs0d {
  String FILE = "vmfb/2026-06_iree-mlir-explorations_mips_simple_abs_0d_bc17.vmfb";
  String DECLARATION = "sync func @abs(%input0: tensor<f32>) -> (%output0: tensor<f32>)";

  @IreeFunction(abi = DECLARATION)
  FloatArray abs(FloatArray x);
}
