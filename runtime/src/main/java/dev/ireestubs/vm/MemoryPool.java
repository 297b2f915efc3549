package dev.ireestubs.vm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Cleaner;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Native memory for arrays and buffer views: 64-byte aligned, in native byte order, released at a
 * known time through a {@link MemoryLease}, and cheap to take and give back however many threads
 * the JVM runs. Arrays ({@code FloatArray.of}, {@code zeros}, ...) and a backend's copies of small
 * results take their memory here.
 *
 * <h2>How</h2>
 *
 * <p>Memory comes in blocks of a power-of-two size from {@value #MIN_BLOCK} bytes to {@value
 * #MAX_POOLED} bytes. A block whose lease is freed (its array closed, no pin left, nothing escaped)
 * goes back to a small cache and is handed to the next allocation of its size: taking and giving
 * back a block is a few dozen nanoseconds under an uncontended lock, one of several chosen by the
 * thread, so threads rarely meet; a block goes back to the cache of the thread that made it, so
 * memory made on one thread and closed on another is reused too. Only a block the caches have no
 * room for is released to the system, and so is memory above {@value #MAX_POOLED} bytes, which has
 * a block of its own. How a block is made and released depends on the JDK, found at run time:
 *
 * <ul>
 *   <li>JDK 22 and later: a {@code java.lang.foreign.Arena.ofShared()} per block, closed when the
 *       block is released, or by a {@link Cleaner} once no buffer reaches it (a block that
 *       escaped). Closing a shared arena stops every thread for a handshake (about 20 µs measured);
 *       the cache is what keeps that off the common path. {@linkplain #allocateUnowned Unowned}
 *       memory (a backend's copy of a result, which a caller who never closes the result leaves to
 *       the collector) has blocks of another kind, cached apart: {@link ByteBuffer#allocateDirect},
 *       which the collector frees without a handshake (an arena per unclosed result, closed by the
 *       one cleaner thread, freed memory more slowly than a loop of calls made it); one such block
 *       the cache has no room for is left to the collector;
 *   <li>JDK 17 to 21: {@link ByteBuffer#allocateDirect}, released through {@code
 *       sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}), or by the JDK's own
 *       cleaner after a garbage collection; without that module, only by the collector.
 * </ul>
 *
 * <h2>What a lease promises here</h2>
 *
 * <ul>
 *   <li>Memory whose lease is not freed is never handed to another allocation: a pin, a hold or an
 *       escape keeps its block out of the caches.
 *   <li>Memory that {@linkplain MemoryLease#escape() escaped} is never reused: its block is left to
 *       the garbage collector (and then released as above), so a raw buffer handed out stays valid
 *       however long it is kept.
 *   <li>Once the lease is freed, {@link MemoryLease#pin}, {@link MemoryLease#acquire} and {@link
 *       MemoryLease#escape} throw, so no rule-abiding reader reaches the block again: each
 *       allocation has a lease of its own, which a later user of the block does not share.
 *   <li>What the lease cannot stop: a {@link ByteBuffer} kept past the pin that lent it, against
 *       {@link MemoryLease.Pin#data()}'s rule, reads whatever the block holds later (another
 *       allocation's bytes, or zeros); on JDK 22+ it throws only once the block itself is released.
 *       Such a buffer never reads memory returned to the system while it is reachable, so it never
 *       crashes the JVM.
 * </ul>
 *
 * <p>Cached memory is bounded: of one size per stripe, at most {@value #CACHE_BLOCKS} blocks and
 * {@value #CACHE_BYTES} bytes, but at least {@value #CACHE_BLOCKS_MIN} blocks, with twice as many
 * stripes as processors (at most {@value #MAX_STRIPES}); blocks above 64 KiB are cached in one
 * stripe only. {@code -Ddev.ireestubs.memoryPool=false} turns the caches off (every allocation then
 * makes and releases a block of its own, as before the pool). Thread-safe.
 */
public final class MemoryPool {

  /** The alignment of every allocation's first byte: IREE imports such memory without a copy. */
  public static final int ALIGNMENT = 64;

  /** The smallest block, in bytes. */
  public static final int MIN_BLOCK = 64;

  /** The largest block a cache keeps, in bytes: larger memory is made and released each time. */
  public static final int MAX_POOLED = 256 * 1024;

  /** Bytes of blocks of one size that one stripe keeps at most. */
  static final int CACHE_BYTES = 256 * 1024;

  /** Blocks of one size that one stripe keeps at most. */
  static final int CACHE_BLOCKS = 32;

  /** Blocks of one size that one stripe keeps at least (below the byte bound). */
  static final int CACHE_BLOCKS_MIN = 4;

  /** Blocks above this size are cached in stripe 0 only. */
  static final int STRIPED_MAX = 64 * 1024;

  static final int MAX_STRIPES = 64;

  private static final int CLASSES = Integer.numberOfTrailingZeros(MAX_POOLED / MIN_BLOCK) + 1;

  /** The kinds of block a stripe caches: as {@link Blocks#make} makes them, and direct. */
  private static final int KINDS = 2;

  private static final int DIRECT = 1;

  private static final boolean POOLING =
      !"false".equalsIgnoreCase(System.getProperty("dev.ireestubs.memoryPool"));

  private static final Stripe[] STRIPES = stripes();

  /** Zeros, read to clear a reused block; never written. */
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(16 * 1024);

  private MemoryPool() {}

  /**
   * New zeroed memory of {@code bytes} bytes, whose owner ends its use with {@link
   * MemoryLease#end()}: it is then freed (given back to the pool) once no pin holds it, unless it
   * escaped.
   *
   * @param bytes the length, 0 or more
   * @param holder takes the memory (a buffer of exactly {@code bytes} bytes, position 0, native
   *     order, aligned to {@link #ALIGNMENT}) and its lease, {@linkplain MemoryLease#owned owned}
   *     by the caller
   * @param <T> what the holder makes
   * @return what {@code holder} returned; when it throws, the memory is given back first
   * @throws OutOfMemoryError when the system has no memory left
   */
  public static <T> T allocate(int bytes, BufferView.Holder<T> holder) {
    return take(bytes, true, false, holder);
  }

  /**
   * New memory of {@code bytes} bytes, its contents unspecified (the caller writes all of it before
   * anyone reads it), with a lease already ended ({@linkplain MemoryLease#unowned unowned}): freed
   * when the last pin on it is released. For a backend's copy of a result, which an array made over
   * it pins until it is closed; memory nobody ever pins is left to the garbage collector, which
   * frees it cheaply: on JDK 22+ such memory is {@link ByteBuffer#allocateDirect direct} rather
   * than an arena's (whose release by the collector costs a handshake of every thread).
   *
   * @param bytes the length, 0 or more
   * @param holder takes the memory (as for {@link #allocate}) and its unowned lease
   * @param <T> what the holder makes
   * @return what {@code holder} returned
   * @throws OutOfMemoryError when the system has no memory left
   */
  public static <T> T allocateUnowned(int bytes, BufferView.Holder<T> holder) {
    return take(bytes, false, true, holder);
  }

  /**
   * True when memory of {@code bytes} bytes comes from the caches, so that freeing it is cheap (no
   * handshake on JDK 22+): what decides whether memory made for one call is freed when the call
   * ends rather than left to the collector.
   *
   * @param bytes a length
   * @return whether freeing such memory costs little
   */
  public static boolean freeingIsCheap(int bytes) {
    return !Blocks.ARENAS || (POOLING && bytes <= MAX_POOLED) || bytes >= 32 * 1024;
  }

  /** Blocks in the caches now, of every size (for tests). */
  static int cachedBlocks() {
    int n = 0;
    for (Stripe stripe : STRIPES) {
      stripe.lock.lock();
      try {
        for (int c : stripe.counts) {
          n += c;
        }
      } finally {
        stripe.lock.unlock();
      }
    }
    return n;
  }

  /**
   * True when blocks come from {@code java.lang.foreign} arenas (JDK 22+), else from {@code
   * allocateDirect}.
   *
   * @return whether a released block's buffers fail on use ({@code IllegalStateException})
   */
  public static boolean fromArenas() {
    return Blocks.ARENAS;
  }

  private static <T> T take(int bytes, boolean zero, boolean unowned, BufferView.Holder<T> holder) {
    if (bytes < 0) {
      throw new IllegalArgumentException("negative length " + bytes);
    }
    // Unowned memory may never be freed but by the collector: on JDK 22+ a block of its own kind,
    // direct memory, which the collector frees without the handshake an arena's close costs.
    boolean direct = unowned && Blocks.ARENAS;
    Block block;
    if (POOLING && bytes <= MAX_POOLED) {
      int sizeClass = sizeClass(bytes);
      Stripe stripe = stripeFor(sizeClass);
      int slot = direct ? DIRECT * CLASSES + sizeClass : sizeClass;
      block = pop(stripe, slot);
      if (block == null) {
        block = Blocks.make(stripe, slot, MIN_BLOCK << sizeClass, direct);
      } else if (zero) {
        clear(block.root, bytes);
      }
    } else {
      block = Blocks.make(null, -1, bytes, direct);
    }
    ByteBuffer data = block.slice(bytes);
    MemoryLease lease = unowned ? MemoryLease.unowned(block) : MemoryLease.owned(block);
    try {
      return holder.take(data, lease);
    } catch (RuntimeException | Error e) {
      if (!unowned) {
        lease.end();
      }
      throw e;
    }
  }

  private static void clear(ByteBuffer root, int bytes) {
    for (int at = 0; at < bytes; at += ZEROS.capacity()) {
      root.put(at, ZEROS, 0, Math.min(ZEROS.capacity(), bytes - at));
    }
  }

  /** The class of a length: 0 for up to 64 bytes, then one more for each doubling. */
  static int sizeClass(int bytes) {
    return bytes <= MIN_BLOCK ? 0 : 32 - Integer.numberOfLeadingZeros(bytes - 1) - 6;
  }

  private static int capacity(int slot) {
    int size = MIN_BLOCK << (slot % CLASSES);
    return Math.max(CACHE_BLOCKS_MIN, Math.min(CACHE_BLOCKS, CACHE_BYTES / size));
  }

  private static Stripe stripeFor(int sizeClass) {
    if ((MIN_BLOCK << sizeClass) > STRIPED_MAX) {
      return STRIPES[0];
    }
    return STRIPES[stripeIndex(Thread.currentThread())];
  }

  @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+, and we run on 17
  private static int stripeIndex(Thread thread) {
    long id = thread.getId();
    int h = (int) ((id * 0x9E3779B97F4A7C15L) >>> 40);
    return h & (STRIPES.length - 1);
  }

  /** The lock of the stripe whose cache {@code thread} uses for blocks up to 64 KiB (tests). */
  static ReentrantLock stripeLock(Thread thread) {
    return STRIPES[stripeIndex(thread)].lock;
  }

  private static Stripe[] stripes() {
    int wanted = Math.min(MAX_STRIPES, 2 * Runtime.getRuntime().availableProcessors());
    int n = Integer.highestOneBit(Math.max(1, wanted - 1)) << 1;
    Stripe[] out = new Stripe[Math.min(MAX_STRIPES, n)];
    for (int i = 0; i < out.length; i++) {
      out[i] = new Stripe();
    }
    return out;
  }

  /**
   * A cached block of {@code slot}'s kind and size, or null: from {@code home}, the caller's
   * stripe, or, while another thread holds home's lock (on a small machine often a thread preempted
   * while holding it), from the first other stripe whose lock is free this instant and that has
   * one. Waits for home only when no other stripe gave a block, so contention never makes a new
   * block.
   */
  private static Block pop(Stripe home, int slot) {
    if (!home.lock.tryLock()) {
      if (shared(slot)) {
        for (Stripe other : STRIPES) {
          if (other != home && other.lock.tryLock()) {
            try {
              Block block = other.pop(slot);
              if (block != null) {
                return block;
              }
            } finally {
              other.lock.unlock();
            }
          }
        }
      }
      home.lock.lock();
    }
    try {
      return home.pop(slot);
    } finally {
      home.lock.unlock();
    }
  }

  /**
   * Caches {@code block}: in its home stripe, or, while another thread holds home's lock, in the
   * first other stripe whose lock is free this instant and whose cache of its kind and size has
   * room; waits for home only when none took it. False when the block is not kept.
   */
  private static boolean push(Block block) {
    Stripe home = block.home;
    if (!home.lock.tryLock()) {
      if (shared(block.slot)) {
        for (Stripe other : STRIPES) {
          if (other != home && other.lock.tryLock()) {
            try {
              if (other.push(block)) {
                return true;
              }
            } finally {
              other.lock.unlock();
            }
          }
        }
      }
      home.lock.lock();
    }
    try {
      return home.push(block);
    } finally {
      home.lock.unlock();
    }
  }

  /** Whether blocks of {@code slot} may be cached in any stripe (large ones stay in stripe 0). */
  private static boolean shared(int slot) {
    return (MIN_BLOCK << (slot % CLASSES)) <= STRIPED_MAX;
  }

  /**
   * The caches one group of threads shares: a stack of blocks per kind and size (a slot: {@code
   * kind * CLASSES + sizeClass}), under {@link #lock} (a lock that can be tried: a thread finding
   * it held uses another stripe rather than wait).
   */
  private static final class Stripe {
    final ReentrantLock lock = new ReentrantLock();
    private final Block[][] stacks = new Block[KINDS * CLASSES][];
    private final int[] counts = new int[KINDS * CLASSES];

    /** Under {@link #lock}. */
    Block pop(int slot) {
      int n = counts[slot];
      if (n == 0) {
        return null;
      }
      Block[] stack = stacks[slot];
      Block block = stack[--n];
      stack[n] = null;
      counts[slot] = n;
      return block;
    }

    /**
     * Keeps {@code block}, or returns false when the cache of its kind and size is full. Under
     * {@link #lock}.
     */
    boolean push(Block block) {
      int slot = block.slot;
      Block[] stack = stacks[slot];
      if (stack == null) {
        stack = new Block[capacity(slot)];
        stacks[slot] = stack;
      }
      int n = counts[slot];
      if (n == stack.length) {
        return false;
      }
      stack[n] = block;
      counts[slot] = n + 1;
      return true;
    }
  }

  /**
   * One block of native memory, reused by allocation after allocation; the free action of the lease
   * of whichever allocation holds it (each lease runs it at most once).
   */
  private static final class Block implements Runnable {
    /** The block's memory, aligned, native order; only absolute access. */
    final ByteBuffer root;

    /** Releases the memory to the system; null when only the collector can. */
    private final Runnable release;

    /**
     * The cache slot: kind and size class ({@link Stripe}); -1 for memory above {@link
     * #MAX_POOLED}, made for one allocation.
     */
    final int slot;

    /**
     * The stripe whose thread made the block, which it goes back to wherever it is freed (unless
     * another thread holds that stripe's lock this instant): memory made on one thread and closed
     * on another (a result read on IREE's fence-waiting thread, closed by the caller) then refills
     * the cache its maker takes from.
     */
    private final Stripe home;

    /** The last slice handed out, reused when the next allocation asks the same length. */
    private ByteBuffer slice;

    Block(ByteBuffer root, Runnable release, Stripe home, int slot) {
      this.root = root;
      this.release = release;
      this.home = home;
      this.slot = slot;
    }

    ByteBuffer slice(int bytes) {
      ByteBuffer s = slice;
      if (s == null || s.capacity() != bytes) {
        s = bytes == root.capacity() ? root : root.slice(0, bytes).order(ByteOrder.nativeOrder());
        slice = s;
      }
      return s;
    }

    /** The lease was freed: back to a cache, or to the system. */
    @Override
    public void run() {
      if (home != null && push(this)) {
        return;
      }
      if (release != null) {
        release.run();
      }
    }
  }

  /** Makes blocks: arenas on JDK 22+, reached by method handles (we build on 17), else direct. */
  private static final class Blocks {
    static final boolean ARENAS;
    private static final MethodHandle OF_SHARED;
    private static final MethodHandle ALLOCATE;
    private static final MethodHandle AS_BYTE_BUFFER;
    private static final Cleaner CLEANER;
    private static final MethodHandle INVOKE_CLEANER;

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
      ARENAS = ofShared != null;
      OF_SHARED = ofShared;
      ALLOCATE = allocate;
      AS_BYTE_BUFFER = asByteBuffer;
      CLEANER = cleaner;
      INVOKE_CLEANER = invokeCleaner();
    }

    /**
     * A block for {@code home}'s cache (null: for one allocation, released when freed): direct
     * memory when asked or before JDK 22, else an arena's.
     */
    static Block make(Stripe home, int slot, int bytes, boolean direct) {
      return ARENAS && !direct ? fromArena(home, slot, bytes) : direct(home, slot, bytes);
    }

    private static Block fromArena(Stripe home, int slot, int bytes) {
      AutoCloseable arena;
      Object segment;
      ByteBuffer data;
      try {
        arena = (AutoCloseable) OF_SHARED.invokeExact();
        segment = (Object) ALLOCATE.invokeExact(arena, (long) bytes, (long) ALIGNMENT);
        data = (ByteBuffer) AS_BYTE_BUFFER.invokeExact(segment);
      } catch (RuntimeException | Error e) {
        throw e; // OutOfMemoryError, as allocateDirect throws
      } catch (Throwable e) {
        throw new AssertionError(e); // the methods declare no checked exceptions
      }
      CloseOnce closer = new CloseOnce(arena);
      // Every buffer over the block keeps the segment reachable; once none is, close the arena.
      CLEANER.register(segment, closer);
      return new Block(data.order(ByteOrder.nativeOrder()), closer, home, slot);
    }

    private static Block direct(Stripe home, int slot, int bytes) {
      long padded = (long) bytes + ALIGNMENT - 1;
      ByteBuffer block =
          ByteBuffer.allocateDirect(padded > Integer.MAX_VALUE ? bytes : (int) padded);
      ByteBuffer data;
      if (padded > Integer.MAX_VALUE) {
        data = block.duplicate(); // too large to pad: the platform allocator's alignment
      } else {
        // Skip to the first aligned byte. (Not alignedSlice: it also rounds the limit down to an
        // aligned address, which can leave fewer than `bytes` bytes.)
        int skip = (ALIGNMENT - block.alignmentOffset(0, ALIGNMENT)) % ALIGNMENT;
        data = block.slice(skip, bytes);
      }
      return new Block(data.order(ByteOrder.nativeOrder()), freeing(block), home, slot);
    }

    /** Frees {@code block} (what allocateDirect returned) at once, or null when we cannot. */
    private static Runnable freeing(ByteBuffer block) {
      MethodHandle invokeCleaner = INVOKE_CLEANER;
      if (invokeCleaner == null) {
        return null;
      }
      return () -> {
        try {
          invokeCleaner.invokeExact(block);
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

  /** Closes an arena once, from a release or the cleaner, whichever comes first. */
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
}
