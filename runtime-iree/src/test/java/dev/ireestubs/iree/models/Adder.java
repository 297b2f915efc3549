package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/**
 * {@code 2026-08_djl-iree-engine_add_bc17.vmfb}. The declaration is the module's own ({@code
 * StubDeclarationsTest} compares it with the file).
 */
@IreeModule(name = "module")
public interface Adder {
  String FILE = "vmfb/2026-08_djl-iree-engine_add_bc17.vmfb";
  String DECLARATION =
      "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0: tensor<4xf32>)";

  @IreeFunction(abi = DECLARATION)
  FloatArray add(FloatArray a, FloatArray b);
}
