package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.MemoryPool;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Moves the bytes of buffer views between Java and IREE's devices, without copying where the device
 * shares host memory (the CPU drivers local-sync and local-task):
 *
 * <ul>
 *   <li><b>In.</b> Direct memory that starts on a 64-byte boundary ({@code
 *       IREE_HAL_HEAP_BUFFER_ALIGNMENT}; every array iree-stubs allocates does) is imported as an
 *       IREE buffer over the same memory, read-only for IREE ({@code
 *       iree_hal_allocator_import_buffer}). The memory is held ({@link BufferView#hold}: a pin with
 *       no pin object; the Java buffer is kept reachable beside it) until IREE releases its buffer
 *       (a release callback), so neither the owner's close nor the end of the call can free it
 *       under IREE. The session keeps the last few such views ({@link ImportedViews}) and passes
 *       one again when the same memory comes with the same type and shape. Other memory is copied
 *       ({@code iree_hal_buffer_view_allocate_buffer_copy}), as is any whose import the device
 *       refuses.
 *   <li><b>Out.</b> A result of {@link #MAP_THRESHOLD} bytes or more is not copied: its buffer is
 *       mapped ({@code iree_hal_buffer_map_range}, scoped, which retains it) and the mapping is the
 *       result's memory. The mapping (and the device it holds) is released when the last array made
 *       over the result is closed (the view carries an unowned {@link MemoryLease}), or else when
 *       the last Java buffer over it becomes unreachable and is collected; it lives in a shared
 *       arena, so a buffer kept past the release fails with {@link IllegalStateException} instead
 *       of reading unmapped memory. A buffer the device cannot map for reading and writing (not
 *       host-visible, or an imported argument returned as a result, which IREE may only read) is
 *       copied instead, and so is every result while mappings awaiting collection hold more than
 *       {@link #MAPPED_LIMIT} bytes. Smaller results are copied ({@code iree_hal_buffer_map_read}):
 *       cheaper than a mapping at that size. A copy lives in {@link MemoryPool} memory with an
 *       unowned lease: given back to the pool when the last array made over it is closed (no
 *       handshake, no garbage collection), or left to the collector when nobody pins it (direct
 *       memory, which the collector frees without stopping every thread, as closing an arena would:
 *       a caller who never closes results does not outrun the cleaner).
 * </ul>
 *
 * <p>One instance per session, used under the session's lock; the import bookkeeping is global and
 * thread-safe (IREE may release a buffer on any thread).
 */
@SuppressWarnings("restricted") // segments over native addresses, an upcall stub
final class BufferTransfer {

  /** Java buffers IREE holds imported, by the key given to IREE as the callback's user data. */
  private static final ImportPins PINNED = new ImportPins();

  /** {@code void released(void* user_data, iree_hal_buffer_t* buffer)}, for every import. */
  private static final MemorySegment RELEASED = releasedStub();

  private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);

  /** Closes the arenas of mappings whose last Java buffer was collected. */
  private static final Cleaner CLEANER = Cleaner.create();

  /**
   * Result memory that mappings may hold at once, counting what awaits the garbage collector:
   * beyond it results are copied into direct memory, which the JVM bounds ({@code
   * -XX:MaxDirectMemorySize}) and collects when it runs short. A mapping holds IREE's buffer (its
   * bytes plus about {@link #MAPPING_OVERHEAD}) until its last Java buffer is unreachable and
   * collected, and few heap bytes per call means few collections.
   */
  static final long MAPPED_LIMIT = 64L << 20;

  /**
   * Results smaller than this are copied rather than mapped: for a few kilobytes a copy costs less
   * than a mapping (in time and in heap bytes), and ties up no native memory until a collection.
   */
  static final long MAP_THRESHOLD = 4096;

  /** {@link #MAP_THRESHOLD}, lowered by tests to map the small results of the test modules. */
  static volatile long mapThreshold = MAP_THRESHOLD;

  // What the calls did, counted for tests: arguments imported, reused (a kept view), copied;
  // results mapped, copied. Adders: every call of every thread counts, and one shared counter
  // would be a cache line every calling core writes.
  static final LongAdder IMPORTED = new LongAdder();
  static final LongAdder REUSED = new LongAdder();
  static final LongAdder COPIED_IN = new LongAdder();
  static final LongAdder MAPPED_OUT = new LongAdder();
  static final LongAdder COPIED_OUT = new LongAdder();

  /** IREE's buffer struct, the mapping and malloc's headers, roughly, per mapped result. */
  static final long MAPPING_OVERHEAD = 512;

  private static final AtomicLong MAPPED = new AtomicLong();

  private final SessionNatives session;
  private final Native api;
  private final StatusCalls statuses;
  private final BufferViewCalls bufferViews;
  private final BufferCalls buffers;
  private final SessionCalls sessions;
  private final MemorySegment outPointer;
  private final MemorySegment externalBuffer;
  private final MemorySegment releaseCallback;
  private final MemorySegment importParams;
  private final MemorySegment span;
  private final ImportedViews imported;

  BufferTransfer(SessionNatives session, Arena arena) {
    this.session = session;
    this.api = session.api();
    this.statuses = api.status();
    this.bufferViews = api.bufferViews();
    this.buffers = api.buffers();
    this.sessions = api.sessions();
    this.outPointer = arena.allocate(ADDRESS);
    this.externalBuffer = arena.allocate(Layouts.EXTERNAL_BUFFER);
    externalBuffer.set(
        JAVA_INT, Layouts.EXTERNAL_BUFFER_TYPE, Encodings.EXTERNAL_BUFFER_HOST_ALLOCATION);
    this.releaseCallback = arena.allocate(Layouts.RELEASE_CALLBACK);
    releaseCallback.set(ADDRESS, Layouts.RELEASE_CALLBACK_FN, RELEASED);
    this.importParams = arena.allocate(Layouts.BUFFER_PARAMS);
    importParams.copyFrom(session.bufferParams());
    // IREE never writes the caller's memory.
    importParams.set(JAVA_SHORT, Layouts.BUFFER_PARAMS_ACCESS, Encodings.MEMORY_ACCESS_READ);
    this.span = arena.allocate(Layouts.BYTE_SPAN);
    this.imported = new ImportedViews(api);
  }

  /** Releases the views kept for reuse: before the session is released. */
  void close() {
    imported.clear();
  }

  /** How many imported Java buffers IREE still holds (for tests). */
  static int pinnedCount() {
    return PINNED.count();
  }

  // ----------------------------------------------------------------------------------------------
  // In

  /**
   * A new IREE buffer view (owned by the caller) with {@code view}'s shape, element type and bytes:
   * over the same memory when it can be imported, else a copy.
   *
   * @param dims the shape, already written as {@code iree_hal_dim_t}s
   * @param scratch native memory for a copy of heap bytes
   */
  long toDevice(
      BufferView view, MemorySegment dims, Supplier<Arena> scratch, String function, String path) {
    // Lent memory is read under a hold: released when the call no longer reads it, or, for an
    // import, kept until IREE releases its buffer (so the owner's close cannot free it under IREE).
    // A hold costs no object: the holder below records the lease in this (per-session) instance.
    ByteBuffer data = view.hold(holdBytes);
    MemoryLease lease = heldLease;
    heldLease = null;
    boolean imports = false;
    try {
      int length = data.remaining();
      if (data.isDirect() && length > 0) {
        long address = addressOf(data);
        if (address % Encodings.HEAP_BUFFER_ALIGNMENT == 0) {
          long kept = imported.find(view, address, length);
          if (kept != 0) {
            REUSED.increment(); // the kept view's own import holds the memory
            return kept;
          }
          long made = importView(view, data, lease, address, length, dims);
          if (made != 0) {
            imports = true;
            imported.keep(made, view, address, length);
            return made;
          }
        }
      }
      return copyView(view, data, length, dims, scratch, function, path);
    } finally {
      if (!imports && lease != null) {
        lease.release();
      }
    }
  }

  /**
   * How many buffers {@link #addressOf} remembers: enough for the result blocks of the calls a
   * session keeps in flight, each its own, and the arguments passed again (with 4, the blocks of 8
   * calls in flight cycled past the memory and each result's address cost a segment, issue #36).
   */
  private static final int KNOWN = 16;

  /** The largest buffer {@link #addressOf} remembers (holding it keeps it reachable). */
  private static final int KNOWN_MAX_BYTES = 4096;

  // The last few small direct buffers whose address was asked (arguments passed again, the pooled
  // memory results are copied into), and their addresses at position 0: asking a segment for its
  // address allocates the segment whenever escape analysis fails, a few dozen bytes a call.
  private final ByteBuffer[] knownBuffers = new ByteBuffer[KNOWN];
  private final long[] knownAddresses = new long[KNOWN];
  private int nextKnown;

  /** The address of {@code direct}'s position. */
  @SuppressWarnings("ReferenceEquality") // the same buffer object, whose memory cannot move
  private long addressOf(ByteBuffer direct) {
    for (int i = 0; i < KNOWN; i++) {
      if (knownBuffers[i] == direct) {
        return knownAddresses[i] + direct.position();
      }
    }
    long address = MemorySegment.ofBuffer(direct).address();
    if (direct.capacity() <= KNOWN_MAX_BYTES) {
      int i = nextKnown;
      knownBuffers[i] = direct;
      knownAddresses[i] = address - direct.position();
      nextKnown = (i + 1) % KNOWN;
    }
    return address;
  }

  /** The lease {@link #holdBytes} took; read and cleared at once by {@link #toDevice}. */
  private MemoryLease heldLease;

  /** Takes a view's bytes and records its lease: made once, so a hold allocates nothing. */
  private final BufferView.Holder<ByteBuffer> holdBytes =
      (bytes, lease) -> {
        heldLease = lease;
        return bytes;
      };

  /**
   * The imported view, or 0 when the device will not import the memory; on success IREE holds
   * {@code lease} (and {@code data}, which keeps the memory reachable) until its release callback.
   */
  private long importView(
      BufferView view,
      ByteBuffer data,
      MemoryLease lease,
      long address,
      int length,
      MemorySegment dims) {
    long key = PINNED.pin(data, lease);
    externalBuffer.set(JAVA_LONG, Layouts.EXTERNAL_BUFFER_SIZE, length);
    externalBuffer.set(JAVA_LONG, Layouts.EXTERNAL_BUFFER_PTR, address);
    releaseCallback.set(JAVA_LONG, Layouts.RELEASE_CALLBACK_USER_DATA, key);
    long status =
        buffers.allocatorImportBuffer(
            session.deviceAllocator(), importParams, externalBuffer, releaseCallback, outPointer);
    if (status != 0) {
      // IREE made no buffer, so it will never call back; the caller releases the hold.
      PINNED.unpin(key);
      statuses.freeStatus(status);
      return 0;
    }
    long buffer = outPointer.get(JAVA_LONG, 0);
    status =
        buffers.bufferViewCreate(
            buffer,
            view.rank(),
            dims,
            view.elementTypeCode(),
            Encodings.ENCODING_DENSE_ROW_MAJOR,
            session.hostAllocator(),
            outPointer);
    if (status != 0 && lease != null) {
      // Releasing the buffer below frees it, and IREE's release callback releases the import's
      // hold: take a second one for the copy the caller makes instead (and releases).
      lease.acquire();
    }
    // The view retains the buffer; on failure this frees it.
    buffers.bufferRelease(buffer);
    if (status != 0) {
      statuses.freeStatus(status);
      return 0;
    }
    IMPORTED.increment();
    return outPointer.get(JAVA_LONG, 0);
  }

  @SuppressWarnings(
      "ReachabilityFenceUsage") // after a downcall that returns a status, never throws
  private long copyView(
      BufferView view,
      ByteBuffer data,
      int length,
      MemorySegment dims,
      Supplier<Arena> scratch,
      String function,
      String path) {
    long address;
    if (length == 0) {
      address = 0;
    } else if (data.isDirect()) {
      address = MemorySegment.ofBuffer(data).address();
    } else {
      MemorySegment bytes = scratch.get().allocate(length, Encodings.HEAP_BUFFER_ALIGNMENT);
      MemorySegment.copy(MemorySegment.ofBuffer(data), 0, bytes, 0, length);
      address = bytes.address();
    }
    span.set(JAVA_LONG, Layouts.BYTE_SPAN_DATA, address);
    span.set(JAVA_LONG, Layouts.BYTE_SPAN_LENGTH, length);
    long status =
        bufferViews.bufferViewAllocateBufferCopy(
            session.halDevice(),
            session.deviceAllocator(),
            view.rank(),
            dims,
            view.elementTypeCode(),
            Encodings.ENCODING_DENSE_ROW_MAJOR,
            session.bufferParams(),
            span,
            outPointer);
    Reference.reachabilityFence(data);
    if (status != 0) {
      throw statuses.failure(
          status,
          function + ": " + path + " (" + view + "): iree_hal_buffer_view_allocate_buffer_copy");
    }
    COPIED_IN.increment();
    return outPointer.get(JAVA_LONG, 0);
  }

  // ----------------------------------------------------------------------------------------------
  // Out

  /**
   * The lease of the bytes {@link #fromDevice} returned last (null when only the garbage collector
   * frees them), until {@link #takeResultLease} takes it: no pair object per result.
   */
  private MemoryLease resultLease;

  /** Takes the memory of a result copy and records its lease: made once, allocates nothing. */
  private final BufferView.Holder<ByteBuffer> keepResultLease =
      (bytes, lease) -> {
        resultLease = lease;
        return bytes;
      };

  /**
   * The lease of the bytes the last {@link #fromDevice} returned, or null when only the garbage
   * collector frees them; read once, right after that call.
   */
  MemoryLease takeResultLease() {
    MemoryLease lease = resultLease;
    resultLease = null;
    return lease;
  }

  /**
   * The {@code length} bytes of a result buffer view the caller still owns, in native order: a
   * mapping of its buffer, else a copy; its lease is then {@link #takeResultLease}'s. A mapping is
   * released when the last pin on its lease is released (an array made over it is closed), or else
   * when the last Java buffer over it becomes unreachable and is collected.
   */
  ByteBuffer fromDevice(long bufferView, long length, String function, String path) {
    resultLease = null;
    if (length == 0) {
      return EMPTY;
    }
    long buffer = bufferViews.bufferViewBuffer(bufferView);
    if (length < mapThreshold) {
      return copyFromDevice(buffer, length, function, path); // cheaper than a mapping
    }
    long held = length + MAPPING_OVERHEAD;
    if (MAPPED.addAndGet(held) > MAPPED_LIMIT) {
      // Too much result memory awaits the collector: copy, into memory the JVM bounds.
      MAPPED.addAndGet(-held);
      return copyFromDevice(buffer, length, function, path);
    }
    // A shared arena: closed by the lease (on any thread) or by the cleaner; buffers over a
    // closed mapping fail with IllegalStateException rather than read unmapped memory.
    Arena owner = Arena.ofShared();
    MemorySegment mapping = owner.allocate(Layouts.BUFFER_MAPPING);
    long status =
        buffers.bufferMapRange(
            buffer,
            Encodings.MAPPING_MODE_SCOPED,
            Encodings.MEMORY_ACCESS_READ_WRITE,
            0L,
            length,
            mapping);
    if (status != 0) {
      owner.close();
      MAPPED.addAndGet(-held);
      statuses.freeStatus(status);
      return copyFromDevice(buffer, length, function, path);
    }
    // A mapping may outlive its session and runtime: it holds the device (and so the allocator
    // its buffer returns to) until it is unmapped.
    long device = session.halDevice().address();
    sessions.halDeviceRetain(device);
    // The cleanup may capture nothing of the segments (a segment would keep them reachable and
    // the cleaner would never run): the mapping's address, as a number. The arena frees the
    // mapping struct after this cleanup has run (cleanups run last-registered first).
    Native lib = api;
    long mappingAddress = mapping.address();
    MemorySegment data =
        mapping
            .get(ADDRESS, Layouts.BUFFER_MAPPING_DATA)
            .reinterpret(length, owner, ignored -> unmap(lib, mappingAddress, device, held));
    ArenaCloser closer = new ArenaCloser(owner);
    // Every buffer over the mapping keeps `data` reachable; once none does, close the arena.
    CLEANER.register(data, closer);
    MAPPED_OUT.increment();
    resultLease = MemoryLease.unowned(closer);
    return data.asByteBuffer().order(ByteOrder.nativeOrder());
  }

  /** Closes an arena once it can be: from the lease or the cleaner, whichever succeeds first. */
  private static final class ArenaCloser implements Runnable {
    private final Arena arena;
    private boolean closed;

    ArenaCloser(Arena arena) {
      this.arena = arena;
    }

    @Override
    public synchronized void run() {
      if (closed) {
        return;
      }
      try {
        arena.close();
        closed = true;
      } catch (IllegalStateException e) {
        // In use by another thread this instant: the cleaner closes it once nothing reaches it.
      }
    }
  }

  /** Runs when the last Java buffer over a mapping is gone: never throws (a Cleaner thread). */
  private static void unmap(Native lib, long mappingAddress, long device, long held) {
    try {
      MemorySegment mapping =
          MemorySegment.ofAddress(mappingAddress).reinterpret(Layouts.BUFFER_MAPPING.byteSize());
      long status = lib.buffers().bufferUnmapRange(mapping);
      if (status != 0) {
        lib.status().freeStatus(status);
      }
      lib.sessions().halDeviceRelease(device);
    } catch (RuntimeException | Error e) {
      // Nothing can be reported from a cleaner; the buffer stays retained.
    } finally {
      MAPPED.addAndGet(-held);
    }
  }

  /** Bytes of result memory held by mappings not yet released (for tests). */
  static long mappedBytes() {
    return MAPPED.get();
  }

  /**
   * A copy of a result in new pooled memory ({@link MemoryPool#allocateUnowned}: given back when
   * the last array made over it is closed), read through a host mapping ({@code
   * iree_hal_buffer_map_read}), or, for memory the host cannot map, by a device-to-host transfer.
   */
  private ByteBuffer copyFromDevice(long buffer, long length, String function, String path) {
    ByteBuffer host = MemoryPool.allocateUnowned((int) length, keepResultLease);
    boolean done = false;
    try {
      readInto(host, buffer, length, function, path);
      done = true;
    } finally {
      if (!done) {
        // Nobody will pin it: leave it to the collector rather than hand it out half written.
        takeResultLease().escape();
      }
    }
    COPIED_OUT.increment();
    return host;
  }

  @SuppressWarnings(
      "ReachabilityFenceUsage") // after a downcall that returns a status, never throws
  private void readInto(ByteBuffer host, long buffer, long length, String function, String path) {
    long status = buffers.bufferMapRead(buffer, 0L, addressOf(host), length);
    if (status != 0) {
      statuses.freeStatus(status);
      statuses.check(
          buffers.deviceTransferD2h(
              session.halDevice(),
              MemorySegment.ofAddress(buffer),
              0L,
              MemorySegment.ofBuffer(host),
              length,
              0,
              session.infiniteTimeout()),
          function,
          path,
          "iree_hal_device_transfer_d2h");
    }
    Reference.reachabilityFence(host);
  }

  // ----------------------------------------------------------------------------------------------

  /** IREE released an imported buffer: the Java memory may go. Must never throw (an upcall). */
  @SuppressWarnings({"UnusedMethod", "UnusedVariable"}) // an upcall found by name: IREE's signature
  private static void released(long userData, long buffer) {
    MemoryLease lease = PINNED.unpin(userData);
    if (lease != null) {
      try {
        lease.release(); // may free the memory now, if its owner is done with it
      } catch (RuntimeException | Error e) {
        // Nothing can be reported from an upcall; the memory is then left to the collector.
      }
    }
  }

  private static MemorySegment releasedStub() {
    try {
      return Linker.nativeLinker()
          .upcallStub(
              MethodHandles.lookup()
                  .findStatic(
                      BufferTransfer.class,
                      "released",
                      MethodType.methodType(void.class, long.class, long.class)),
              // The pointers as 64-bit integers (passed alike on every 64-bit ABI): an ADDRESS
              // parameter makes a MemorySegment per call, two per released import.
              FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG),
              Arena.global());
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalStateException("cannot make the buffer release callback", e);
    }
  }
}
