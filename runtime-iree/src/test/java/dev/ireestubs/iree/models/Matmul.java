package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;

/** {@code 2026-03_elodin_matmul_x86_64_bc17.vmfb}, with Java arrays (copied). */
@IreeModule(name = "module")
public interface Matmul {
  String FILE = "vmfb/2026-03_elodin_matmul_x86_64_bc17.vmfb";
  String DECLARATION =
      "sync func @matmul(%input0: tensor<3x4xf32>, %input1: tensor<4x2xf32>) -> (%output0:"
          + " tensor<3x2xf32>)";

  @IreeFunction(abi = DECLARATION)
  float[][] matmul(float[][] a, float[][] b);
}
