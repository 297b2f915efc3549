package dev.ireestubs.benchmarks.iree;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.ireestubs.benchmarks.iree.PeerCalls.Pattern;
import dev.ireestubs.iree.Device;
import dev.ireestubs.iree.IreeLibrary;
import dev.ireestubs.iree.IreeRuntime;
import dev.ireestubs.iree.IreeSession;
import dev.ireestubs.iree.IreeSessionPool;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * ONNX Runtime Java beside a stub over IREE's runtime on the same computation ({@link PeerCalls}),
 * in one JVM: per pattern the CPU time of the calling thread per call and the heap bytes it
 * allocates per call (medians over interleaved rounds: each round runs every pattern of both
 * libraries once, in turn, so a disturbance of the shared machine falls on both), then the calls
 * per second of 8 threads calling at once over one thread's, per library (a pool of sessions for
 * the stub, one session for ORT, which runs calls concurrently). Prints the ratios stub / ORT.
 * Without IREE's library or the add module it says so and exits 0.
 *
 * <p>System properties: {@code peers.rounds} (default 15, the first 3 of which warm up and are not
 * counted), {@code peers.calls} per pattern per round (default 20000), {@code peers.seconds} per
 * throughput measurement (default 1), {@code peers.throughputRounds} (default 5), {@code
 * peers.poolSizes} (the stub's pools for the throughput, comma-separated; {@code peers.poolSize}
 * for one; default 8, a session per thread as ORT's one session runs 8 calls at once, and one of a
 * session per processor). Each throughput measurement also takes the process's CPU time per call.
 */
public final class PeersBenchmarkMain {
  private PeersBenchmarkMain() {}

  private static final int WARMUP = 3;

  /** The threads that call at once in the throughput measurement. */
  private static final int THREADS_AT_ONCE = 8;

  private static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** One library's measurements of one pattern, a value per counted round. */
  private record Figures(List<Double> cpu, List<Double> wall, List<Double> bytes) {
    Figures() {
      this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    }
  }

  @FunctionalInterface
  private interface Call {
    float run(Pattern pattern) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    if (IreeLibrary.locate().isEmpty()) {
      System.out.println("SKIPPED: no IREE runtime library found");
      return;
    }
    Path module = IreeBenchmarkMain.module();
    if (module == null) {
      System.out.println(
          "SKIPPED: the add module " + Adder.FILE + " is not in -Diree.reflection.dir");
      return;
    }
    // 0 (or fewer rounds than the warm-up) skips the single-thread patterns: throughput only.
    int rounds = Integer.getInteger("peers.rounds", 15);
    int calls = Integer.getInteger("peers.calls", 20_000);
    int seconds = Integer.getInteger("peers.seconds", 1);
    int throughputRounds = Integer.getInteger("peers.throughputRounds", 5);
    System.out.println("module:  " + module);
    System.out.println(
        "JDK "
            + Runtime.version()
            + ", "
            + Runtime.getRuntime().availableProcessors()
            + " processors, ONNX Runtime "
            + OrtEnvironment.getEnvironment().getVersion());

    OrtEnvironment env = OrtEnvironment.getEnvironment();
    try (IreeRuntime runtime = IreeRuntime.create(IreeLibrary.load());
        OrtSession ort = PeerCalls.ortSession(env)) {
      IreeSession session = runtime.newSession().load(module);
      PeerCalls peers = new PeerCalls(env, ort, session);
      Map<Pattern, Figures> ortFigures = new EnumMap<>(Pattern.class);
      Map<Pattern, Figures> stubFigures = new EnumMap<>(Pattern.class);
      for (int round = 0; round < rounds; round++) {
        for (Pattern p : Pattern.values()) {
          boolean counted = round >= WARMUP;
          // Alternate which library goes first.
          if (round % 2 == 0) {
            measure(peers::ort, p, calls, counted ? ortFigures : null);
            measure(peers::stub, p, calls, counted ? stubFigures : null);
          } else {
            measure(peers::stub, p, calls, counted ? stubFigures : null);
            measure(peers::ort, p, calls, counted ? ortFigures : null);
          }
        }
      }
      peers.close();
      session.close();
      if (rounds > WARMUP) {
        printPatterns(ortFigures, stubFigures, rounds - WARMUP, calls);
      }

      if (throughputRounds < 1) {
        return;
      }
      List<IreeSessionPool> pools = new ArrayList<>();
      try {
        for (int size : poolSizes()) {
          pools.add(runtime.newPool(Device.LOCAL_SYNC, size).load(module));
        }
        // Library 0 is ORT; library 1 + i the stub on pools[i].
        int libraries = 1 + pools.size();
        Rate[][][] rates = new Rate[libraries][2][throughputRounds];
        for (int r = 0; r < throughputRounds + 1; r++) {
          for (int t = 0; t < 2; t++) {
            int threads = t == 0 ? 1 : THREADS_AT_ONCE;
            for (int k = 0; k < libraries; k++) {
              // Rotate which library goes first, as the single-thread rounds alternate.
              int lib = (k + r) % libraries;
              IreeSessionPool pool = pools.get(Math.max(0, lib - 1));
              Rate rate = throughput(env, ort, pool, lib == 0, threads, seconds);
              if (r > 0) {
                rates[lib][t][r - 1] = rate;
              }
            }
          }
        }
        List<String> names = new ArrayList<>();
        names.add("ORT, one session");
        for (IreeSessionPool pool : pools) {
          names.add("stub, pool of " + pool.size());
        }
        printThroughput(names, rates, seconds);
      } finally {
        pools.forEach(IreeSessionPool::close);
      }
    }
  }

  /**
   * The stub's pool sizes for the throughput: {@code peers.poolSizes} (comma-separated), or {@code
   * peers.poolSize}, else a session per calling thread and a session per processor.
   */
  private static List<Integer> poolSizes() {
    String sizes = System.getProperty("peers.poolSizes", System.getProperty("peers.poolSize"));
    List<Integer> out = new ArrayList<>();
    if (sizes == null) {
      out.add(THREADS_AT_ONCE);
      int processors = Runtime.getRuntime().availableProcessors();
      if (processors != THREADS_AT_ONCE) {
        out.add(processors);
      }
      return out;
    }
    for (String size : sizes.split(",")) {
      out.add(Integer.parseInt(size.trim()));
    }
    return out;
  }

  private static void measure(Call call, Pattern p, int calls, Map<Pattern, Figures> into)
      throws Exception {
    long id = Thread.currentThread().threadId();
    float sink = 0;
    long bytes0 = THREADS.getThreadAllocatedBytes(id);
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      sink += call.run(p);
    }
    long wall1 = System.nanoTime();
    long cpu1 = THREADS.getCurrentThreadCpuTime();
    long bytes1 = THREADS.getThreadAllocatedBytes(id);
    if (sink == 42.4242f) {
      System.out.print(""); // keeps the calls from being optimised away
    }
    if (into != null) {
      Figures f = into.computeIfAbsent(p, k -> new Figures());
      f.cpu().add((cpu1 - cpu0) / 1000.0 / calls);
      f.wall().add((wall1 - wall0) / 1000.0 / calls);
      f.bytes().add((bytes1 - bytes0) / (double) calls);
    }
  }

  /**
   * One throughput measurement: calls per second, and the whole process's CPU time per call (every
   * thread's: the callers', the collector's, the JIT's, a library's own).
   */
  private record Rate(double callsPerSecond, double cpuMicrosPerCall) {}

  /** Calls per second of {@code threads} threads, each with its own inputs, for {@code seconds}. */
  private static Rate throughput(
      OrtEnvironment env,
      OrtSession ort,
      IreeSessionPool pool,
      boolean onOrt,
      int threads,
      int seconds)
      throws Exception {
    LongAdder done = new LongAdder();
    List<Long> perThread = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.LongAccumulator slowest =
        new java.util.concurrent.atomic.LongAccumulator(Math::max, 0);
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      Thread w =
          new Thread(
              () -> {
                try {
                  PeerCalls mine = new PeerCalls(env, ort, pool);
                  ready.countDown();
                  go.await();
                  long n = 0;
                  long longest = 0;
                  while (!stop.get()) {
                    long t0 = System.nanoTime();
                    if (onOrt) {
                      mine.ort(Pattern.NEW_INPUTS);
                    } else {
                      mine.stub(Pattern.NEW_INPUTS);
                    }
                    longest = Math.max(longest, System.nanoTime() - t0);
                    n++;
                  }
                  done.add(n);
                  perThread.add(n);
                  slowest.accumulate(longest);
                  mine.close();
                } catch (InterruptedException | OrtException | RuntimeException e) {
                  failures.add(e);
                  ready.countDown();
                }
              });
      workers.add(w);
      w.start();
    }
    ready.await();
    long cpu0 = PROCESS.getProcessCpuTime();
    long start = System.nanoTime();
    go.countDown();
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    for (Thread w : workers) {
      w.join();
    }
    long elapsed = System.nanoTime() - start;
    long cpu = PROCESS.getProcessCpuTime() - cpu0;
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a worker failed", failures.get(0));
    }
    if (threads > 0) {
      long min = perThread.stream().mapToLong(Long::longValue).min().orElse(0);
      long max = perThread.stream().mapToLong(Long::longValue).max().orElse(1);
      // How evenly the threads were served: the fewest calls a thread made over the most, and the
      // longest single call (a wait for a session included).
      System.out.printf(
          Locale.ROOT,
          "    %s, %d threads: %.0f calls/s; process CPU %.2f us/call; calls per thread min/max %.2f; longest call %.1f ms%n",
          onOrt ? "ORT" : "stub, pool of " + pool.size(),
          threads,
          done.sum() / (elapsed / 1e9),
          cpu / 1e3 / done.sum(),
          min / (double) max,
          slowest.get() / 1e6);
    }
    return new Rate(done.sum() / (elapsed / 1e9), cpu / 1e3 / done.sum());
  }

  private static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  private static String spread(List<Double> values) {
    double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    return String.format(Locale.ROOT, "%.2f-%.2f", min, max);
  }

  private static void printPatterns(
      Map<Pattern, Figures> ort, Map<Pattern, Figures> stub, int rounds, int calls) {
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "add of two float[4], one thread: medians of %d interleaved rounds of %d calls"
            + " (CPU: the calling thread's; spread: min-max over the rounds)%n",
        rounds,
        calls);
    String row = "  %-20s %10s %12s %11s %12s %7s %12s %10s%n";
    System.out.printf(
        Locale.ROOT,
        row,
        "pattern",
        "ORT CPU us",
        "spread",
        "stub CPU us",
        "spread",
        "x ORT",
        "wall us",
        "B ORT/stub");
    for (Pattern p : Pattern.values()) {
      Figures o = ort.get(p);
      Figures s = stub.get(p);
      double oc = median(o.cpu());
      double sc = median(s.cpu());
      System.out.printf(
          Locale.ROOT,
          row,
          p.name().toLowerCase(Locale.ROOT),
          String.format(Locale.ROOT, "%.2f", oc),
          spread(o.cpu()),
          String.format(Locale.ROOT, "%.2f", sc),
          spread(s.cpu()),
          String.format(Locale.ROOT, "%.2f", sc / oc),
          String.format(Locale.ROOT, "%.2f/%.2f", median(o.wall()), median(s.wall())),
          String.format(Locale.ROOT, "%.0f/%.0f", median(o.bytes()), median(s.bytes())));
    }
  }

  private static void printThroughput(List<String> names, Rate[][][] rates, int seconds) {
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "new_inputs from 1 and from 8 threads at once (medians of %d rounds of %d s;"
            + " CPU: the process's per call)%n",
        rates[0][0].length,
        seconds);
    String row = "  %-20s %12s %12s %8s %12s %12s %10s%n";
    System.out.printf(
        Locale.ROOT,
        row,
        "library",
        "1 thread/s",
        "8 threads/s",
        "8 / 1",
        "CPU us 1 th",
        "CPU us 8 th",
        "CPU 8 / 1");
    for (int lib = 0; lib < names.size(); lib++) {
      Rate[][] r = rates[lib];
      double one = median(Arrays.stream(r[0]).mapToDouble(Rate::callsPerSecond).toArray());
      double eight = median(Arrays.stream(r[1]).mapToDouble(Rate::callsPerSecond).toArray());
      double cpuOne = median(Arrays.stream(r[0]).mapToDouble(Rate::cpuMicrosPerCall).toArray());
      double cpuEight = median(Arrays.stream(r[1]).mapToDouble(Rate::cpuMicrosPerCall).toArray());
      System.out.printf(
          Locale.ROOT,
          row,
          names.get(lib),
          String.format(Locale.ROOT, "%.0f", one),
          String.format(Locale.ROOT, "%.0f", eight),
          String.format(Locale.ROOT, "%.2f", eight / one),
          String.format(Locale.ROOT, "%.2f", cpuOne),
          String.format(Locale.ROOT, "%.2f", cpuEight),
          String.format(Locale.ROOT, "%.2f", cpuEight / cpuOne));
    }
  }
}
