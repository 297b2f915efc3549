package dev.ireestubs.example;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeKey;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import java.util.List;

/**
 * A TF-style image classifier, as a model exported from TensorFlow describes itself in {@code
 * iree.abi} JSON ({@code classifier.abi.json}): structures as {@code sdict}s with compiler-sorted
 * keys, a named argument, a list argument. The annotation processor checks every method against
 * that file when this interface compiles, and generates {@code Iree_Classifier}.
 */
@IreeModule(name = "classifier", abi = "classifier.abi.json")
public interface Classifier {

  /**
   * The {@code sdict} argument of {@code predict}: one 4x4 grey image and a softmax temperature.
   */
  record Features(FloatArray image, float temperature) {}

  /**
   * The {@code sdict} result of {@code predict}, inlined by IREE: its three values are the
   * function's three raw results. Components are matched to keys by name ({@code top_class} to
   * {@code topClass}), whatever their order here.
   */
  record Prediction(int topClass, FloatArray probabilities, FloatArray logits) {}

  /** Scores one image. */
  Prediction predict(Features features);

  /** Mean embedding of a token sequence; the module names its argument {@code tokens}. */
  FloatArray embed(@IreeKey("tokens") IntArray tokenIds);

  /** The top class of each image. */
  @IreeFunction("classify_batch")
  List<Integer> classifyBatch(List<FloatArray> images);
}
