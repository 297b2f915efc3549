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

  /** {@link #outcome} of a fence reached. */
  private static final Object REACHED = new Object();

  /**
   * {@link #reached} once {@link #publish()} ran while no stage was asked for: a stage asked for
   * later is completed at once. (A marker rather than a flag: 8 bytes a call, issue #36.)
   */
  private static final CompletableFuture<Void> PUBLISHED = new CompletableFuture<>();

  private final SessionNatives session;

  /**
   * The stage of {@link #whenReached()}: null until first asked for or published, {@link
   * #PUBLISHED} when published before anyone asked. Guarded by {@code this}.
   */
  private CompletableFuture<Void> reached;

  /** {@code iree_hal_fence_t*}, retained; 0 once released. Guarded by the session's lock. */
  private long fence;

  /** The fence's one semaphore, borrowed from it; 0 once released. Guarded by the lock. */
  private long semaphore;

  /**
   * Null while pending, then {@link #REACHED}, or the {@link RuntimeException} the fence failed
   * with (recorded by {@link #release} or {@link #abandon}, for calls that wait on it).
   */
  private volatile Object outcome;

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
  private void settle(RuntimeException failed) {
    if (outcome == null) {
      outcome = failed == null ? REACHED : failed;
    }
  }

  /**
   * Completes {@link #whenReached()}'s stage, made or still to be made, with the outcome {@link
   * #release} or {@link #abandon} recorded. The stage's dependent actions run outside the monitor.
   */
  void publish() {
    CompletableFuture<Void> stage;
    synchronized (this) {
      stage = reached;
      if (stage == null) {
        reached = PUBLISHED;
      }
    }
    if (stage != null && stage != PUBLISHED) {
      completeStage(stage);
    }
  }

  /** Completes {@code stage} with the recorded outcome (the first completion stays). */
  private void completeStage(CompletableFuture<Void> stage) {
    Object settled = outcome;
    if (settled == REACHED) {
      stage.complete(null);
    } else if (settled instanceof RuntimeException failed) {
      stage.completeExceptionally(failed);
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
    return outcome instanceof RuntimeException failed ? failed : null;
  }

  @Override
  public CompletionStage<Void> whenReached() {
    CompletableFuture<Void> stage;
    boolean published;
    synchronized (this) {
      published = reached == PUBLISHED;
      if (reached == null || published) {
        reached = new CompletableFuture<>();
      }
      stage = reached;
    }
    if (published) {
      completeStage(stage); // publish() ran before this stage existed: complete it here
    }
    return stage.minimalCompletionStage();
  }

  @Override
  public boolean isReached() {
    return outcome == REACHED;
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
        + (outcome == null ? "pending" : outcome == REACHED ? "reached" : "failed")
        + ")";
  }
}
