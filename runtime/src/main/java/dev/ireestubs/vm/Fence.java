package dev.ireestubs.vm;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A point in time a call can wait for: IREE's {@code hal.fence} (a set of timeline semaphore
 * values), as the asynchronous functions of the coarse-fences model take it. A call of such a
 * function waits for its <i>wait</i> fence before it runs, and reaches its <i>signal</i> fence when
 * its results are ready; passing one call's signal fence as the next call's wait fence chains them
 * (see {@code dev.ireestubs.invoke.FencedFuture}).
 *
 * <p>Every backend understands every fence, its own or another's, such as one made here over a
 * {@link CompletionStage} ({@link #of}): through {@link #whenReached()} at least. (IREE's backend
 * hands a call to the device once its wait fence is reached: IREE v3.11's CPU drivers would
 * otherwise wait for the fence on the submitting thread.) A fence is reached at most once and never
 * un-reached; a fence that fails (the device reported an error, or the stage completed
 * exceptionally) makes every call waiting on it fail too, without running.
 *
 * <p>Fences hold nothing that needs closing: a backend releases its native fence once it is reached
 * or failed (or its session closes), and the Java object then only remembers which. Thread-safe.
 */
public interface Fence extends VmRef {

  /** The VM type name of fences. */
  String REF_TYPE = "hal.fence";

  /**
   * {@value #REF_TYPE}.
   *
   * @return the VM type name of fences
   */
  @Override
  default String refTypeName() {
    return REF_TYPE;
  }

  /**
   * A stage completed when the fence is reached, or exceptionally when it fails (with an {@code
   * IreeInvocationException} carrying IREE's status for a device fence, or the cause a stage failed
   * with). Completing or cancelling it (through {@link CompletionStage#toCompletableFuture()}) has
   * no effect on the fence.
   *
   * @return a stage of the fence's outcome; dependent actions run on the thread that reaches the
   *     fence unless added with an {@code *Async} method
   */
  CompletionStage<Void> whenReached();

  /**
   * True once the fence is reached (and did not fail).
   *
   * @return whether the fence is reached
   */
  boolean isReached();

  /**
   * A fence that is already reached: waiting on it waits for nothing.
   *
   * @return a reached fence
   */
  static Fence reached() {
    return StageFence.REACHED;
  }

  /**
   * A fence reached when {@code stage} completes normally, failed when it completes exceptionally:
   * how the host gives a call something to wait for, e.g. a {@code CompletableFuture<Void>} it
   * completes once an input is ready: the call is submitted at once and runs when the stage
   * completes.
   *
   * @param stage the stage whose completion reaches the fence; its value is ignored
   * @return a fence over {@code stage}
   */
  static Fence of(CompletionStage<?> stage) {
    Objects.requireNonNull(stage, "stage");
    CompletableFuture<Void> reached = new CompletableFuture<>();
    stage.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            reached.complete(null);
          } else {
            reached.completeExceptionally(failure);
          }
        });
    return new StageFence(reached);
  }
}
