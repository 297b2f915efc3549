package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** A stub compiled against another version of the add model (8 elements, not 4). */
@IreeModule(name = "module")
public interface StaleAdder {
  @IreeFunction(
      value = "add",
      abi =
          "sync func @add(%input0: tensor<8xf32>, %input1: tensor<8xf32>) -> (%output0:"
              + " tensor<8xf32>)")
  FloatArray add(FloatArray a, FloatArray b);
}
