package dev.ireestubs.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@link CallPathBenchmark}'s paths timed by the CPU time of the calling thread (best of {@value
 * #ROUNDS} rounds of {@value #CALLS} calls), with the ratios the call path is judged by: stub over
 * hand-written, dynamic over stub. On a shared machine JMH's wall times scatter by tens of percent
 * with the other load; a thread's CPU time much less. Run with {@code exec:exec@call-path-cpu}.
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
        "CPU time per call (ns), best of %d x %d calls, JDK %s%n%-8s %-6s %10s %10s %10s %12s %14s%n",
        ROUNDS, CALLS, System.getProperty("java.version"), "function", "backend", "stub", "hand", "dynamic", "stub/hand", "dynamic/stub");
    for (String backend : new String[] {"raw", "host"}) {
      CallPathBenchmark bench = new CallPathBenchmark();
      bench.backend = backend;
      bench.setUp();
      row(threads, "predict", backend, bench::predictStub, bench::predictHandWritten,
          bench::predictDynamic);
      row(threads, "add", backend, bench::addStub, bench::addHandWritten, bench::addDynamic);
    }
    HostCheckBenchmark checks = new HostCheckBenchmark();
    checks.setUp();
    System.out.printf(Locale.ROOT, "host module's checks of one predict call: %.1f ns%n",
        best(threads, checks::predictChecks));
  }

  private static void row(ThreadMXBean threads, String function, String backend,
      Supplier<Object> stub, Supplier<Object> hand, Supplier<Object> dynamic) {
    Map<String, Double> ns = new LinkedHashMap<>();
    ns.put("stub", best(threads, stub));
    ns.put("hand", best(threads, hand));
    ns.put("dynamic", best(threads, dynamic));
    System.out.printf(Locale.ROOT, "%-8s %-6s %10.1f %10.1f %10.1f %12.2f %14.2f%n",
        function, backend, ns.get("stub"), ns.get("hand"), ns.get("dynamic"),
        ns.get("stub") / ns.get("hand"), ns.get("dynamic") / ns.get("stub"));
  }

  /** The best CPU nanoseconds per call of {@code path} over the rounds (the first ones warm up). */
  private static double best(ThreadMXBean threads, Supplier<Object> path) {
    double best = Double.MAX_VALUE;
    Object sink = null;
    for (int round = 0; round < ROUNDS; round++) {
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < CALLS; i++) {
        sink = path.get();
      }
      best = Math.min(best, (threads.getCurrentThreadCpuTime() - start) / (double) CALLS);
    }
    if (sink == null) {
      throw new IllegalStateException("a path returned nothing");
    }
    return best;
  }
}
