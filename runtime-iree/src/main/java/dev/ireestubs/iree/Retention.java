package dev.ireestubs.iree;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * When a native object is released: once its owner has closed it <i>and</i> nothing that may still
 * touch it holds it. The one rule of runtime-iree's lifetimes (docs/threads-and-memory.md): a
 * close, a timeout or a cancel completes or fails the Java side at once; it never frees a native
 * object the device may still use. Whoever sees the device finish with an object (the fence waiter
 * when a call's signal fence is reached or failed) drops its hold, and the last hold dropped runs
 * the release, on that thread.
 *
 * <p>The owner holds one hold from construction, dropped by its close ({@link #release()}); every
 * user that may outlive the close takes one first ({@link #retain()}) and drops it when done:
 *
 * <ul>
 *   <li>an {@link IreeRuntime}'s instance is held by each of its sessions and pools (their {@link
 *       Engine}s) until their own native parts are released;
 *   <li>an engine's device and modules (a session's, or a pool's) are held by each of its IREE
 *       sessions ({@link NativeSession});
 *   <li>an IREE session's native state ({@link SessionNatives}: its context, modules, device
 *       reference) is held by its fence waiter while the waiter has calls on the device.
 * </ul>
 *
 * <p>When the device never finishes (a hung dispatch), the hold is never dropped and the object is
 * kept, never freed early: {@link IreeRuntime#callsStillOnDevice()} counts such calls. Thread-safe.
 */
final class Retention {

  /** Objects made and not released yet, in this JVM (leak checks: flat over a soak). */
  private static final AtomicInteger LIVE = new AtomicInteger();

  private final String what;
  private final Runnable release;

  /** The owner's hold plus one per user; 0 once released, and never raised again. */
  private final AtomicInteger holds = new AtomicInteger(1);

  /**
   * @param what what is released, for messages
   * @param release frees the native object; runs once, on the thread that drops the last hold
   */
  Retention(String what, Runnable release) {
    this.what = what;
    this.release = release;
    LIVE.incrementAndGet();
  }

  /** How many native objects with a retention are not released yet, in this JVM. */
  static int live() {
    return LIVE.get();
  }

  /**
   * Takes a hold, which must later be dropped with {@link #release()}.
   *
   * @throws IllegalStateException when the object is already released (its owner closed it and
   *     nothing held it): a user that comes too late, a bug of ours
   */
  void retain() {
    int n;
    do {
      n = holds.get();
      if (n == 0) {
        throw new IllegalStateException(what + " is already released");
      }
    } while (!holds.compareAndSet(n, n + 1));
  }

  /** Drops a hold (the owner's, at its close, or a user's); the last one releases the object. */
  void release() {
    int n = holds.decrementAndGet();
    if (n == 0) {
      LIVE.decrementAndGet();
      release.run();
    } else if (n < 0) {
      holds.set(0);
      throw new IllegalStateException(what + ": released more often than held");
    }
  }

  @Override
  public String toString() {
    int n = holds.get();
    return what + (n == 0 ? " (released)" : " (" + n + " holds)");
  }
}
