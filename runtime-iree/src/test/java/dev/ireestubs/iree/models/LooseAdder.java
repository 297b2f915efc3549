package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** A stub for the add module that leaves the sizes open ({@code ?}) where the module has 4. */
@IreeModule(name = "module")
public interface LooseAdder {
  @IreeFunction(
      value = "add",
      abi =
          "sync func @add(%input0: tensor<?xf32>, %input1: tensor<?xf32>) -> (%output0:"
              + " tensor<?xf32>)")
  FloatArray add(FloatArray a, FloatArray b);
}
