package dev.ireestubs.benchmarks;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;

/**
 * {@link Model}'s two call shapes, each twice: the stub gives each pair one shared body, which
 * {@link SharedBodyBenchmark} compares with {@link Model}'s inline bodies.
 */
@IreeModule(name = "bench")
public interface RepeatedModel {

  /** Scores one image, through the body {@link #predictAgain} shares. */
  @IreeFunction(abi = Model.PREDICT_ABI)
  Model.Scores predict(Model.Features features);

  /** Scores one image, through the body {@link #predict} shares. */
  @IreeFunction(abi = Model.PREDICT_ABI)
  Model.Scores predictAgain(Model.Features features);

  /** Adds two numbers, through the body {@link #addAgain} shares. */
  @IreeFunction(abi = Model.ADD_ABI)
  int add(int a, int b);

  /** Adds two numbers, through the body {@link #add} shares. */
  @IreeFunction(abi = Model.ADD_ABI)
  int addAgain(int a, int b);
}
