package dev.ireestubs.vm;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A {@link Fence} over a future only this class completes: {@link Fence#of}, {@link Fence#reached}.
 */
final class StageFence implements Fence {

  static final StageFence REACHED = new StageFence(CompletableFuture.completedFuture(null));

  private final CompletableFuture<Void> reached;

  StageFence(CompletableFuture<Void> reached) {
    this.reached = reached;
  }

  @Override
  public CompletionStage<Void> whenReached() {
    return reached.minimalCompletionStage();
  }

  @Override
  public boolean isReached() {
    return reached.isDone() && !reached.isCompletedExceptionally();
  }

  /** {@code hal.fence@1b6d3586 (reached)}, {@code (failed)} or {@code (pending)}. */
  @Override
  public String toString() {
    return REF_TYPE
        + "@"
        + Integer.toHexString(System.identityHashCode(this))
        + (!reached.isDone() ? " (pending)" : isReached() ? " (reached)" : " (failed)");
  }
}
