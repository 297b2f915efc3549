package dev.ireestubs.vm;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Who may still read some native memory, so that it is freed at a known time and never under a
 * reader: the one mechanism behind "argument memory is lent only for the call" (see {@link
 * BufferView}). A lease is made by the memory's owner (an array's storage, a backend's result) and
 * travels with the {@link BufferView}s over the memory; it is never handed out by them.
 *
 * <p>The memory is freed, by the action given at creation and at most once, as soon as all of
 * these hold:
 *
 * <ul>
 *   <li>its owner has {@linkplain #end() ended} its use (a lease made {@link #unowned} has no
 *       owner: it is ended from the start);
 *   <li>no {@link Pin} is held: a reader that keeps the memory past the moment its owner may end
 *       it (a backend importing it, an array made over it) holds a pin until it is done;
 *   <li>no raw buffer over it {@linkplain #escape() escaped}: a {@link ByteBuffer} handed to code
 *       that follows no rule ({@link BufferView#data()}) may be read at any later time, so escaped
 *       memory is left to the garbage collector, as memory never leased is.
 * </ul>
 *
 * <p>Once freed, {@link #pin(ByteBuffer)} and {@link #escape()} throw {@link IllegalStateException}: a
 * reader arriving too late gets an error, never freed memory. Thread-safe: a pin may be released
 * on any thread (IREE releases imported buffers where it likes).
 */
public final class MemoryLease {

  /** Frees the memory; null when there is nothing to free (then the lease only counts). */
  private final Runnable free;

  private boolean ended;
  private boolean escaped;
  private boolean freed;
  private long pins;

  private MemoryLease(Runnable free, boolean ended) {
    this.free = free;
    this.ended = ended;
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
    synchronized (this) {
      requireNotFreed("pin");
      pins++;
    }
    return new Pin(this, data);
  }

  /**
   * Notes that a raw buffer over the memory left every rule's control: the memory is then never
   * freed by this lease (the garbage collector frees it once no buffer reaches it).
   *
   * @throws IllegalStateException when the memory was already freed
   */
  public synchronized void escape() {
    requireNotFreed("hand out a buffer over");
    escaped = true;
  }

  /** Ends the owner's use of the memory: it is freed now, or when the last pin is released. */
  public void end() {
    Runnable action;
    synchronized (this) {
      ended = true;
      action = takeFree();
    }
    run(action);
  }

  /**
   * True once the owner has ended its use (always, for an {@link #unowned} lease).
   *
   * @return whether {@link #end()} was called
   */
  public synchronized boolean isEnded() {
    return ended;
  }

  /**
   * True once the memory was freed.
   *
   * @return whether the free action has run
   */
  public synchronized boolean isFreed() {
    return freed;
  }

  /**
   * True when ending the lease (or releasing its last pin) frees the memory: there is something to
   * free and no raw buffer escaped.
   *
   * @return whether the memory can still be freed before a garbage collection
   */
  public synchronized boolean freesEarly() {
    return free != null && !escaped && !freed;
  }

  /**
   * The pins held now, for tests and diagnostics.
   *
   * @return the number of pins not yet closed
   */
  public synchronized long pinCount() {
    return pins;
  }

  private void unpin() {
    Runnable action;
    synchronized (this) {
      pins--;
      action = takeFree();
    }
    run(action);
  }

  /** The free action when the memory is to be freed now (and marks it freed), else null. */
  private Runnable takeFree() {
    if (ended && pins == 0 && !escaped && !freed && free != null) {
      freed = true;
      return free;
    }
    return null;
  }

  private static void run(Runnable action) {
    if (action != null) {
      action.run(); // outside the lock: freeing may take long (an arena's close)
    }
  }

  private void requireNotFreed(String what) {
    if (freed) {
      throw new IllegalStateException(
          "cannot "
              + what
              + " memory that was already freed: its owner closed it (an array's close(), or"
              + " the end of the call it was lent to) and no pin kept it; pin it (BufferView.pin())"
              + " while the owner still uses it, or copy what you keep");
    }
  }

  /**
   * A hold on leased memory: the memory stays valid until {@link #close()}. Closing twice does
   * nothing; a pin may be closed on any thread.
   */
  public static final class Pin implements AutoCloseable {
    private final MemoryLease lease;
    private final ByteBuffer data;
    private boolean closed;

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

    /**
     * The lease this pin holds, or null for a pin over memory no lease controls.
     *
     * @return the lease, or null
     */
    public MemoryLease lease() {
      return lease;
    }

    /** Releases the hold; the memory may be freed now if its owner is done. Idempotent. */
    @Override
    public void close() {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
      }
      if (lease != null) {
        lease.unpin();
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
