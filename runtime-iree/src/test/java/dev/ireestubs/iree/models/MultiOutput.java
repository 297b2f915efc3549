package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** {@code 2026-03_elodin_multi_output_x86_64_bc17.vmfb}: the sum and the product. */
@IreeModule(name = "module")
public interface MultiOutput {
  String FILE = "vmfb/2026-03_elodin_multi_output_x86_64_bc17.vmfb";
  String DECLARATION =
      "sync func @multi_output(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
          + " tensor<4xf32>, %output1: tensor<4xf32>)";

  /** The two results, in order. */
  record SumAndProduct(FloatArray sum, FloatArray product) {}

  @IreeFunction(value = "multi_output", abi = DECLARATION)
  SumAndProduct sumAndProduct(FloatArray a, FloatArray b);
}
