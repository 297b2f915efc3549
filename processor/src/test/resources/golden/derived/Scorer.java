package derived.json;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeKey;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * The typed client of IREE module {@code scorer}, derived by iree-stubs from {@code scorer.abi.json}: one method per exported function.
 */
@Generated("dev.ireestubs.processor.IreeStubsProcessor")
@IreeModule(name = "scorer", abi = "scorer.abi.json")
public interface Scorer {
  /** Holds the structure scoreBatch_input0. */
  record ScoreBatchInput0(FloatArray imageData, @IreeKey("class") int class_) {}

  /** Holds the results of scoreBatch. */
  record ScoreBatchResult(FloatArray output0, long output1) {}

  /**
   * Calls {@code score_batch}:
   *
   * <pre>{@code {"a":[["sdict",["image_data",["ndarray","f32",2,1,4]],["class","i32"]],["py_homogeneous_list",["ndarray","f32",1,4]]],"r":[["slist",["ndarray","f32",1,4],"i64"]],"v":1}}</pre>
   *
   * <p>Checked against {@code (sdict{image_data: tensor<1x4xf32>, class: i32}, list<tensor<4xf32>>) -> (slist[tensor<4xf32>, i64]) (from iree.abi)}.
   */
  @IreeFunction("score_batch")
  ScoreBatchResult scoreBatch(ScoreBatchInput0 input0, List<FloatArray> input1);

  /**
   * Calls {@code Reset}:
   *
   * <pre>{@code {"a":[],"r":[],"v":1}}</pre>
   *
   * <p>Checked against {@code () -> () (from iree.abi)}.
   */
  @IreeFunction("Reset")
  void reset();

  /** Holds the structure lookup_result. */
  record LookupResult(float best, long bestIndex) {}

  /**
   * Calls {@code lookup}:
   *
   * <pre>{@code {"a":[["named","query","i32"]],"r":[["sdict",["best","f32"],["best_index","i64"]]],"v":1}}</pre>
   *
   * <p>Checked against {@code (named query: i32) -> (sdict{best: f32, best_index: i64}) (from iree.abi)}.
   */
  LookupResult lookup(int query);
}
