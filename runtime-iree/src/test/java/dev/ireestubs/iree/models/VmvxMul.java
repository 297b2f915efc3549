package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** {@code 2026-06_eerie_mul_vmvx_bc17.vmfb}: module {@code arithmetic}, compiled for vmvx. */
@IreeModule(name = "arithmetic")
public interface VmvxMul {
  String FILE = "vmfb/2026-06_eerie_mul_vmvx_bc17.vmfb";
  String DECLARATION =
      "sync func @simple_mul(%input0: tensor<100xf32>, %input1: tensor<100xf32>) -> (%output0:"
          + " tensor<100xf32>)";

  @IreeFunction(value = "simple_mul", abi = DECLARATION)
  FloatArray multiply(FloatArray a, FloatArray b);
}
