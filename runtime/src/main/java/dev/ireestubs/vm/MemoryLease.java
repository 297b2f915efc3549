package dev.ireestubs.vm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Who may still read some native memory, so that it is freed at a known time and never under a
 * reader: the one mechanism behind "argument memory is lent only for the call" (see {@link
 * BufferView}). A lease is made by the memory's owner (an array's storage, a backend's result) and
 * travels with the {@link BufferView}s over the memory; it is never handed out by them.
 *
 * <p>The memory is freed, by the action given at creation and at most once, as soon as all of these
 * hold:
 *
 * <ul>
 *   <li>its owner has {@linkplain #end() ended} its use (a lease made {@link #unowned} has no
 *       owner: it is ended from the start);
 *   <li>no {@link Pin} (or {@link #acquire() hold}) is held: a reader that keeps the memory past
 *       the moment its owner may end it (a backend importing it, an array made over it) holds a pin
 *       until it is done;
 *   <li>no raw buffer over it {@linkplain #escape() escaped}: a {@link ByteBuffer} handed to code
 *       that follows no rule ({@link BufferView#data()}) may be read at any later time, so escaped
 *       memory is left to the garbage collector, as memory never leased is.
 * </ul>
 *
 * <p>Once freed, {@link #pin(ByteBuffer)}, {@link #acquire()} and {@link #escape()} throw {@link
 * IllegalStateException}: a reader arriving too late gets an error, never freed memory. Thread-safe
 * and lock-free: a pin may be released on any thread (IREE releases imported buffers where it
 * likes); the state is one word changed by compare-and-set, so holding costs an atomic add and no
 * allocation ({@link #acquire()}), or one small object for a {@link Pin}.
 */
public final class MemoryLease {

  // The state is one long, changed only by compare-and-set: no lock and no object per pin, so a
  // reader may take and release holds on any thread (IREE's release callbacks) at the cost of an
  // atomic add. Bits 0-3 are flags; the rest counts the holds (pins and acquires).
  private static final long FREED = 1;
  private static final long ENDED = 2;
  private static final long ESCAPED = 4;

  /** The owner handed the memory over, and the hold it left for the next reader is not taken. */
  private static final long HANDED = 8;

  private static final long ONE_HOLD = 16;

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(MemoryLease.class, "state", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Frees the memory; null when there is nothing to free (then the lease only counts). */
  private final Runnable free;

  /**
   * {@link #FREED}, {@link #ENDED}, {@link #ESCAPED}, {@link #HANDED}, plus the holds times {@link
   * #ONE_HOLD}.
   */
  @SuppressWarnings("unused") // read and written through STATE
  private volatile long state;

  private MemoryLease(Runnable free, boolean ended) {
    this.free = free;
    this.state = ended ? ENDED : 0;
  }

  /**
   * A lease whose owner ends it with {@link #end()}.
   *
   * @param free frees the memory; run at most once, on the thread that ends the lease or releases
   *     its last pin; null when the memory is not freed by this lease (it only counts readers)
   * @return a new lease, not ended, with no pins
   */
  public static MemoryLease owned(Runnable free) {
    return new MemoryLease(free, false);
  }

  /**
   * A lease with no owner, for memory a backend hands over (a result): freed when the last pin is
   * released. Memory nobody ever pins is never freed here; the creator leaves it to the garbage
   * collector as well.
   *
   * @param free frees the memory, at most once; must never throw
   * @return a new lease, already ended, with no pins
   */
  public static MemoryLease unowned(Runnable free) {
    return new MemoryLease(Objects.requireNonNull(free, "free"), true);
  }

  /**
   * Keeps the memory from being freed until the returned pin is {@linkplain Pin#close() closed}.
   *
   * @param data the bytes the pin lets its holder read (a buffer over this lease's memory)
   * @return a new pin over {@code data}
   * @throws IllegalStateException when the memory was already freed
   */
  public Pin pin(ByteBuffer data) {
    acquire();
    return new Pin(this, data);
  }

  /**
   * Keeps the memory from being freed until {@link #release()}: a {@link #pin} without the pin
   * object, for a holder that records this lease in an object of its own and releases it exactly
   * once (an array's memory borrowed from a lent view: see {@link BufferView#hold}). Prefer {@link
   * #pin}, whose close is idempotent, wherever a handle is handed on.
   *
   * @throws IllegalStateException when the memory was already freed
   */
  public void acquire() {
    long s;
    long next;
    do {
      s = state;
      if ((s & FREED) != 0) {
        throw alreadyFreed("pin");
      }
      // The first hold after a hand-over is the one the owner left: taken over, not added.
      next = (s & HANDED) != 0 ? s & ~HANDED : s + ONE_HOLD;
    } while (!STATE.weakCompareAndSet(this, s, next));
  }

  /**
   * Releases one hold taken by {@link #acquire()}: the memory is freed now (on this thread) if it
   * was the last and the owner is done. Each acquire is released exactly once.
   *
   * @throws IllegalStateException when no hold is held (released more often than acquired)
   */
  public void release() {
    long s;
    long next;
    do {
      s = state;
      if (s < ONE_HOLD) {
        throw new IllegalStateException(
            "a memory lease was released more often than it was acquired (or pinned); each"
                + " acquire() is released exactly once");
      }
      next = freedIfDone(s - ONE_HOLD);
    } while (!STATE.weakCompareAndSet(this, s, next));
    runIfFreedNow(s, next);
  }

  /**
   * Notes that a raw buffer over the memory left every rule's control: the memory is then never
   * freed by this lease (the garbage collector frees it once no buffer reaches it).
   *
   * @throws IllegalStateException when the memory was already freed
   */
  public void escape() {
    long s;
    do {
      s = state;
      if ((s & FREED) != 0) {
        throw alreadyFreed("hand out a buffer over");
      }
      if ((s & ESCAPED) != 0) {
        return;
      }
    } while (!STATE.weakCompareAndSet(this, s, s | ESCAPED));
  }

  /** Ends the owner's use of the memory: it is freed now, or when the last pin is released. */
  public void end() {
    long s;
    long next;
    do {
      s = state;
      if ((s & ENDED) != 0) {
        return;
      }
      next = freedIfDone(s | ENDED);
    } while (!STATE.weakCompareAndSet(this, s, next));
    runIfFreedNow(s, next);
  }

  /**
   * Ends the owner's use of the memory and passes it to whoever reads it next: the owner's part
   * becomes a hold that the next {@link #pin} or {@link #acquire()} takes over (rather than adding
   * one), so the memory stays valid until that reader, and every other holder, has released its
   * hold; then it is freed. Holds taken before the hand-over (a backend that still pins a view of
   * it) do not free it when released. So a host function's result array is handed to the caller,
   * whose result array holds it until it is closed; memory nobody reads after the hand-over is left
   * to the garbage collector. The first hold taken after the hand-over, whoever takes it, is the
   * one reserved: a pin taken and released in between (code that keeps a view of the handed-over
   * array and reads it) frees the memory, and the intended reader then fails with {@link
   * IllegalStateException}, never reads freed memory. Does nothing when the owner's use already
   * ended.
   */
  public void handOver() {
    long s;
    do {
      s = state;
      if ((s & ENDED) != 0) {
        return; // freed memory was ended first
      }
    } while (!STATE.weakCompareAndSet(this, s, (s | ENDED | HANDED) + ONE_HOLD));
  }

  /**
   * True once the owner has ended its use (always, for an {@link #unowned} lease).
   *
   * @return whether {@link #end()} was called
   */
  public boolean isEnded() {
    return (state & ENDED) != 0;
  }

  /**
   * True once the memory was freed.
   *
   * @return whether the free action has run (or is running)
   */
  public boolean isFreed() {
    return (state & FREED) != 0;
  }

  /**
   * True when ending the lease (or releasing its last pin) frees the memory: there is something to
   * free and no raw buffer escaped.
   *
   * @return whether the memory can still be freed before a garbage collection
   */
  public boolean freesEarly() {
    return free != null && (state & (ESCAPED | FREED)) == 0;
  }

  /**
   * The pins (and acquires) held now, for tests and diagnostics.
   *
   * @return the number of holds not yet released
   */
  public long pinCount() {
    return state >>> 4;
  }

  /** {@code s} marked freed when it is ended, unheld and not escaped, with something to free. */
  private long freedIfDone(long s) {
    return free != null && s == ENDED ? s | FREED : s;
  }

  /** Runs the free action when the change from {@code before} to {@code after} set FREED. */
  private void runIfFreedNow(long before, long after) {
    if ((before & FREED) == 0 && (after & FREED) != 0) {
      free.run(); // the state is already FREED: no new hold can start, and this runs once
    }
  }

  private static IllegalStateException alreadyFreed(String what) {
    return new IllegalStateException(
        "cannot "
            + what
            + " memory that was already freed: its owner closed it (an array's close(), or"
            + " the end of the call it was lent to) and no pin kept it; pin it (BufferView.pin())"
            + " while the owner still uses it, or copy what you keep");
  }

  /**
   * A hold on leased memory: the memory stays valid until {@link #close()}. Closing twice does
   * nothing; a pin may be closed on any thread.
   */
  public static final class Pin implements AutoCloseable {
    private final MemoryLease lease; // null for a pin over memory no lease controls
    private final ByteBuffer data;

    @SuppressWarnings("unused") // read and written through CLOSED
    private volatile boolean closed;

    private static final VarHandle CLOSED;

    static {
      try {
        CLOSED = MethodHandles.lookup().findVarHandle(Pin.class, "closed", boolean.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private Pin(MemoryLease lease, ByteBuffer data) {
      this.lease = lease;
      this.data = data;
    }

    /**
     * The pinned bytes: valid until this pin is closed. Do not keep them (or buffers made from
     * them) past that.
     *
     * @return the buffer the pin was taken over
     */
    public ByteBuffer data() {
      return data;
    }

    /** Releases the hold; the memory may be freed now if its owner is done. Idempotent. */
    @Override
    public void close() {
      if (lease != null && CLOSED.compareAndSet(this, false, true)) {
        lease.release();
      }
    }

    /**
     * A pin that holds nothing: for memory no lease controls (a caller's buffer, a heap buffer).
     *
     * @param data the bytes
     * @return a pin whose close does nothing
     */
    static Pin unleased(ByteBuffer data) {
      return new Pin(null, data);
    }
  }
}
