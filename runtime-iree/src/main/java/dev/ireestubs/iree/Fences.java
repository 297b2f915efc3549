package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Makes the fences of one IREE session ({@link SessionNatives}), a new signal fence per
 * asynchronous call. Used under the session's lock.
 */
final class Fences {

  private final SessionNatives session;
  private final Native api;
  private final FenceCalls calls;
  private final long device;
  private final MemorySegment allocator;
  private final MemorySegment out;

  Fences(SessionNatives session, Arena arena) {
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
    long created = calls.semaphoreCreate(device, Encodings.QUEUE_AFFINITY_ANY, 0, out);
    if (created != 0) { // the message is built only on failure: a call allocates no text
      throw api.status().failure(created, what + ": iree_hal_semaphore_create");
    }
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
}
