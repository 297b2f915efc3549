package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How much native memory the process uses, for leak checks: bytes malloc has handed out and not got
 * back (glibc's {@code mallinfo2}: in-use chunks plus mmapped ones; it sees IREE's default libc
 * allocator), and the resident set size from {@code /proc/self/status}.
 */
final class NativeMemory {
  private NativeMemory() {}

  /** {@code struct mallinfo2}: ten {@code size_t} fields. */
  private static final MemoryLayout MALLINFO2 =
      MemoryLayout.structLayout(
          JAVA_LONG.withName("arena"),
          JAVA_LONG.withName("ordblks"),
          JAVA_LONG.withName("smblks"),
          JAVA_LONG.withName("hblks"),
          JAVA_LONG.withName("hblkhd"),
          JAVA_LONG.withName("usmblks"),
          JAVA_LONG.withName("fsmblks"),
          JAVA_LONG.withName("uordblks"),
          JAVA_LONG.withName("fordblks"),
          JAVA_LONG.withName("keepcost"));

  private static final Optional<MethodHandle> MALLINFO2_HANDLE = find();

  @SuppressWarnings("restricted")
  private static Optional<MethodHandle> find() {
    Linker linker = Linker.nativeLinker();
    return linker
        .defaultLookup()
        .find("mallinfo2")
        .map(s -> linker.downcallHandle(s, FunctionDescriptor.of(MALLINFO2)));
  }

  /** Bytes in use from malloc, if this is glibc 2.33 or newer. */
  static OptionalLong mallocInUse() {
    if (MALLINFO2_HANDLE.isEmpty()) {
      return OptionalLong.empty();
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment info =
          (MemorySegment) MALLINFO2_HANDLE.get().invokeExact((SegmentAllocator) arena);
      long hblkhd = info.getAtIndex(JAVA_LONG, 4); // mmapped bytes
      long uordblks = info.getAtIndex(JAVA_LONG, 7); // allocated bytes in the arenas
      return OptionalLong.of(hblkhd + uordblks);
    } catch (Throwable t) {
      return OptionalLong.empty();
    }
  }

  /** The resident set size in bytes, on Linux. */
  static OptionalLong residentSetSize() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          String kb = line.substring(6).trim().split("\\s+")[0];
          return OptionalLong.of(Long.parseLong(kb) * 1024);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return OptionalLong.empty();
  }

  /**
   * The lowest {@link #mallocInUse()} seen over {@code millis} of collections: the JVM's own malloc
   * use swings by megabytes while the JIT compiles (its arena chunks are pooled and freed by a task
   * that runs every 5 seconds), so one reading is too noisy to show a small leak, while a leak
   * stays in every reading.
   */
  static OptionalLong quietMallocInUse(long millis) throws InterruptedException {
    long lowest = Long.MAX_VALUE;
    long end = System.currentTimeMillis() + millis;
    do {
      System.gc(); // frees unreachable direct buffers; their cleaners run right after
      Thread.sleep(250);
      OptionalLong now = mallocInUse();
      if (now.isEmpty()) {
        return now;
      }
      lowest = Math.min(lowest, now.getAsLong());
    } while (System.currentTimeMillis() < end);
    return OptionalLong.of(lowest);
  }
}
