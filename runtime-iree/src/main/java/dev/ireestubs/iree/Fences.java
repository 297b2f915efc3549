package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vm.Fence;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;

/**
 * Makes the fences of one {@link IreeSession}: a new signal fence per asynchronous call, and
 * bridges, fences of the session signalled from Java when a fence of another backend (a {@link
 * Fence#of} stage, another session's fence) is reached, so that the device can wait for it.
 * Used under the session's lock (a bridge's own completion takes it).
 *
 * <p>A bridge is failed, with a status naming the cause, when its fence fails or the session
 * closes, so that device work waiting for it fails instead of waiting forever.
 */
final class Fences {

  /** The file name IREE's status text shows for statuses iree-stubs makes. */
  private static final String SOURCE = "iree-stubs";

  private final IreeSession session;
  private final Native api;
  private final FenceCalls calls;
  private final long device;
  private final MemorySegment allocator;
  private final MemorySegment out;

  /** Bridges not yet settled (guarded by the session's lock). */
  private final Set<NativeFence> bridges = new LinkedHashSet<>();

  Fences(IreeSession session, Arena arena) {
    this.session = session;
    this.api = session.api();
    this.calls = api.fences();
    this.device = session.halDevice().address();
    this.allocator = session.hostAllocator();
    this.out = arena.allocate(ADDRESS);
  }

  /**
   * A new fence of the session's device: a semaphore at 0 and the fence reached at 1. Under the
   * lock.
   *
   * @param what what the fence is for, starting the message if IREE cannot make it
   */
  NativeFence create(String what) {
    api.status()
        .check(
            calls.semaphoreCreate(
                device, Encodings.QUEUE_AFFINITY_ANY, 0, Encodings.SEMAPHORE_FLAG_DEFAULT, out),
            what + ": iree_hal_semaphore_create");
    long semaphore = out.get(JAVA_LONG, 0);
    long status = calls.fenceCreateAt(semaphore, 1, allocator, out);
    if (status != 0) {
      calls.semaphoreRelease(semaphore);
      throw api.status().failure(status, what + ": iree_hal_fence_create_at");
    }
    long fence = out.get(JAVA_LONG, 0);
    calls.semaphoreRelease(semaphore); // the fence holds it
    return new NativeFence(session, fence, semaphore);
  }

  /**
   * A fence of this session reached when {@code foreign} is (failed when it fails, or when the
   * session closes first), for a call that waits on {@code foreign} on the device. Under the lock.
   */
  NativeFence bridge(Fence foreign, String function) {
    NativeFence bridge = create(function + ": a fence for the wait fence " + foreign);
    bridges.add(bridge);
    foreign.whenReached().whenComplete((reached, failure) -> settle(bridge, failure));
    return bridge;
  }

  /** Signals or fails {@code bridge} as its foreign fence came out; takes the session's lock. */
  private void settle(NativeFence bridge, Throwable failure) {
    session.lock().lock();
    try {
      if (!bridges.remove(bridge)) {
        return; // the session closed first and failed it
      }
      if (failure == null) {
        long status = calls.semaphoreSignal(bridge.semaphore(), 1);
        if (status == 0) {
          bridge.release(api, null);
          return;
        }
        failure = api.status().failure(status, "iree_hal_semaphore_signal (a bridged fence)");
      }
      Throwable cause = failure instanceof CompletionException && failure.getCause() != null
          ? failure.getCause()
          : failure;
      String message = "the fence the call waited for failed: " + cause;
      fail(bridge.semaphore(), IreeStatusCode.ABORTED, message);
      bridge.release(api, new IreeInvocationException(message, cause));
    } finally {
      session.lock().unlock();
    }
  }

  /**
   * Fails every bridge not yet settled, so that device work waiting for one fails: when the
   * session closes. Under the lock.
   */
  void failBridges(String why) {
    List<NativeFence> open = new ArrayList<>(bridges);
    bridges.clear();
    for (NativeFence bridge : open) {
      fail(bridge.semaphore(), IreeStatusCode.CANCELLED, why);
      bridge.release(api, new IllegalStateException(why));
    }
  }

  /**
   * Fails {@code semaphore} with a status of {@code code} carrying {@code message}, which IREE
   * shows in the status of every fence and call that waited for it. Under the lock.
   */
  void fail(long semaphore, IreeStatusCode code, String message) {
    try (Arena tmp = Arena.ofConfined()) {
      long status =
          calls.statusAllocateCopy(
              code.code(), StringViews.of(tmp, SOURCE), 0, StringViews.of(tmp, message));
      calls.semaphoreFail(semaphore, status); // takes the status
    }
  }

  /** True when the bridge set is empty (tests). */
  boolean noBridges() {
    return bridges.isEmpty();
  }
}
