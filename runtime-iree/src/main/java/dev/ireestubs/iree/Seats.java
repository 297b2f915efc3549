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
 * sits on a cache line of its own, and the flags are the only count of free sessions: a call that
 * finds its session free takes and gives it back writing that line alone, nothing every call of
 * every thread writes (a semaphore's count is such a line: with calls on two cores at once it moved
 * between them twice a call), and allocates nothing. Only a call that finds no session free queues.
 */
final class Seats {

  private final String what;
  private final int size;
  private final boolean pooled;
  private final long maxWaitNanos; // < 0: no bound
  private final Waiters waiters;

  /** How long a waiting call may be overtaken by calls that came after it. */
  static final long GRACE_MILLIS = 10;

  private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);

  /** 1 while a call has session i, at index i * {@link #SPACING}; a free session is a 0. */
  private final AtomicIntegerArray taken;

  /** Ints between two sessions' flags: 64 bytes, a cache line. */
  private static final int SPACING = 16;

  private volatile boolean closed;

  /** The session a queued call's acquire took, for its thread (a thread waits in one pool). */
  private static final ThreadLocal<int[]> TOOK = ThreadLocal.withInitial(() -> new int[1]);

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
    this.waiters = new Waiters();
    this.taken = new AtomicIntegerArray(pooled ? size * SPACING : 0);
  }

  /** Takes a free session, waiting (at most maxWait); its index. */
  int take(String name) {
    if (!pooled) {
      return 0;
    }
    if (waiters.overdue.get() == 0) { // else the overdue calls go first: see Waiters
      int index = takeFree();
      if (index >= 0) {
        return checkOpen(index, name);
      }
    }
    int index;
    try {
      index = await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IreeInvocationException(
          name + ": interrupted while waiting for a free session of the pool",
          IreeStatusCode.CANCELLED.code());
    }
    if (index == TIMED_OUT) {
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
    return checkOpen(index, name);
  }

  /** {@code index}, or, when the engine is closed (woken by the close), the session given back. */
  private int checkOpen(int index, String name) {
    if (closed) {
      if (index >= 0) {
        giveBack(index);
      }
      throw new IllegalStateException(what + " is closed: " + name + " cannot be called");
    }
    return index;
  }

  /** What {@link #await} returns when maxWait passed. */
  private static final int TIMED_OUT = -2;

  /**
   * Waits in the queue for a free session: within the grace as calls come; after it, as an overdue
   * call, in order behind the calls waiting before it (which are then served in order too). The
   * session's index, -1 when woken by the close without one, or {@link #TIMED_OUT}.
   */
  private int await() throws InterruptedException {
    long start = System.nanoTime();
    long first = maxWaitNanos < 0 ? GRACE_NANOS : Math.min(GRACE_NANOS, maxWaitNanos);
    if (waiters.tryAcquireSharedNanos(1, first)) {
      return waiters.taken();
    }
    long left = maxWaitNanos < 0 ? Long.MAX_VALUE : maxWaitNanos - (System.nanoTime() - start);
    if (left <= 0) {
      return TIMED_OUT;
    }
    waiters.overdue.incrementAndGet();
    try {
      if (maxWaitNanos < 0) {
        waiters.acquireSharedInterruptibly(1);
        return waiters.taken();
      }
      return waiters.tryAcquireSharedNanos(1, left) ? waiters.taken() : TIMED_OUT;
    } finally {
      waiters.overdue.decrementAndGet();
    }
  }

  /**
   * The index of a free session, marked taken, or -1 when every one is taken: one look at each,
   * starting at the one this thread's id picks; a flag lost to a racing call is passed over.
   */
  private int takeFree() {
    long id = Thread.currentThread().threadId();
    int start = (int) (((id * 0x9E3779B97F4A7C15L) >>> 33) % size);
    for (int i = 0; i < size; i++) {
      int index = start + i < size ? start + i : start + i - size;
      int at = index * SPACING;
      if (taken.get(at) == 0 && taken.compareAndSet(at, 0, 1)) {
        return index;
      }
    }
    return -1;
  }

  /** Returns a session {@link #take} took. */
  void giveBack(int index) {
    if (!pooled) {
      return;
    }
    taken.set(index * SPACING, 0);
    // Read after the flag's write, as a queued call takes the flags after joining the queue: either
    // the call sees the session free, or this sees the call and wakes the queue's first.
    if (waiters.hasQueuedThreads()) {
      waiters.releaseShared(1);
    }
  }

  /** Refuses later takes and wakes every waiting call: each finds the engine closed. */
  void close() {
    closed = true;
    waiters.releaseShared(1); // each woken call wakes the next: see Waiters
  }

  /** How many calls wait for a free session now (tests). */
  int waiting() {
    return waiters.getQueueLength();
  }

  /** How many calls have waited past the grace now (tests). */
  int overdue() {
    return waiters.overdue.get();
  }

  /**
   * The queue of calls that found no session free. Its state is unused: a queued call's acquire
   * takes a session's flag ({@link #takeFree}) and keeps the index for its thread ({@link #taken});
   * a call that gives a session back wakes the queue's first call, and every call that acquires
   * wakes the next (shared mode), which takes a flag or waits again. No call may take while a call
   * has waited past the grace ({@link #overdue}) and is queued before it, as a fair semaphore
   * serves its queue. After the close every acquire succeeds without a session.
   */
  private final class Waiters extends AbstractQueuedSynchronizer {
    private static final long serialVersionUID = 1L;

    /** Calls waiting longer than the grace now. */
    final AtomicInteger overdue = new AtomicInteger();

    @Override
    protected int tryAcquireShared(int unused) {
      if (closed) {
        TOOK.get()[0] = -1;
        return 1;
      }
      if (overdue.get() > 0 && hasQueuedPredecessors()) {
        return -1;
      }
      int index = takeFree();
      if (index < 0) {
        return -1;
      }
      TOOK.get()[0] = index;
      return 0;
    }

    @Override
    protected boolean tryReleaseShared(int unused) {
      return true; // a session was freed (or the engine closed): wake the first call
    }

    /** The index the calling thread's last successful acquire took; -1 after the close. */
    int taken() {
      return TOOK.get()[0];
    }
  }
}
