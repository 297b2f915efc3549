package dev.ireestubs.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@link CallPathBenchmark}'s paths timed by the CPU time of the calling thread (best of {@value
 * #ROUNDS} rounds of {@value #CALLS} calls) with the heap bytes each call allocates (the thread's
 * allocation counter over the last round, as {@code -prof gc} counts them), and the ratios the call
 * path is judged by: stub over hand-written, dynamic over stub. On a shared machine JMH's wall
 * times scatter by tens of percent with the other load; a thread's CPU time much less. Run with
 * {@code exec:exec@call-path-cpu}.
 */
public final class CallPathCpuTime {

  private static final int ROUNDS = 15;
  private static final int CALLS = 100_000;

  private CallPathCpuTime() {}

  public static void main(String[] args) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (!threads.isCurrentThreadCpuTimeSupported()) {
      System.out.println("this JVM cannot measure a thread's CPU time");
      return;
    }
    System.out.printf(
        Locale.ROOT,
        "CPU time per call (ns), best of %d x %d calls, and heap bytes per call, JDK %s%n"
            + "%-8s %-6s %10s %10s %10s %12s %14s %10s %10s %10s%n",
        ROUNDS,
        CALLS,
        System.getProperty("java.version"),
        "function",
        "backend",
        "stub",
        "hand",
        "dynamic",
        "stub/hand",
        "dynamic/stub",
        "stub B",
        "hand B",
        "dynamic B");
    for (String backend : new String[] {"raw", "host"}) {
      CallPathBenchmark bench = new CallPathBenchmark();
      bench.backend = backend;
      bench.setUp();
      row(
          threads,
          "predict",
          backend,
          bench::predictStub,
          bench::predictHandWritten,
          bench::predictDynamic);
      row(threads, "add", backend, bench::addStub, bench::addHandWritten, bench::addDynamic);
    }
    HostCheckBenchmark checks = new HostCheckBenchmark();
    checks.setUp();
    double[] check = best(threads, checks::predictChecks);
    System.out.printf(
        Locale.ROOT,
        "host module's checks of one predict call: %.1f ns, %.0f B%n",
        check[0],
        check[1]);
  }

  private static void row(
      ThreadMXBean threads,
      String function,
      String backend,
      Supplier<Object> stub,
      Supplier<Object> hand,
      Supplier<Object> dynamic) {
    Map<String, double[]> m = new LinkedHashMap<>();
    m.put("stub", best(threads, stub));
    m.put("hand", best(threads, hand));
    m.put("dynamic", best(threads, dynamic));
    System.out.printf(
        Locale.ROOT,
        "%-8s %-6s %10.1f %10.1f %10.1f %12.2f %14.2f %10.0f %10.0f %10.0f%n",
        function,
        backend,
        m.get("stub")[0],
        m.get("hand")[0],
        m.get("dynamic")[0],
        m.get("stub")[0] / m.get("hand")[0],
        m.get("dynamic")[0] / m.get("stub")[0],
        m.get("stub")[1],
        m.get("hand")[1],
        m.get("dynamic")[1]);
  }

  /**
   * The best CPU nanoseconds per call of {@code path} over the rounds (the first ones warm up), and
   * the heap bytes per call of the last round (-1 when the JVM cannot count them).
   */
  private static double[] best(ThreadMXBean threads, Supplier<Object> path) {
    double best = Double.MAX_VALUE;
    double bytes = -1;
    Object sink = null;
    long threadId = Thread.currentThread().getId();
    for (int round = 0; round < ROUNDS; round++) {
      long allocated = allocatedBytes(threads, threadId);
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < CALLS; i++) {
        sink = path.get();
      }
      best = Math.min(best, (threads.getCurrentThreadCpuTime() - start) / (double) CALLS);
      if (allocated >= 0) {
        bytes = (allocatedBytes(threads, threadId) - allocated) / (double) CALLS;
      }
    }
    if (sink == null) {
      throw new IllegalStateException("a path returned nothing");
    }
    return new double[] {best, bytes};
  }

  private static long allocatedBytes(ThreadMXBean threads, long threadId) {
    return threads instanceof com.sun.management.ThreadMXBean threadMXBean
        ? threadMXBean.getThreadAllocatedBytes(threadId)
        : -1;
  }
}
