package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.iree.IreeLibrary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link AsyncCallBenchmark} (micro_speech, asynchronous against synchronous calls) with JMH's
 * GC profiler and prints a table: time per call and heap bytes per call (every thread's, the
 * session's waiter and completion threads included). Without a runtime library or the model it says
 * why and exits 0. Arguments are JMH's.
 */
public final class AsyncBenchmarkMain {
  private AsyncBenchmarkMain() {}

  /** A file of the shared folder ({@code -Diree.reflection.dir}); null when absent. */
  static Path file(String relative) {
    String dir = System.getProperty("iree.reflection.dir", "../shared/iree-reflection");
    Path p = Path.of(dir, relative);
    return Files.isRegularFile(p) ? p.toAbsolutePath() : null;
  }

  public static void main(String[] args) throws Exception {
    Optional<Path> library = IreeLibrary.locate();
    if (library.isEmpty()) {
      System.out.println(
          "SKIPPED: no IREE runtime library found; runtime-iree/scripts/build-iree-runtime.sh"
              + " builds one");
      return;
    }
    if (file(Speech.FILE) == null || file(Speech.YES) == null) {
      System.out.println("SKIPPED: micro_speech is not in -Diree.reflection.dir");
      return;
    }
    String name = AsyncCallBenchmark.class.getName();
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .parent(new CommandLineOptions(args))
                    .include(name + "\\.window")
                    .include(name + "\\.(sync|submit)")
                    .addProfiler(GCProfiler.class)
                    .build())
            .run();
    System.out.println();
    System.out.println("micro_speech (tf2onnx, 1x49x40x1 ui8 -> 1x4 f32), per call:");
    String row = "  %-10s %-11s %8s %10s %8s %9s%n";
    System.out.printf(Locale.ROOT, row, "path", "device", "inFlight", "us/call", "+-", "B/call");
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      bench = bench.substring(bench.lastIndexOf('.') + 1);
      Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
      double error = r.getPrimaryResult().getScoreError() / 1000.0;
      System.out.printf(
          Locale.ROOT,
          row,
          bench,
          r.getParams().getParam("device"),
          bench.equals("window") ? r.getParams().getParam("inFlight") : "-",
          String.format(Locale.ROOT, "%.2f", r.getPrimaryResult().getScore() / 1000.0),
          String.format(Locale.ROOT, "%.2f", Double.isNaN(error) ? 0.0 : error),
          alloc == null ? "?" : String.format(Locale.ROOT, "%.0f", alloc.getScore()));
    }
  }
}
