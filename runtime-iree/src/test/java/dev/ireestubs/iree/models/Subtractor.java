package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** A stub for a function the add module does not have. */
@IreeModule(name = "module")
public interface Subtractor {
  @IreeFunction(
      abi =
          "sync func @sub(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
              + " tensor<4xf32>)")
  FloatArray sub(FloatArray a, FloatArray b);
}
