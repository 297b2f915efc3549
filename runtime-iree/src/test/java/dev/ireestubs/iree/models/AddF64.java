package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;

/** {@code 2026-03_elodin_simple_add_f64_x86_64_bc17.vmfb}, with Java arrays. */
@IreeModule(name = "module")
public interface AddF64 {
  String FILE = "vmfb/2026-03_elodin_simple_add_f64_x86_64_bc17.vmfb";
  String DECLARATION =
      "sync func @simple_add_f64(%input0: tensor<4xf64>, %input1: tensor<4xf64>) -> (%output0:"
          + " tensor<4xf64>)";

  @IreeFunction(value = "simple_add_f64", abi = DECLARATION)
  double[] add(double[] a, double[] b);
}
