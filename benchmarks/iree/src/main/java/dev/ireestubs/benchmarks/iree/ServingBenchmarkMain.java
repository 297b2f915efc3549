package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.iree.IreeLibrary;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs what serving costs and prints the figures: {@link PoolBenchmark} (micro_speech's throughput
 * from 1 and 2 threads, on a pool of 2 and on one session), {@link PoolMemoryBenchmark} (8 contexts
 * as a pool against 8 sessions: resident set and malloc growth, 5 fresh JVMs each) and {@link
 * RecordingCostBenchmark} (a call without the JFR event, with it and JFR off, and recorded). The
 * first argument picks one ({@code pool}, {@code memory}, {@code recording}); the rest are JMH's.
 * Without a runtime library or the models it says why and exits 0.
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
    System.out.println(
        "micro_speech tf2onnx on local-sync: calls per second (mean, error, and the median and"
            + " best iteration: on a shared machine the best is the one least disturbed), and each"
            + " call's CPU time on its thread:");
    String row = "  %-8s %-11s %8s %8s %8s %8s %12s%n";
    System.out.printf(
        Locale.ROOT, row, "backend", "threads", "mean", "+-", "median", "best", "CPU us/call");
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      Result<?> cpu = r.getSecondaryResults().get("cpuNanos");
      Result<?> calls = r.getSecondaryResults().get("calls");
      List<Double> iterations = new ArrayList<>();
      for (BenchmarkResult fork : r.getBenchmarkResults()) {
        for (IterationResult i : fork.getIterationResults()) {
          iterations.add(i.getPrimaryResult().getScore());
        }
      }
      Collections.sort(iterations);
      System.out.printf(
          Locale.ROOT,
          row,
          r.getParams().getParam("backend"),
          bench.substring(bench.lastIndexOf('.') + 1),
          String.format(Locale.ROOT, "%.0f", r.getPrimaryResult().getScore()),
          String.format(Locale.ROOT, "%.0f", r.getPrimaryResult().getScoreError()),
          String.format(Locale.ROOT, "%.0f", iterations.get(iterations.size() / 2)),
          String.format(Locale.ROOT, "%.0f", iterations.get(iterations.size() - 1)),
          cpu == null || calls == null
              ? "?"
              : String.format(Locale.ROOT, "%.1f", cpu.getScore() / calls.getScore() / 1000.0));
    }
  }

  @SuppressWarnings("InlineFormatString") // one row format for the header and every line
  private static void memory(String[] jmh) throws Exception {
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .parent(new CommandLineOptions(jmh))
                    .include(PoolMemoryBenchmark.class.getName())
                    .mode(Mode.SingleShotTime)
                    .warmupIterations(0)
                    .measurementIterations(1)
                    .forks(5)
                    .addProfiler(NativeMemoryProfiler.class)
                    .build())
            .run();
    System.out.println();
    System.out.println(
        "8 contexts with micro_speech on local-sync, growth after loading and 160 calls from 8"
            + " threads (MiB; median of the forks, then each fork):");
    String row = "  %-9s %-8s %8s   %s%n";
    for (RunResult r : results) {
      for (String label : List.of("native.rss", "native.malloc")) {
        List<Double> forks = new ArrayList<>();
        for (BenchmarkResult fork : r.getBenchmarkResults()) {
          Result<?> value = fork.getSecondaryResults().get(label);
          if (value != null) {
            forks.add(value.getScore());
          }
        }
        List<Double> sorted = new ArrayList<>(forks);
        Collections.sort(sorted);
        System.out.printf(
            Locale.ROOT,
            row,
            r.getParams().getParam("layout"),
            label.substring("native.".length()),
            sorted.isEmpty()
                ? "?"
                : String.format(Locale.ROOT, "%.2f", sorted.get(sorted.size() / 2)),
            forks.stream()
                .map(v -> String.format(Locale.ROOT, "%.2f", v))
                .collect(Collectors.joining(" ")));
      }
    }
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
    System.out.println(
        "a call's cost with and without the JFR event dev.ireestubs.Call (wall time per call,"
            + " and the calling thread's CPU time per call):");
    String row = "  %-18s %10s %8s %12s %9s%n";
    System.out.printf(Locale.ROOT, row, "call", "ns/call", "+-", "CPU ns/call", "B/call");
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
      Result<?> cpu = r.getSecondaryResults().get("cpuNanos");
      Result<?> calls = r.getSecondaryResults().get("calls");
      System.out.printf(
          Locale.ROOT,
          row,
          bench.substring(bench.lastIndexOf('.') + 1),
          String.format(Locale.ROOT, "%.1f", r.getPrimaryResult().getScore()),
          String.format(Locale.ROOT, "%.1f", r.getPrimaryResult().getScoreError()),
          cpu == null || calls == null
              ? "?"
              : String.format(Locale.ROOT, "%.1f", cpu.getScore() / calls.getScore()),
          alloc == null ? "?" : String.format(Locale.ROOT, "%.0f", alloc.getScore()));
    }
  }
}
