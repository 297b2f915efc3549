package dev.ireestubs.example;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/**
 * The {@code add} function of a real module compiled by IREE 3.11 ({@code add_bc17.vmfb} in the
 * djl-iree-engine project), checked at compile time against the {@code iree.abi.declaration} that
 * module carries. With IREE's runtime library and that module it runs on IREE; without them the
 * example app runs it on a Java implementation with the same signature.
 */
@IreeModule(name = "module")
public interface Adder {

  /** Element-wise sum of two 4-vectors. */
  @IreeFunction(
      abi =
          "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>)"
              + " -> (%output0: tensor<4xf32>)")
  FloatArray add(FloatArray a, FloatArray b);
}
