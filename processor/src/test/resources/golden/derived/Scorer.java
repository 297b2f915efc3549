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
  /** Holds the structure input0. */
  record Input0(FloatArray imageData, @IreeKey("class") int class_) {}

  /** Holds the results of scoreBatch. */
  record ScoreBatchResult(FloatArray output0, long output1) {}

  /**
   * Calls {@code score_batch}:
   *
   * <pre>{@code {"a":[["sdict",["image_data",["ndarray","f32",2,1,4]],["class","i32"]],["py_homogeneous_list",["ndarray","f32",1,4]]],"r":[["slist",["ndarray","f32",1,4],"i64"]],"v":1}}</pre>
   *
   * <p>Checked against (sdict&#123;image_data: tensor&#60;1x4xf32&#62;, class: i32&#125;, list&#60;tensor&#60;4xf32&#62;&#62;) -&#62; (slist[tensor&#60;4xf32&#62;, i64]), from iree.abi.
   */
  @IreeFunction("score_batch")
  ScoreBatchResult scoreBatch(Input0 input0, List<FloatArray> input1);

  /**
   * Calls {@code Reset}:
   *
   * <pre>{@code {"a":[],"r":[],"v":1}}</pre>
   *
   * <p>Checked against () -&#62; (), from iree.abi.
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
   * <p>Checked against (named query: i32) -&#62; (sdict&#123;best: f32, best_index: i64&#125;), from iree.abi.
   */
  LookupResult lookup(int query);
}
