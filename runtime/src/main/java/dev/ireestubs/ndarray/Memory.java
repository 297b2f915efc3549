package dev.ireestubs.ndarray;

import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.MemoryPool;
import java.nio.ByteBuffer;

/**
 * The memory under one array and all its views, and whether it is still usable: the one place that
 * allocates and frees it. See "Ownership and closing" in {@link NdArray}.
 *
 * <p>Memory the arrays allocate themselves ({@link #allocate}) comes from {@link MemoryPool}, with
 * a {@link MemoryLease} the owning array ends on {@link #close()}: it is freed then (given back to
 * the pool, for the next array of its size), unless a reader still holds a pin on it (a backend
 * that imported it, an array made over a view of it) — then when the last pin is released — or a
 * raw buffer over it was handed out ({@link #escape()}), in which case it is never reused and only
 * the garbage collector can know when nobody reads it any more. Memory borrowed from a lent buffer
 * view ({@link #borrowed}) holds the lender's lease (a hold, no pin object), released by {@code
 * close()}. Memory of a caller's buffer ({@link #foreign}) is never freed here.
 *
 * <p>Not thread-safe, as arrays are not: closing an array while another thread uses it is a race.
 * (The lease is thread-safe: pins may be released on any thread.)
 */
final class Memory {

  /** All of the memory: native order, position 0, capacity = limit = its byte length. */
  final ByteBuffer data;

  /**
   * The lease that views lent out carry: ours to end for allocated memory; the lender's for
   * borrowed memory, on which this holds one hold ({@link MemoryLease#acquire()}, no pin object)
   * released by {@link #close()}; null for a caller's memory. So memory is borrowed exactly when it
   * is not {@link #owner} and has a lease.
   */
  private final MemoryLease lease;

  /** True when closing ends {@link #lease}: the memory was allocated here. */
  private final boolean owner;

  private boolean closed;

  /** True when {@link #handOver()} closed the memory, passing it to its view's readers. */
  private boolean handedOver;

  private Memory(ByteBuffer data, MemoryLease lease, boolean owner) {
    this.data = data;
    this.lease = lease;
    this.owner = owner;
  }

  /**
   * New zeroed memory of {@code bytes} bytes, native order, aligned to {@link Storage#ALIGNMENT}
   * bytes ({@link MemoryPool}).
   */
  static Memory allocate(int bytes) {
    return MemoryPool.allocate(bytes, Memory::owning);
  }

  /** The {@link BufferView.Holder} of {@link #allocate}: captures nothing, allocates this only. */
  private static Memory owning(ByteBuffer data, MemoryLease lease) {
    return new Memory(data, lease, true);
  }

  /** A caller's memory (wrapped buffers, views from a backend): closing never frees it. */
  static Memory foreign(ByteBuffer data) {
    return new Memory(data, null, false);
  }

  /**
   * The memory of a lent buffer view, held ({@link BufferView#hold}) until {@link #close()}: a
   * buffer made from it escaping makes the lender's memory escape. Costs this object only.
   */
  static Memory borrowed(BufferView view) {
    return view.hold(Memory::borrowing);
  }

  /** The {@link BufferView.Holder} of {@link #borrowed}: captures nothing, so allocates nothing. */
  private static Memory borrowing(ByteBuffer data, MemoryLease lease) {
    return new Memory(data, lease, false);
  }

  /**
   * True once the owner closed the memory, or its lease was freed (also when a call ended it:
   * {@link BufferView#endCall}).
   */
  boolean isClosed() {
    return closed || (owner && lease.isFreed());
  }

  /**
   * True when freeing this memory at the end of a call pays ({@link MemoryPool#freeingIsCheap}).
   */
  boolean freeingAfterCallPays() {
    return MemoryPool.freeingIsCheap(data.capacity());
  }

  /** True for memory borrowed from a lent view ({@link #borrowed}). */
  boolean isBorrowed() {
    return !owner && lease != null;
  }

  /** True when memory comes from {@code java.lang.foreign} arenas (JDK 22+), for tests. */
  static boolean fromArenas() {
    return MemoryPool.fromArenas();
  }

  /** The lease buffer views over this memory carry, or null when none controls it. */
  MemoryLease lease() {
    return lease;
  }

  /** Notes that a buffer over this memory left the array's control, so it is never freed early. */
  void escape() {
    if (lease != null) {
      lease.escape();
    }
  }

  /**
   * True when {@link #close()} frees the memory at once if nothing pins it (it is ours, and nothing
   * escaped).
   */
  boolean freesOnClose() {
    return owner && lease.freesEarly();
  }

  /**
   * Marks allocated memory closed for its owner and passes it to the readers of its buffer views
   * ({@link MemoryLease#handOver()}): freed when the last of their holds is released, not now. Does
   * nothing for borrowed or foreign memory, or memory already closed.
   *
   * @return whether the memory was handed over by this call
   */
  boolean handOver() {
    if (closed || !owner || lease.isFreed()) {
      return false;
    }
    closed = true;
    handedOver = true;
    lease.handOver();
    return true;
  }

  /** True once {@link #handOver()} passed the memory on. */
  boolean isHandedOver() {
    return handedOver;
  }

  /**
   * Marks the memory closed and ends its use: frees allocated memory unless it is pinned or
   * escaped, releases the hold of borrowed memory. Idempotent.
   */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (owner) {
      lease.end();
    } else if (lease != null) {
      lease.release(); // borrowed
    }
  }
}
