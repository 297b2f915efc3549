package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.MemoryPool;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * What taking and giving back 16 bytes of 64-byte aligned native memory costs the calling thread,
 * by each way an array could hold its memory: the measurements behind {@link MemoryPool}'s design
 * (docs/performance.md, "Arrays' memory"). Runs with {@code peers.idleThreads} (default 50) idle
 * threads in the JVM, as a service has, since closing a shared arena is a handshake with each of
 * them. CPU time of the calling thread per allocation, the best of 3 rounds.
 */
@SuppressWarnings("restricted") // downcalls to the C allocator, a segment over what it returns
public final class AllocationOptionsMain {
  private AllocationOptionsMain() {}

  private interface Option {
    void run() throws Throwable;
  }

  public static void main(String[] args) throws Throwable {
    Linker linker = Linker.nativeLinker();
    MethodHandle alignedAlloc =
        linker.downcallHandle(
            linker.defaultLookup().find("aligned_alloc").orElseThrow(),
            FunctionDescriptor.of(
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
            Linker.Option.critical(false));
    MethodHandle free =
        linker.downcallHandle(
            linker.defaultLookup().find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS),
            Linker.Option.critical(false));
    int idle = Integer.getInteger("peers.idleThreads", 50);
    for (int i = 0; i < idle; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      t.setDaemon(true);
      t.start();
    }
    String[] names = {
      "MemoryPool.allocate, lease ended",
      "Arena.ofShared: allocate, close",
      "Arena.ofConfined: allocate, close",
      "aligned_alloc, free (downcalls)",
      "ByteBuffer.allocateDirect (the GC frees)"
    };
    Option[] options = {
      () -> {
        MemoryLease lease =
            MemoryPool.allocate(
                16,
                (bytes, l) -> {
                  bytes.putInt(0, 1);
                  return l;
                });
        lease.end();
      },
      () -> {
        Arena arena = Arena.ofShared();
        arena.allocate(16, 64).asByteBuffer().putInt(0, 1);
        arena.close();
      },
      () -> {
        Arena arena = Arena.ofConfined();
        arena.allocate(16, 64).asByteBuffer().putInt(0, 1);
        arena.close();
      },
      () -> {
        MemorySegment s = (MemorySegment) alignedAlloc.invokeExact(64L, 64L);
        s.reinterpret(16).asByteBuffer().putInt(0, 1);
        free.invokeExact(s);
      },
      () -> ByteBuffer.allocateDirect(16 + 63).putInt(0, 1)
    };
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] best = new double[options.length];
    java.util.Arrays.fill(best, Double.MAX_VALUE);
    for (int round = 0; round < 3; round++) {
      for (int k = 0; k < options.length; k++) {
        int n = k == 1 ? 2_000 : 200_000;
        long cpu0 = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
          options[k].run();
        }
        long cpu1 = threads.getCurrentThreadCpuTime();
        best[k] = Math.min(best[k], (cpu1 - cpu0) / 1000.0 / n);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "16 bytes taken and given back, JDK %s, %d idle threads: CPU us per allocation%n",
        Runtime.version(),
        idle);
    for (int k = 0; k < options.length; k++) {
      System.out.printf(Locale.ROOT, "  %-42s %8.3f%n", names[k], best[k]);
    }
  }
}
