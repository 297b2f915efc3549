package dev.ireestubs.iree;

import dev.ireestubs.vm.MemoryLease;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The Java buffers IREE holds imported, and the holds on their leases, under keys that IREE's
 * release callback hands back: the buffer keeps the memory reachable (no cleaner frees it under
 * IREE), the hold keeps its owner from freeing it. Thread-safe.
 *
 * <p>Every call of every session pins its arguments and IREE unpins them when it lets them go, so
 * the table is striped: a thread pins in the stripe its id picks, and the key names the stripe and
 * the slot in it (the release may come on another thread). One table for all would be one lock for
 * every calling thread, and on a small machine a thread preempted while holding it stalls the
 * others. A stripe reuses freed slots: pinning and unpinning allocate nothing once it has grown to
 * the number of buffers its threads have imported at once.
 */
final class ImportPins {

  private final Stripe[] stripes;

  ImportPins() {
    int wanted = Math.min(64, 8 * Runtime.getRuntime().availableProcessors());
    stripes = new Stripe[Integer.highestOneBit(Math.max(1, wanted - 1)) << 1];
    for (int i = 0; i < stripes.length; i++) {
      stripes[i] = new Stripe();
    }
  }

  /**
   * Keeps {@code buffer} and a hold on {@code lease} (null for memory no lease controls) until
   * unpinned; the key (never 0): the stripe in its high 32 bits, the slot + 1 in its low ones.
   */
  long pin(ByteBuffer buffer, MemoryLease lease) {
    long id = Thread.currentThread().threadId();
    int stripe = (int) ((id * 0x9E3779B97F4A7C15L) >>> 40) & (stripes.length - 1);
    return ((long) stripe << 32) | stripes[stripe].pin(buffer, lease);
  }

  /**
   * Lets the buffer kept under {@code key} go and returns its lease, whose hold the caller releases
   * (outside any lock); null for unknown keys and for memory no lease controls (never throws).
   */
  MemoryLease unpin(long key) {
    long stripe = key >>> 32;
    if (stripe >= stripes.length) {
      return null;
    }
    return stripes[(int) stripe].unpin((int) key);
  }

  /** How many buffers are pinned now. */
  int count() {
    int n = 0;
    for (Stripe stripe : stripes) {
      n += stripe.count();
    }
    return n;
  }

  /** One stripe: slots reused through a stack of freed ones. */
  private static final class Stripe {
    private ByteBuffer[] buffers = new ByteBuffer[16];
    private MemoryLease[] leases = new MemoryLease[16];
    private int[] free = new int[16];
    private int freeCount;
    private int next; // slots[next..] have never been used
    private int count;

    /** The slot + 1 (never 0). */
    synchronized int pin(ByteBuffer buffer, MemoryLease lease) {
      int slot;
      if (freeCount > 0) {
        slot = free[--freeCount];
      } else {
        if (next == buffers.length) {
          buffers = Arrays.copyOf(buffers, buffers.length * 2);
          leases = Arrays.copyOf(leases, buffers.length);
          free = Arrays.copyOf(free, buffers.length);
        }
        slot = next++;
      }
      buffers[slot] = buffer;
      leases[slot] = lease;
      count++;
      return slot + 1;
    }

    synchronized MemoryLease unpin(int key) {
      int slot = key - 1;
      if (slot < 0 || slot >= next || buffers[slot] == null) {
        return null;
      }
      MemoryLease lease = leases[slot];
      buffers[slot] = null;
      leases[slot] = null;
      free[freeCount++] = slot;
      count--;
      return lease;
    }

    synchronized int count() {
      return count;
    }
  }
}
