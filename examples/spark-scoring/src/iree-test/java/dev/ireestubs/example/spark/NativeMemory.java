package dev.ireestubs.example.spark;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Bytes malloc has handed out and not got back in this process (glibc's {@code mallinfo2}, which
 * sees IREE's default allocator): for the check that a pool's memory is released at exit.
 */
final class NativeMemory {
  private NativeMemory() {}

  private static final MemoryLayout MALLINFO2 =
      MemoryLayout.sequenceLayout(10, JAVA_LONG); // ten size_t fields

  private static final Optional<MethodHandle> MALLINFO2_HANDLE = find();

  @SuppressWarnings("restricted")
  private static Optional<MethodHandle> find() {
    Linker linker = Linker.nativeLinker();
    return linker
        .defaultLookup()
        .find("mallinfo2")
        .map(
            s ->
                linker.downcallHandle(
                    s, FunctionDescriptor.of(MemoryLayout.structLayout(MALLINFO2))));
  }

  /** In-use bytes (arena chunks plus mmapped ones), if this is glibc 2.33 or newer. */
  static OptionalLong mallocInUse() {
    if (MALLINFO2_HANDLE.isEmpty()) {
      return OptionalLong.empty();
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment info =
          (MemorySegment) MALLINFO2_HANDLE.get().invokeExact((SegmentAllocator) arena);
      return OptionalLong.of(info.getAtIndex(JAVA_LONG, 4) + info.getAtIndex(JAVA_LONG, 7));
    } catch (Throwable t) {
      return OptionalLong.empty();
    }
  }

  /**
   * The lowest reading over {@code millis} of collections and pauses: the JVM's own malloc use
   * swings by megabytes (JIT arenas, direct buffers waiting for their cleaners), while memory that
   * is held stays in every reading.
   */
  static OptionalLong quiet(long millis) throws InterruptedException {
    long lowest = Long.MAX_VALUE;
    long end = System.nanoTime() + millis * 1_000_000;
    do {
      System.gc();
      Thread.sleep(200);
      OptionalLong now = mallocInUse();
      if (now.isEmpty()) {
        return now;
      }
      lowest = Math.min(lowest, now.getAsLong());
    } while (System.nanoTime() < end);
    return OptionalLong.of(lowest);
  }
}
