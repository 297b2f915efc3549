package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.iree.IreeLibrary;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs what serving costs and prints the figures: {@link PoolBenchmark} (micro_speech's throughput
 * from 1 and 2 threads, on a pool of 2 and on one session), {@link PoolMemoryBenchmark} (8
 * contexts as a pool against 8 sessions: resident set and malloc growth, 3 fresh JVMs each) and
 * {@link RecordingCostBenchmark} (a call without the JFR event, with it and JFR off, and
 * recorded). The first argument picks one ({@code pool}, {@code memory}, {@code recording}); the
 * rest are JMH's. Without a runtime library or the models it says why and exits 0.
 */
public final class ServingBenchmarkMain {
  private ServingBenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    if (IreeLibrary.locate().isEmpty()) {
      System.out.println(
          "SKIPPED: no IREE runtime library found; runtime-iree/scripts/build-iree-runtime.sh"
              + " builds one");
      return;
    }
    if (AsyncBenchmarkMain.file(Speech.FILE) == null || IreeBenchmarkMain.module() == null) {
      System.out.println("SKIPPED: the models are not in -Diree.reflection.dir");
      return;
    }
    String which = args.length == 0 ? "all" : args[0];
    String[] jmh =
        args.length == 0 ? new String[0] : java.util.Arrays.copyOfRange(args, 1, args.length);
    if (which.equals("all") || which.equals("pool")) {
      pool(jmh);
    }
    if (which.equals("all") || which.equals("memory")) {
      memory(jmh);
    }
    if (which.equals("all") || which.equals("recording")) {
      recording(jmh);
    }
  }

  private static void pool(String[] jmh) throws Exception {
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .parent(new CommandLineOptions(jmh))
                    .include(PoolBenchmark.class.getName())
                    .build())
            .run();
    System.out.println();
    System.out.println("micro_speech tf2onnx on local-sync, calls per second:");
    String row = "  %-8s %-11s %10s %8s%n";
    System.out.printf(Locale.ROOT, row, "backend", "threads", "calls/s", "+-");
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      System.out.printf(
          Locale.ROOT,
          row,
          r.getParams().getParam("backend"),
          bench.substring(bench.lastIndexOf('.') + 1),
          String.format(Locale.ROOT, "%.0f", r.getPrimaryResult().getScore()),
          String.format(Locale.ROOT, "%.0f", r.getPrimaryResult().getScoreError()));
    }
  }

  private static void memory(String[] jmh) throws Exception {
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .parent(new CommandLineOptions(jmh))
                    .include(PoolMemoryBenchmark.class.getName())
                    .mode(Mode.SingleShotTime)
                    .warmupIterations(0)
                    .measurementIterations(1)
                    .forks(3)
                    .addProfiler(PoolMemoryBenchmark.Profiler.class)
                    .build())
            .run();
    System.out.println();
    System.out.println(
        "8 contexts with micro_speech on local-sync, growth after loading and 160 calls from 8"
            + " threads:");
    String row = "  %-9s %14s %14s %12s%n";
    System.out.printf(Locale.ROOT, row, "layout", "RSS MiB", "malloc MiB", "made in ms");
    for (RunResult r : results) {
      Map<String, Result> secondary = r.getSecondaryResults();
      System.out.printf(
          Locale.ROOT,
          row,
          r.getParams().getParam("layout"),
          figure(secondary.get("native.rss")),
          figure(secondary.get("native.malloc")),
          String.format(Locale.ROOT, "%.0f", r.getPrimaryResult().getScore()));
    }
  }

  private static String figure(Result<?> result) {
    if (result == null) {
      return "?";
    }
    double error = result.getScoreError();
    return String.format(Locale.ROOT, "%.2f", result.getScore())
        + (Double.isNaN(error) ? "" : String.format(Locale.ROOT, " +-%.2f", error));
  }

  private static void recording(String[] jmh) throws Exception {
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .parent(new CommandLineOptions(jmh))
                    .include(RecordingCostBenchmark.class.getName())
                    .addProfiler(GCProfiler.class)
                    .build())
            .run();
    System.out.println();
    System.out.println("a call's cost with and without the JFR event dev.ireestubs.Call:");
    String row = "  %-18s %10s %8s %9s%n";
    System.out.printf(Locale.ROOT, row, "call", "ns/call", "+-", "B/call");
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
      System.out.printf(
          Locale.ROOT,
          row,
          bench.substring(bench.lastIndexOf('.') + 1),
          String.format(Locale.ROOT, "%.1f", r.getPrimaryResult().getScore()),
          String.format(Locale.ROOT, "%.1f", r.getPrimaryResult().getScoreError()),
          alloc == null ? "?" : String.format(Locale.ROOT, "%.0f", alloc.getScore()));
    }
  }
}
