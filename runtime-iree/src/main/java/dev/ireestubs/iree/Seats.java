package dev.ireestubs.iree;

import dev.ireestubs.invoke.IreeInvocationException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;

/**
 * The free sessions of an engine, for a pool's calls: a call takes one ({@link #take}), waiting
 * without bound or up to {@code maxWait}, and gives it back ({@link #giveBack}). An engine that is
 * not a pool (a session) has no seats to wait for: its session's lock orders its calls, and {@link
 * #take} gives its one session at once.
 *
 * <p>Order: a call takes a free session as it comes, even while others wait (a thread that just
 * gave its session back takes it again without a thread switch), until a waiting call has waited
 * {@value #GRACE_MILLIS} ms; from then on every call queues behind the waiting ones and the queue
 * is served in its order, until none has waited that long (a call that reaches the grace joins the
 * queue again at its end, behind calls that queued while it waited). A strictly fair queue hands
 * every freed session to a parked thread: with more calling threads than sessions each call then
 * costs a park and a wake-up, and 8 threads on a pool of 2 made a sixth of one thread's calls (see
 * docs/performance.md, "A pool of sessions"). The grace bounds how long a call can be overtaken.
 *
 * <p>Which free session a call gets: a thread starts looking at the session its id picks, so a
 * thread calling again and again gets the same session while it is free (its caches warm), and
 * threads as many as the sessions mostly keep to sessions of their own. Each session's taken flag
 * sits on a cache line of its own: taking and giving back write only that line (and the semaphore's
 * count), nothing every call of every thread writes, and allocate nothing.
 */
final class Seats {

  private final String what;
  private final int size;
  private final boolean pooled;
  private final long maxWaitNanos; // < 0: no bound
  private final Permits permits;

  /** How long a waiting call may be overtaken by calls that came after it. */
  static final long GRACE_MILLIS = 10;

  private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);

  /** 1 while a call has session i, at index i * {@link #SPACING}; a permit is a 0 among them. */
  private final AtomicIntegerArray taken;

  /** Ints between two sessions' flags: 64 bytes, a cache line. */
  private static final int SPACING = 16;

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
    this.permits = new Permits(size);
    this.taken = new AtomicIntegerArray(pooled ? size * SPACING : 0);
  }

  /**
   * Takes a permit: within the grace as calls come; after it, as an overdue call, in order behind
   * the calls waiting before it (which are then served in order too). False when maxWait passed.
   */
  private boolean acquire() throws InterruptedException {
    long start = System.nanoTime();
    long first = maxWaitNanos < 0 ? GRACE_NANOS : Math.min(GRACE_NANOS, maxWaitNanos);
    if (permits.tryAcquireSharedNanos(1, first)) {
      return true;
    }
    long left = maxWaitNanos < 0 ? Long.MAX_VALUE : maxWaitNanos - (System.nanoTime() - start);
    if (left <= 0) {
      return false;
    }
    permits.overdue.incrementAndGet();
    try {
      if (maxWaitNanos < 0) {
        permits.acquireSharedInterruptibly(1);
        return true;
      }
      return permits.tryAcquireSharedNanos(1, left);
    } finally {
      permits.overdue.decrementAndGet();
    }
  }

  /** Takes a free session, waiting (at most maxWait); its index. */
  int take(String name) {
    if (!pooled) {
      return 0;
    }
    boolean got;
    try {
      got = acquire();
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
      permits.releaseShared(1);
      throw new IllegalStateException(what + " is closed: " + name + " cannot be called");
    }
    return takeFree();
  }

  /**
   * The index of a free session, marked taken. The caller holds a permit, and a session is marked
   * free before its permit is released, so a free one is there for every permit holder; a holder
   * racing others for the same one goes on to the next, and around again if the one left was freed
   * behind it.
   */
  private int takeFree() {
    long id = Thread.currentThread().threadId();
    int start = (int) (((id * 0x9E3779B97F4A7C15L) >>> 33) % size);
    while (true) {
      for (int i = 0; i < size; i++) {
        int index = (start + i) % size;
        int at = index * SPACING;
        if (taken.get(at) == 0 && taken.compareAndSet(at, 0, 1)) {
          return index;
        }
      }
      Thread.onSpinWait();
    }
  }

  /** Returns a session {@link #take} took. */
  void giveBack(int index) {
    if (!pooled) {
      return;
    }
    taken.set(index * SPACING, 0); // free before the permit: see takeFree
    permits.releaseShared(1);
  }

  /** Refuses later takes and wakes every waiting call: each finds the engine closed. */
  void close() {
    closed = true;
    permits.releaseShared(Integer.MAX_VALUE / 2);
  }

  /** How many calls wait for a free session now (tests). */
  int waiting() {
    return permits.getQueueLength();
  }

  /** How many calls have waited past the grace now (tests). */
  int overdue() {
    return permits.overdue.get();
  }

  /**
   * A permit per free session. A call takes one as it comes unless a call has waited past the grace
   * ({@link #overdue}); then only the first queued call may, as a fair semaphore serves its queue.
   */
  private static final class Permits extends AbstractQueuedSynchronizer {
    private static final long serialVersionUID = 1L;

    /** Calls waiting longer than the grace now. */
    final AtomicInteger overdue = new AtomicInteger();

    Permits(int count) {
      setState(count);
    }

    @Override
    protected int tryAcquireShared(int count) {
      if (overdue.get() > 0 && hasQueuedPredecessors()) {
        return -1;
      }
      while (true) {
        int available = getState();
        int left = available - count;
        if (left < 0 || compareAndSetState(available, left)) {
          return left;
        }
      }
    }

    @Override
    protected boolean tryReleaseShared(int count) {
      while (true) {
        int available = getState();
        if (compareAndSetState(available, available + count)) {
          return true;
        }
      }
    }
  }
}
