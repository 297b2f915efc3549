package dev.ireestubs.benchmarks;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;

/**
 * Functions taking Java arrays, which a stub copies into native memory for each call: what {@link
 * CallMemoryBenchmark} measures ({@code float[1][224][224][3]}, an image, and {@code
 * float[150528]}, the same 600 KB flat).
 */
@IreeModule(name = "arrays")
public interface ArrayModel {

  /** {@link #classify}'s reflection. */
  String CLASSIFY_ABI = "{\"a\":[[\"ndarray\",\"f32\",4,1,224,224,3]],\"r\":[\"f32\"],\"v\":1}";

  /** {@link #sum}'s reflection. */
  String SUM_ABI = "{\"a\":[[\"ndarray\",\"f32\",1,150528]],\"r\":[\"f32\"],\"v\":1}";

  /** Scores one image. */
  @IreeFunction(abi = CLASSIFY_ABI)
  float classify(float[][][][] image);

  /** Sums the values. */
  @IreeFunction(abi = SUM_ABI)
  float sum(float[] values);
}
