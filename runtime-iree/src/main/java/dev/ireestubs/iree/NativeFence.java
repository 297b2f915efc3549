package dev.ireestubs.iree;

import dev.ireestubs.vm.Fence;
import java.lang.foreign.Arena;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A fence of an IREE session ({@link SessionNatives}): one HAL semaphore of the session's device
 * and the value 1 ({@code iree_hal_fence_create_at(semaphore, 1)}), as IREE's tools make the signal
 * fence of a coarse-fences call: the signal fence of a call.
 *
 * <p>The native fence (which holds the semaphore) is retained until the device reached or failed
 * it, then released, under the session's lock (a close that gives up on the call records its
 * outcome at once, {@link #abandon}, and keeps the native fence until the device is done): {@link
 * #handle()} is read and {@link #release} runs only under it, so a call that passes this fence as
 * its wait fence never sees it freed. The outcome is recorded then ({@link #isReached()}); the
 * stage of {@link #whenReached()} is completed afterwards ({@link #publish()}) on the session's
 * completion executor, where its dependent actions run.
 *
 * <p>Most signal fences are never asked for a stage (a call's future is enough), so the stage is
 * made by the first {@link #whenReached()}, not with the fence: that saves a future per call of the
 * 512 bytes an asynchronous submission may cost (issue #36). A stage asked for after {@link
 * #publish()} is completed at once, by the thread that asks.
 */
final class NativeFence implements Fence {

  private static final int PENDING = 0;
  private static final int REACHED = 1;
  private static final int FAILED = 2;

  private final SessionNatives session;

  /** The stage of {@link #whenReached()}: null until first asked for. Guarded by {@code this}. */
  private CompletableFuture<Void> reached;

  /** Whether {@link #publish()} ran: a stage made later is completed at once. Guarded by this. */
  private boolean published;

  /** {@code iree_hal_fence_t*}, retained; 0 once released. Guarded by the session's lock. */
  private long fence;

  /** The fence's one semaphore, borrowed from it; 0 once released. Guarded by the lock. */
  private long semaphore;

  private volatile int state = PENDING;

  /** The failure recorded by {@link #release}, for calls that wait on a failed fence. */
  private volatile RuntimeException failure;

  NativeFence(SessionNatives session, long fence, long semaphore) {
    this.session = session;
    this.fence = fence;
    this.semaphore = semaphore;
  }

  SessionNatives session() {
    return session;
  }

  /** The native fence, or 0 once released. Under the session's lock. */
  long handle() {
    return fence;
  }

  /** Its semaphore, reached at value 1; 0 once released. Under the session's lock. */
  long semaphore() {
    return semaphore;
  }

  /**
   * Records the outcome and releases the native fence; does nothing when already released. Under
   * the session's lock. {@link #publish()} completes the Java stage afterwards.
   *
   * @param outcome null when the fence was reached, else why it failed
   */
  void release(Native api, RuntimeException outcome) {
    if (fence == 0) {
      return;
    }
    api.fences().fenceRelease(fence);
    fence = 0;
    semaphore = 0;
    settle(outcome);
  }

  /**
   * Records {@code why} as the outcome of a fence whose call a close gave up on, and keeps the
   * native fence: the device may still signal it, and the session's fence waiter still waits on its
   * semaphore; {@link #release} frees it when the device is done. Under the session's lock. {@link
   * #publish()} fails the Java stage afterwards.
   */
  void abandon(RuntimeException why) {
    settle(why);
  }

  /** The first outcome recorded stays. */
  private void settle(RuntimeException outcome) {
    if (state != PENDING) {
      return;
    }
    failure = outcome;
    state = outcome == null ? REACHED : FAILED;
  }

  /**
   * Completes {@link #whenReached()}'s stage, made or still to be made, with the outcome {@link
   * #release} or {@link #abandon} recorded. The stage's dependent actions run outside the monitor.
   */
  void publish() {
    CompletableFuture<Void> stage;
    synchronized (this) {
      published = true;
      stage = reached;
    }
    if (stage != null) {
      completeStage(stage);
    }
  }

  /** Completes {@code stage} with the recorded outcome (the first completion stays). */
  private void completeStage(CompletableFuture<Void> stage) {
    if (state == REACHED) {
      stage.complete(null);
    } else if (state == FAILED) {
      stage.completeExceptionally(failure);
    }
  }

  /**
   * Fails the fence's semaphore with a status of {@code ABORTED} carrying {@code message}, as a
   * device reports an error (tests: a device failure on demand); IREE shows it in the status of
   * every fence and call that waited for it. Does nothing once the fence is released.
   */
  void failOnDevice(String message) {
    Native api = session.api();
    session.lock().lock();
    try (Arena tmp = Arena.ofConfined()) {
      if (fence == 0) {
        return;
      }
      long status =
          api.fences()
              .statusAllocateCopy(
                  IreeStatusCode.ABORTED.code(),
                  StringViews.of(tmp, "iree-stubs"),
                  0,
                  StringViews.of(tmp, message));
      api.fences().semaphoreFail(semaphore, status); // takes the status
    } finally {
      session.lock().unlock();
    }
  }

  /** Why the fence failed, or null when it did not (or has no outcome yet). */
  RuntimeException failure() {
    return failure;
  }

  @Override
  public CompletionStage<Void> whenReached() {
    CompletableFuture<Void> stage;
    boolean settled;
    synchronized (this) {
      if (reached == null) {
        reached = new CompletableFuture<>();
      }
      stage = reached;
      settled = published;
    }
    if (settled) {
      completeStage(stage);
    }
    return stage.minimalCompletionStage();
  }

  @Override
  public boolean isReached() {
    return state == REACHED;
  }

  /** {@code hal.fence@1b6d3586 (local-task, pending)}. */
  @Override
  public String toString() {
    return REF_TYPE
        + "@"
        + Integer.toHexString(System.identityHashCode(this))
        + " ("
        + session.driverName()
        + ", "
        + (state == PENDING ? "pending" : state == REACHED ? "reached" : "failed")
        + ")";
  }
}
