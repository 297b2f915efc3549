package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ireestubs.invoke.IreeInvocationException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one thread of an IREE session ({@link SessionNatives}) that waits for its calls in flight:
 * however many calls are submitted, one platform thread blocks in IREE, in {@code
 * iree_hal_device_wait_semaphores} in "any" mode over the signal semaphore of every pending call
 * plus a <i>wake</i> semaphore that a submitting thread signals when it adds a call the wait does
 * not cover. When the wait returns it asks each pending fence ({@code iree_hal_fence_query}:
 * reached, not yet, or failed with IREE's status) and hands the finished calls to the {@link
 * Completer}, which decodes their results.
 *
 * <p>A submitter wakes the thread only when it waits for no call ({@link #add}). (IREE's CPU
 * drivers cannot export a fence or timepoint as a wait handle, so the wait-handle route of {@code
 * iree_wait_any} is closed; the multi-wait re-arms one timepoint per pending call at each wake,
 * which is cheap for the tens of calls a session has in flight.)
 *
 * <p>Started at the first asynchronous call, holding the session's native state ({@link Retention})
 * while it runs; {@link #stopWhenIdle} (at the session's close) has it end once every call it waits
 * for is reached or failed <i>by the device</i>: a close never cuts the wait short, so the native
 * objects of calls the device still runs are released only after it is done with them. The signal
 * fences of pending calls are released only by the completer, on this thread, so the semaphores it
 * waits on stay valid. The wake semaphore is replaced (by this thread) before its payload nears
 * IREE's maximum, and released by this thread as it ends.
 */
final class FenceWaiter implements Runnable {

  /** Finishes calls whose fences were reached or failed. */
  interface Completer {
    /**
     * Completes {@code done}: {@code failures.get(i)} is null when the call's fence was reached,
     * else why it failed. Runs on the waiter's thread, without the session's lock. Both lists are
     * the waiter's, reused for its next wait: read them during the call only.
     */
    void complete(List<InFlight<?>> done, List<RuntimeException> failures);

    /**
     * Fails the futures of {@code lost}, calls whose fences can no longer be waited for (the wait
     * itself failed), keeping their native parts: the device may still run them. Runs on the
     * waiter's thread, without the session's lock.
     */
    void lose(List<InFlight<?>> lost, RuntimeException why);
  }

  /**
   * Wake payloads beyond this make the waiter replace the wake semaphore (IREE's max is 2^31-2).
   */
  static final long WAKE_LIMIT = 1L << 30;

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final SessionNatives session;
  private final Retention hold;
  private final Native api;
  private final FenceCalls calls;
  private final long device;
  private final Completer completer;
  private final MemorySegment out;

  /**
   * Calls added and not taken by the thread yet, the newest first, linked through {@link
   * InFlight#nextIncoming}: submitters push (under the session's lock, one at a time), the thread
   * takes the whole stack at once. Unlike a queue it allocates nothing per call.
   */
  private final AtomicReference<InFlight<?>> incoming = new AtomicReference<>();

  /** The calls the thread waits for; the thread's own until it has stopped. */
  private final List<InFlight<?>> pending = new ArrayList<>();

  /**
   * The calls of one wait that finished, and why each failed (null when reached): handed to the
   * completer, then cleared. The thread's own, reused so that a wait allocates no lists.
   */
  private final List<InFlight<?>> done = new ArrayList<>();

  private final List<RuntimeException> failures = new ArrayList<>();

  // Guarded by the session's lock.
  private Thread thread;
  private long wake;
  private long wakeValue;

  private volatile boolean stopping;

  /**
   * Calls given up on because the wait failed ({@link #failAll}): while any is, the thread keeps
   * its hold on the session's native state when it ends. This thread's own.
   */
  private int lost;

  /**
   * How many calls the thread's current wait includes (0 when only the wake semaphore), set before
   * it looks at {@link #incoming} a last time and waits: a submitter that adds a call and then
   * reads 0 wakes it (see {@link #add}).
   */
  private volatile int waitingFor;

  FenceWaiter(SessionNatives session, Retention hold, Arena arena, Completer completer) {
    this.session = session;
    this.hold = hold;
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
  void add(InFlight<?> call) {
    if (thread == null) {
      start();
    }
    InFlight<?> newest;
    do {
      newest = incoming.get();
      call.nextIncoming = newest;
    } while (!incoming.compareAndSet(newest, call));
    if (waitingFor == 0) {
      wake();
    }
  }

  private void start() {
    wake = newWakeSemaphore();
    hold.retain(); // dropped by the thread as it ends
    thread =
        new Thread(
            this, "iree-stubs-fences-" + session.driverName() + "-" + THREADS.incrementAndGet());
    thread.setDaemon(true);
    thread.start();
  }

  private long newWakeSemaphore() {
    api.status()
        .check(
            calls.semaphoreCreate(device, Encodings.QUEUE_AFFINITY_ANY, 0, out),
            "the session's wake semaphore: iree_hal_semaphore_create");
    wakeValue = 0;
    return out.get(JAVA_LONG, 0);
  }

  /** Raises the wake semaphore's payload, ending the thread's current wait. Under the lock. */
  private void wake() {
    if (wake == 0) {
      return; // the thread has ended
    }
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
        takeIncoming();
        if (stopping && pending.isEmpty()) {
          return; // closed, and the device is done with every call: nothing waits any more
        }
        waitingFor = pending.size();
        if (incoming.get() != null) {
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
    } finally {
      end();
    }
  }

  /** Moves the calls added since the last look to {@link #pending}, oldest first. */
  private void takeIncoming() {
    InFlight<?> newest = incoming.getAndSet(null);
    if (newest == null) {
      return;
    }
    int from = pending.size();
    for (InFlight<?> call = newest; call != null; ) {
      InFlight<?> older = call.nextIncoming;
      call.nextIncoming = null;
      pending.add(call);
      call = older;
    }
    for (int i = from, j = pending.size() - 1; i < j; i++, j--) { // newest first: reverse them
      pending.set(i, pending.set(j, pending.get(i)));
    }
  }

  /**
   * As the thread ends: releases the wake semaphore, then drops the thread's hold, unless calls
   * were lost to a failed wait (then the session's native state is kept: see {@link #failAll}).
   */
  private void end() {
    session.lock().lock();
    try {
      if (wake != 0) {
        calls.semaphoreRelease(wake);
        wake = 0;
      }
    } finally {
      session.lock().unlock();
    }
    if (lost == 0) {
      hold.release();
    }
  }

  /**
   * Hands the pending calls whose fences were reached or failed to the completer; false when none
   * was.
   */
  private boolean finish() {
    for (int i = pending.size() - 1; i >= 0; i--) {
      InFlight<?> call = pending.get(i);
      long status = calls.fenceQuery(call.signal().handle());
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
      pending.remove(i);
      done.add(call);
      failures.add(failure);
    }
    if (done.isEmpty()) {
      return false;
    }
    try {
      completer.complete(done, failures);
    } finally {
      done.clear();
      failures.clear();
    }
    return true;
  }

  /**
   * Gives up waiting for every pending call, as the wait itself failed: their futures fail, and
   * their native parts, with the session's, are kept for good ({@link #lost}), since nothing can
   * tell any more when the device is done with them.
   */
  private void failAll(RuntimeException failure) {
    if (pending.isEmpty()) {
      return;
    }
    List<InFlight<?>> gone = new ArrayList<>(pending);
    pending.clear();
    lost += gone.size();
    completer.lose(gone, failure);
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
   * Has the thread end once the device has reached or failed every call it waits for (at once when
   * none), and wakes it. Under the lock, once no call will be added: the session is closed.
   */
  void stopWhenIdle() {
    if (thread == null) {
      return; // never started: holds nothing
    }
    stopping = true;
    wake();
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
    MemorySegment list(long wake, long wakeAt, List<InFlight<?>> calls) {
      int n = calls.size() + 1;
      if (n > capacity) {
        grow(n);
      }
      semaphores.setAtIndex(JAVA_LONG, 0, wake);
      payloads.setAtIndex(JAVA_LONG, 0, wakeAt);
      for (int i = 1; i < n; i++) {
        semaphores.setAtIndex(JAVA_LONG, i, calls.get(i - 1).signal().semaphore());
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
