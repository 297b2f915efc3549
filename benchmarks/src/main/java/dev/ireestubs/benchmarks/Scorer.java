package dev.ireestubs.benchmarks;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** An image model's call shape: an sdict argument with a 224x224 image, an inlined sdict result. */
@IreeModule(name = "bench")
public interface Scorer {

  /** The argument. */
  record Features(FloatArray image, float temperature) {}

  /** The result. */
  record Scores(FloatArray logits, int topClass) {}

  /** The function's reflection, as a TF importer would write it. */
  String ABI =
      "{\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",4,1,224,224,3]],[\"temperature\",\"f32\"]]],"
          + "\"r\":[[\"sdict\",[\"logits\",[\"ndarray\",\"f32\",2,1,1000]],[\"top_class\",\"i32\"]]],\"v\":1}";

  /** Scores one image. */
  @IreeFunction(abi = ABI)
  Scores score(Features features);
}
