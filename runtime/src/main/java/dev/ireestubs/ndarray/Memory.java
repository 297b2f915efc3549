package dev.ireestubs.ndarray;

import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Cleaner;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The memory under one array and all its views, and whether it is still usable: the one place that
 * allocates and frees it. See "Ownership and closing" in {@link NdArray}.
 *
 * <p>Memory the arrays allocate themselves ({@link #allocate}) has a {@link MemoryLease} the owning
 * array ends on {@link #close()}: it is freed then, unless a reader still holds a pin on it (a
 * backend that imported it, an array made over a view of it) — then when the last pin is released —
 * or a raw buffer over it was handed out ({@link #escape()}), in which case only the garbage
 * collector can know when nobody reads it any more. Memory borrowed from a lent buffer view ({@link
 * #borrowed}) holds the lender's lease (a hold, no pin object), released by {@code close()}. Memory
 * of a caller's buffer ({@link #foreign}) is never freed here. How memory is freed depends on the
 * JDK, found at run time:
 *
 * <ul>
 *   <li>JDK 22 and later: each allocation is a {@code java.lang.foreign.Arena.ofShared()} of its
 *       own, closed by {@code close()}, or by a {@link Cleaner} once the memory's last buffer is
 *       unreachable; any buffer over it then throws {@link IllegalStateException} when used;
 *   <li>JDK 17 to 21: {@link ByteBuffer#allocateDirect}, freed by {@code close()} through {@code
 *       sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}; deprecated for removal from
 *       JDK 24, hence not used there), or by the JDK's own cleaner after a garbage collection;
 *   <li>neither available (a runtime image without {@code jdk.unsupported}): {@code
 *       allocateDirect}, freed only by the garbage collector.
 * </ul>
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

  private Memory(ByteBuffer data, Runnable free) {
    this.data = data;
    this.owner = true;
    // Freed memory reads as closed, also when the lease was ended by a call (BufferView.endCall).
    this.lease =
        MemoryLease.owned(
            free == null
                ? null
                : () -> {
                  closed = true;
                  free.run();
                });
  }

  /** Memory not ours: borrowed from a lent view when {@code lease} (held) is not null. */
  private Memory(ByteBuffer data, MemoryLease lease) {
    this.data = data;
    this.owner = false;
    this.lease = lease;
  }

  /**
   * New zeroed memory of {@code bytes} bytes, native order, aligned to {@code alignment} bytes (a
   * power of two) when {@code bytes + alignment - 1} fits in an {@code int}.
   */
  static Memory allocate(int bytes, int alignment) {
    if (Arenas.AVAILABLE) {
      return Arenas.allocate(bytes, alignment);
    }
    long padded = (long) bytes + alignment - 1;
    ByteBuffer block = ByteBuffer.allocateDirect(padded > Integer.MAX_VALUE ? bytes : (int) padded);
    ByteBuffer data;
    if (padded > Integer.MAX_VALUE) {
      data = block.duplicate();
    } else {
      // Skip to the first aligned byte. (Not alignedSlice: it also rounds the limit down to an
      // aligned address, which can leave fewer than `bytes` bytes.)
      int skip = (alignment - block.alignmentOffset(0, alignment)) % alignment;
      data = block.slice(skip, bytes);
    }
    return new Memory(data.order(ByteOrder.nativeOrder()), Cleaners.freeing(block));
  }

  /** A caller's memory (wrapped buffers, views from a backend): closing never frees it. */
  static Memory foreign(ByteBuffer data) {
    return new Memory(data, (MemoryLease) null);
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
    return new Memory(data, lease);
  }

  boolean isClosed() {
    return closed;
  }

  /**
   * Below this many bytes, arena memory (JDK 22+) made for one call is left to the garbage
   * collector rather than freed when the call ends: closing a shared arena costs a handshake with
   * every thread (tens of microseconds, measured), more than faulting in the pages of a small
   * allocation (about 7 microseconds a 4 KiB page), which is what freeing early saves.
   */
  static final int ARENA_CALL_FREE_MIN = 32 * 1024;

  /** True when freeing this memory at the end of a call pays (see {@link #ARENA_CALL_FREE_MIN}). */
  boolean freeingAfterCallPays() {
    return !Arenas.AVAILABLE || data.capacity() >= ARENA_CALL_FREE_MIN;
  }

  /** True for memory borrowed from a lent view ({@link #borrowed}). */
  boolean isBorrowed() {
    return !owner && lease != null;
  }

  /** True when memory comes from {@code java.lang.foreign} arenas (JDK 22+), for tests. */
  static boolean fromArenas() {
    return Arenas.AVAILABLE;
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

  /** Memory from {@code java.lang.foreign} (JDK 22+), reached by method handles: we build on 17. */
  private static final class Arenas {
    static final boolean AVAILABLE;
    private static final MethodHandle OF_SHARED;
    private static final MethodHandle ALLOCATE;
    private static final MethodHandle AS_BYTE_BUFFER;
    private static final Cleaner CLEANER;

    static {
      MethodHandle ofShared = null;
      MethodHandle allocate = null;
      MethodHandle asByteBuffer = null;
      Cleaner cleaner = null;
      if (Runtime.version().feature() >= 22) {
        try {
          MethodHandles.Lookup lookup = MethodHandles.publicLookup();
          Class<?> arena = Class.forName("java.lang.foreign.Arena");
          Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
          ofShared =
              lookup
                  .findStatic(arena, "ofShared", MethodType.methodType(arena))
                  .asType(MethodType.methodType(AutoCloseable.class));
          allocate =
              lookup
                  .findVirtual(
                      arena, "allocate", MethodType.methodType(segment, long.class, long.class))
                  .asType(
                      MethodType.methodType(
                          Object.class, AutoCloseable.class, long.class, long.class));
          asByteBuffer =
              lookup
                  .findVirtual(segment, "asByteBuffer", MethodType.methodType(ByteBuffer.class))
                  .asType(MethodType.methodType(ByteBuffer.class, Object.class));
          cleaner = Cleaner.create();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
          ofShared = null;
        }
      }
      AVAILABLE = ofShared != null;
      OF_SHARED = ofShared;
      ALLOCATE = allocate;
      AS_BYTE_BUFFER = asByteBuffer;
      CLEANER = cleaner;
    }

    static Memory allocate(int bytes, int alignment) {
      AutoCloseable arena;
      Object segment;
      ByteBuffer data;
      try {
        arena = (AutoCloseable) OF_SHARED.invokeExact();
        segment = (Object) ALLOCATE.invokeExact(arena, (long) bytes, (long) alignment);
        data = (ByteBuffer) AS_BYTE_BUFFER.invokeExact(segment);
      } catch (RuntimeException | Error e) {
        throw e; // OutOfMemoryError, as allocateDirect throws
      } catch (Throwable e) {
        throw new AssertionError(e); // the methods declare no checked exceptions
      }
      CloseOnce closer = new CloseOnce(arena);
      // Every buffer over the memory keeps the segment reachable; once none is, close the arena.
      CLEANER.register(segment, closer);
      return new Memory(data.order(ByteOrder.nativeOrder()), closer);
    }
  }

  /** Closes an arena once, from close() or the cleaner, whichever comes first. */
  private static final class CloseOnce implements Runnable {
    private final AutoCloseable arena;
    private boolean done;

    CloseOnce(AutoCloseable arena) {
      this.arena = arena;
    }

    @Override
    public synchronized void run() {
      if (!done) {
        try {
          arena.close();
          done = true;
        } catch (Exception e) {
          // Arena.close() throws when the memory is in use this instant (by a native call, or a
          // bulk access on another thread): then the cleaner closes it once nothing reaches it.
        }
      }
    }
  }

  /** {@code Unsafe.invokeCleaner} (JDK 17 to 21) for memory from {@code allocateDirect}. */
  private static final class Cleaners {
    private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

    /** Frees {@code block} (what allocateDirect returned) at once, or null when we cannot. */
    static Runnable freeing(ByteBuffer block) {
      if (INVOKE_CLEANER == null) {
        return null;
      }
      return () -> {
        try {
          INVOKE_CLEANER.invokeExact(block);
        } catch (Throwable e) {
          // Not freeable here after all: the garbage collector frees it, as escaped memory.
        }
      };
    }

    private static MethodHandle invokeCleaner() {
      if (Runtime.version().feature() >= 24) {
        return null; // deprecated for removal, with a warning on use; arenas serve there
      }
      try {
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field field = unsafeClass.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        Object unsafe = field.get(null);
        return MethodHandles.lookup()
            .findVirtual(
                unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
            .bindTo(unsafe);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return null;
      }
    }
  }
}
