package dev.ireestubs.iree;

import dev.ireestubs.invoke.IreeInvocationException;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The free sessions of an engine, for a pool's calls: a call takes one ({@link #take}), waiting in
 * the order the calls came (a fair queue), without bound or up to {@code maxWait}, and gives it
 * back ({@link #giveBack}). An engine that is not a pool (a session) has no seats to wait for: its
 * session's lock orders its calls, and {@link #take} gives its one session at once.
 */
final class Seats {

  private final String what;
  private final int size;
  private final boolean pooled;
  private final long maxWaitNanos; // < 0: no bound
  private final Semaphore permits;
  private final ConcurrentLinkedDeque<Integer> free = new ConcurrentLinkedDeque<>();
  private volatile boolean closed;

  /**
   * @param what how messages name the engine's face
   * @param size how many sessions
   * @param pooled whether calls take a seat (a pool, also of one)
   * @param maxWaitNanos how long a call waits for a seat; negative: without bound
   */
  Seats(String what, int size, boolean pooled, long maxWaitNanos) {
    this.what = what;
    this.size = size;
    this.pooled = pooled;
    this.maxWaitNanos = maxWaitNanos;
    this.permits = new Semaphore(size, true);
    for (int i = 0; i < size; i++) {
      free.push(i);
    }
  }

  /** Takes a free session, waiting in turn (at most maxWait); its index. */
  int take(String name) {
    if (!pooled) {
      return 0;
    }
    boolean got;
    try {
      if (maxWaitNanos < 0) {
        permits.acquire();
        got = true;
      } else {
        got = permits.tryAcquire(maxWaitNanos, TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IreeInvocationException(
          name + ": interrupted while waiting for a free session of the pool",
          IreeStatusCode.CANCELLED.code());
    }
    if (!got) {
      throw new IreeInvocationException(
          name
              + ": all "
              + size
              + " sessions of the pool stayed busy for "
              + Duration.ofNanos(maxWaitNanos).toMillis()
              + " ms (the pool's maxWait): make the"
              + " pool larger, let calls wait longer, or send fewer calls at once",
          IreeStatusCode.DEADLINE_EXCEEDED.code());
    }
    if (closed) { // woken by the close
      permits.release();
      throw new IllegalStateException(what + " is closed: " + name + " cannot be called");
    }
    Integer index = free.pollFirst();
    if (index == null) { // cannot happen: a permit is a free session
      permits.release();
      throw new IllegalStateException(name + ": no free session although a permit was taken");
    }
    return index;
  }

  /** Returns a session {@link #take} took. */
  void giveBack(int index) {
    if (!pooled) {
      return;
    }
    free.addFirst(index); // the session used last is taken next: its caches are warm
    permits.release();
  }

  /** Refuses later takes and wakes every waiting call: each finds the engine closed. */
  void close() {
    closed = true;
    permits.release(Integer.MAX_VALUE / 2);
  }

  /** How many calls wait for a free session now (tests). */
  int waiting() {
    return permits.getQueueLength();
  }
}
