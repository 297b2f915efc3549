package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ireestubs.invoke.IreeInvocationException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one thread of an {@link IreeSession} that waits for its calls in flight: however many calls
 * are submitted, one platform thread blocks in IREE, in {@code iree_hal_device_wait_semaphores} in
 * "any" mode over the signal semaphore of every pending call plus a <i>wake</i> semaphore that a
 * submitting thread signals when it adds a call the wait does not cover. When the wait returns it
 * asks each pending fence ({@code iree_hal_fence_query}: reached, not yet, or failed with IREE's
 * status) and hands the finished calls to the {@link Completer}, which decodes their results.
 *
 * <p>A submitter wakes the thread only when it waits for no call ({@link #add}). (IREE's CPU
 * drivers cannot export a fence or timepoint as a wait handle, so the wait-handle route of {@code
 * iree_wait_any} is closed; the multi-wait re-arms one timepoint per pending call at each wake,
 * which is cheap for the tens of calls a session has in flight.)
 *
 * <p>Started at the first asynchronous call; {@link #stop} ends it. The signal fences of pending
 * calls are released only by the completer, on this thread, or after the thread has stopped, so the
 * semaphores it waits on stay valid. The wake semaphore is replaced (by this thread) before its
 * payload nears IREE's maximum.
 */
final class FenceWaiter implements Runnable {

  /** Finishes calls whose fences were reached or failed. */
  interface Completer {
    /**
     * Completes {@code done}: {@code failures.get(i)} is null when the call's fence was reached,
     * else why it failed. Runs on the waiter's thread, without the session's lock.
     */
    void complete(List<InFlight> done, List<RuntimeException> failures);
  }

  /**
   * Wake payloads beyond this make the waiter replace the wake semaphore (IREE's max is 2^31-2).
   */
  static final long WAKE_LIMIT = 1L << 30;

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final IreeSession session;
  private final Native api;
  private final FenceCalls calls;
  private final long device;
  private final Completer completer;
  private final MemorySegment out;
  private final Queue<InFlight> incoming = new ConcurrentLinkedQueue<>();

  /** The calls the thread waits for; the thread's own until it has stopped. */
  private final List<InFlight> pending = new ArrayList<>();

  // Guarded by the session's lock.
  private Thread thread;
  private long wake;
  private long wakeValue;

  private volatile boolean stopping;

  /**
   * How many calls the thread's current wait includes (0 when only the wake semaphore), set before
   * it looks at {@link #incoming} a last time and waits: a submitter that adds a call and then
   * reads 0 wakes it (see {@link #add}).
   */
  private volatile int waitingFor;

  FenceWaiter(IreeSession session, Arena arena, Completer completer) {
    this.session = session;
    this.api = session.api();
    this.calls = api.fences();
    this.device = session.halDevice().address();
    this.completer = completer;
    this.out = arena.allocate(ADDRESS);
  }

  /**
   * Adds a submitted call, starting the thread first if needed, and wakes it when it waits for no
   * call: a thread that waits for calls notices the new one when the first of them completes, and
   * so every submission does not cost a wake (a semaphore signal, a context switch and a re-armed
   * wait). Under the lock.
   */
  void add(InFlight call) {
    if (thread == null) {
      start();
    }
    incoming.add(call);
    if (waitingFor == 0) {
      wake();
    }
  }

  private void start() {
    wake = newWakeSemaphore();
    thread =
        new Thread(
            this,
            "iree-stubs-fences-" + session.device().driverName() + "-" + THREADS.incrementAndGet());
    thread.setDaemon(true);
    thread.start();
  }

  private long newWakeSemaphore() {
    api.status()
        .check(
            calls.semaphoreCreate(
                device, Encodings.QUEUE_AFFINITY_ANY, 0, Encodings.SEMAPHORE_FLAG_DEFAULT, out),
            "the session's wake semaphore: iree_hal_semaphore_create");
    wakeValue = 0;
    return out.get(JAVA_LONG, 0);
  }

  /** Raises the wake semaphore's payload, ending the thread's current wait. Under the lock. */
  private void wake() {
    long status = calls.semaphoreSignal(wake, ++wakeValue);
    if (status != 0) {
      throw api.status().failure(status, "waking the session's fence waiter");
    }
  }

  @Override
  public void run() {
    try (Arena arena = Arena.ofConfined()) {
      Scratch scratch = new Scratch(arena);
      long seen = 0;
      while (true) {
        for (InFlight call; (call = incoming.poll()) != null; ) {
          pending.add(call);
        }
        if (stopping) {
          return;
        }
        waitingFor = pending.size();
        if (!incoming.isEmpty()) {
          continue; // added while this thread drained: take it into this wait
        }
        long status =
            calls.deviceWaitSemaphores(
                device,
                Encodings.WAIT_MODE_ANY,
                scratch.list(wake, seen + 1, pending),
                session.infiniteTimeout(),
                Encodings.WAIT_FLAG_DEFAULT);
        RuntimeException waitFailed = null;
        if (status != 0) {
          int code = IreeStatusCode.codeOf(status);
          if (code == IreeStatusCode.ABORTED.code()) {
            api.status().freeStatus(status); // a semaphore failed: the queries say which
          } else {
            waitFailed = api.status().failure(status, "iree_hal_device_wait_semaphores");
          }
        }
        seen = scratch.payload(wake);
        if (!finish() && waitFailed != null) {
          failAll(waitFailed); // the wait itself fails: no call would ever finish
        }
        if (seen > WAKE_LIMIT) {
          replaceWake();
          seen = 0;
        }
      }
    }
  }

  /**
   * Hands the pending calls whose fences were reached or failed to the completer; false when none
   * was.
   */
  private boolean finish() {
    List<InFlight> done = null;
    List<RuntimeException> failures = null;
    for (int i = pending.size() - 1; i >= 0; i--) {
      InFlight call = pending.get(i);
      long status = calls.fenceQuery(call.signal.handle());
      RuntimeException failure = null;
      if (status != 0) {
        int code = IreeStatusCode.codeOf(status);
        if (code == IreeStatusCode.DEFERRED.code()) {
          api.status().freeStatus(status);
          continue;
        }
        failure =
            new IreeInvocationException(
                call.function.qualifiedName()
                    + " failed on the device ("
                    + IreeStatusCode.describe(code)
                    + "): "
                    + api.status().consumeStatus(status),
                code);
      }
      if (done == null) {
        done = new ArrayList<>();
        failures = new ArrayList<>();
      }
      pending.remove(i);
      done.add(call);
      failures.add(failure);
    }
    if (done == null) {
      return false;
    }
    completer.complete(done, failures);
    return true;
  }

  /** Completes every pending call with {@code failure}. */
  private void failAll(RuntimeException failure) {
    List<InFlight> done = new ArrayList<>(pending);
    List<RuntimeException> failures = new ArrayList<>();
    for (InFlight call : done) {
      failures.add(
          new IreeInvocationException(
              call.function.qualifiedName()
                  + ": waiting for the call failed: "
                  + failure.getMessage(),
              failure));
    }
    pending.clear();
    if (!done.isEmpty()) {
      completer.complete(done, failures);
    }
  }

  /** A new wake semaphore, before the old one's payload nears IREE's maximum. */
  private void replaceWake() {
    long old;
    session.lock().lock();
    try {
      old = wake;
      wake = newWakeSemaphore();
    } finally {
      session.lock().unlock();
    }
    calls.semaphoreRelease(old); // no submitter signals it any more; this thread waits no more
  }

  /**
   * Stops the thread: wakes it and waits for it to end, at most {@code millis}. Call without the
   * lock, once no call will be added.
   *
   * @return true when the thread has ended (or never started)
   */
  boolean stop(long millis) throws InterruptedException {
    Thread t;
    session.lock().lock();
    try {
      t = thread;
      if (t == null) {
        return true;
      }
      stopping = true;
      wake();
    } finally {
      session.lock().unlock();
    }
    t.join(Math.max(1, millis));
    return !t.isAlive();
  }

  /** The calls still pending when the thread stopped, taken out. After {@link #stop}. */
  List<InFlight> leftovers() {
    for (InFlight call; (call = incoming.poll()) != null; ) {
      pending.add(call);
    }
    List<InFlight> left = new ArrayList<>(pending);
    pending.clear();
    return left;
  }

  /** Releases the wake semaphore. Under the lock, after {@link #stop} returned true. */
  void close() {
    if (wake != 0) {
      calls.semaphoreRelease(wake);
      wake = 0;
    }
  }

  /** The waiter's native scratch: the semaphore list it waits on, grown as calls pile up. */
  private final class Scratch {
    private final Arena arena;
    private final MemorySegment list;
    private final MemorySegment value;
    private MemorySegment semaphores;
    private MemorySegment payloads;
    private int capacity;

    Scratch(Arena arena) {
      this.arena = arena;
      this.list = arena.allocate(Layouts.SEMAPHORE_LIST);
      this.value = arena.allocate(JAVA_LONG);
      grow(16);
    }

    private void grow(int atLeast) {
      capacity = Math.max(atLeast, capacity * 2);
      semaphores = arena.allocate(ADDRESS, capacity);
      payloads = arena.allocate(JAVA_LONG, capacity);
      list.set(ADDRESS, Layouts.SEMAPHORE_LIST_SEMAPHORES, semaphores);
      list.set(ADDRESS, Layouts.SEMAPHORE_LIST_VALUES, payloads);
    }

    /** {@code wake} at {@code wakeAt}, then each pending call's signal semaphore at 1. */
    MemorySegment list(long wake, long wakeAt, List<InFlight> calls) {
      int n = calls.size() + 1;
      if (n > capacity) {
        grow(n);
      }
      semaphores.setAtIndex(JAVA_LONG, 0, wake);
      payloads.setAtIndex(JAVA_LONG, 0, wakeAt);
      for (int i = 1; i < n; i++) {
        semaphores.setAtIndex(JAVA_LONG, i, calls.get(i - 1).signal.semaphore());
        payloads.setAtIndex(JAVA_LONG, i, 1);
      }
      list.set(JAVA_LONG, Layouts.SEMAPHORE_LIST_COUNT, n);
      return list;
    }

    /** {@code semaphore}'s payload; a failed (or unreadable) one reads as the maximum. */
    long payload(long semaphore) {
      long status = calls.semaphoreQuery(semaphore, value);
      if (status != 0) {
        api.status().freeStatus(status);
        return WAKE_LIMIT + 1; // replace it
      }
      return value.get(JAVA_LONG, 0);
    }
  }
}
