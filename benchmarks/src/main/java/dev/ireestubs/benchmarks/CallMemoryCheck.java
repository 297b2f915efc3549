package dev.ireestubs.benchmarks;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Native memory a loop of stub calls with a Java-array argument ties up between garbage
 * collections: after each block of calls, the JVM's direct buffers (count and bytes; JDK 17-21,
 * where arrays use {@code allocateDirect}), the process's resident memory (all JDKs) and the
 * collections run so far. Memory freed when each call ends stays flat; memory left to the collector
 * grows until one runs. Run with {@code exec:exec@call-memory}; arguments: {@code backend} ({@code
 * raw} or {@code host}), calls per block, blocks.
 */
public final class CallMemoryCheck {

  private CallMemoryCheck() {}

  public static void main(String[] args) throws Exception {
    String backend = args.length > 0 ? args[0] : "raw";
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    int blocks = args.length > 2 ? Integer.parseInt(args[2]) : 6;
    ArrayModel stub = new Iree_ArrayModel(CallMemoryBenchmark.backend(backend));
    float[] flat = new float[150528];
    System.out.printf(
        "JDK %d, backend %s, %d calls per block of sum(float[150528])%n",
        Runtime.version().feature(), backend, calls);
    System.out.printf(
        "%8s %12s %14s %12s %6s %10s%n",
        "calls", "direct count", "direct bytes", "RSS KiB", "GCs", "us/call");
    report(0, 0);
    for (int block = 1; block <= blocks; block++) {
      long start = System.nanoTime();
      for (int i = 0; i < calls; i++) {
        stub.sum(flat);
      }
      report(block * calls, (System.nanoTime() - start) / 1000.0 / calls);
    }
  }

  private static void report(int calls, double microsPerCall) throws Exception {
    long count = 0;
    long bytes = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        count = pool.getCount();
        bytes = pool.getMemoryUsed();
      }
    }
    long gcs = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcs += Math.max(0, gc.getCollectionCount());
    }
    System.out.printf(
        "%8d %12d %14d %12d %6d %10.1f%n", calls, count, bytes, rssKib(), gcs, microsPerCall);
  }

  private static long rssKib() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }
}
