package dev.ireestubs.benchmarks;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/**
 * The two call shapes {@link CallPathBenchmark} measures: an image model's (an {@code sdict}
 * argument with a 1x224x224x3 image and a scalar, an inlined {@code sdict} of two 1x1000 arrays as
 * the result) and the smallest call there is ({@code add(i32, i32) -> i32}).
 */
@IreeModule(name = "bench")
public interface Model {

  /** The argument of {@link #predict}. */
  record Features(FloatArray image, float temperature) {}

  /** The result of {@link #predict}. */
  record Scores(FloatArray logits, FloatArray probabilities) {}

  /** {@link #predict}'s reflection, as a TF importer would write it. */
  String PREDICT_ABI =
      "{\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",4,1,224,224,3]],[\"temperature\",\"f32\"]]],"
          + "\"r\":[[\"sdict\",[\"logits\",[\"ndarray\",\"f32\",2,1,1000]],"
          + "[\"probabilities\",[\"ndarray\",\"f32\",2,1,1000]]]],\"v\":1}";

  /** {@link #add}'s reflection. */
  String ADD_ABI = "{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"],\"v\":1}";

  /** Scores one image. */
  @IreeFunction(abi = PREDICT_ABI)
  Scores predict(Features features);

  /** Adds two numbers. */
  @IreeFunction(abi = ADD_ABI)
  int add(int a, int b);
}
