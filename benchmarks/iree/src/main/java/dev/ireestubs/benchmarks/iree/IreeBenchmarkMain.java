package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.iree.IreeLibrary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link IreeCallBenchmark} with JMH's GC profiler and prints its figures next to {@code
 * iree-benchmark-module}'s for the same function, inputs and device (the tool the build script
 * installs beside the library): microseconds and heap bytes per call. Without a runtime library or
 * without the module it prints why and exits 0. Arguments are JMH's.
 */
public final class IreeBenchmarkMain {
  private IreeBenchmarkMain() {}

  private static final String FUNCTION = "add";
  private static final List<String> INPUTS =
      List.of("--input=4xf32=1,2,3,4", "--input=4xf32=10,20,30,40");

  /** The add module in the shared folder; null when absent. */
  static Path module() {
    String dir = System.getProperty("iree.reflection.dir", "../shared/iree-reflection");
    Path p = Path.of(dir, Adder.FILE);
    return Files.isRegularFile(p) ? p.toAbsolutePath() : null;
  }

  public static void main(String[] args) throws Exception {
    Optional<Path> library = IreeLibrary.locate();
    if (library.isEmpty()) {
      System.out.println(
          "SKIPPED: no IREE runtime library found (-Diree.runtime.library, IREE_RUNTIME_LIBRARY, "
              + IreeLibrary.conventionalPath(IreeLibrary.IREE_VERSION)
              + "); runtime-iree/scripts/build-iree-runtime.sh builds one");
      return;
    }
    Path module = module();
    if (module == null) {
      System.out.println(
          "SKIPPED: the add module " + Adder.FILE + " is not in -Diree.reflection.dir");
      return;
    }
    System.out.println("library: " + library.get());
    System.out.println("module:  " + module);

    OptionalDouble tool = ireeBenchmarkModule(library.get(), module);

    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .parent(new CommandLineOptions(args))
                    .include(IreeCallBenchmark.class.getName())
                    .addProfiler(GCProfiler.class)
                    .build())
            .run();

    System.out.println();
    System.out.println("add(4xf32) on local-sync, per call:");
    System.out.printf(
        Locale.ROOT, "  %-24s %9s %9s %9s %8s%n", "path", "us/call", "+-", "B/call", "x tool");
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      name = name.substring(name.lastIndexOf('.') + 1);
      double micros = r.getPrimaryResult().getScore() / 1000.0;
      double error = r.getPrimaryResult().getScoreError() / 1000.0;
      Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
      String bytes = alloc == null ? "?" : String.format(Locale.ROOT, "%.0f", alloc.getScore());
      String ratio =
          tool.isPresent() ? String.format(Locale.ROOT, "%.2f", micros / tool.getAsDouble()) : "";
      System.out.printf(
          Locale.ROOT,
          "  %-24s %9.2f %9.2f %9s %8s%n",
          "Java " + name,
          micros,
          Double.isNaN(error) ? 0.0 : error,
          bytes,
          ratio);
    }
    if (tool.isPresent()) {
      System.out.printf(
          Locale.ROOT,
          "  %-24s %9.2f %9s %9s %8s%n",
          "iree-benchmark-module",
          tool.getAsDouble(),
          "",
          "-",
          "1.00");
    }
  }

  /** Microseconds per call that iree-benchmark-module reports (real time), if it runs. */
  private static OptionalDouble ireeBenchmarkModule(Path library, Path module)
      throws IOException, InterruptedException {
    Path tool = library.toAbsolutePath().getParent().getParent().resolve("bin/iree-benchmark-module");
    if (!Files.isExecutable(tool)) {
      System.out.println("iree-benchmark-module: not found at " + tool + " (not compared)");
      return OptionalDouble.empty();
    }
    List<String> command = new ArrayList<>();
    command.add(tool.toString());
    command.add("--module=" + module);
    command.add("--device=local-sync");
    command.add("--function=" + FUNCTION);
    command.addAll(INPUTS);
    command.add("--benchmark_min_time=2s");
    command.add("--benchmark_format=json");
    System.out.println("$ " + String.join(" ", command));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      System.out.println("iree-benchmark-module failed (exit " + p.exitValue() + "): not compared");
      return OptionalDouble.empty();
    }
    Matcher time = Pattern.compile("\"real_time\":\\s*([0-9.eE+-]+)").matcher(json);
    Matcher unit = Pattern.compile("\"time_unit\":\\s*\"(\\w+)\"").matcher(json);
    if (!time.find() || !unit.find()) {
      System.out.println("iree-benchmark-module printed no real_time: not compared");
      return OptionalDouble.empty();
    }
    double value = Double.parseDouble(time.group(1));
    double micros =
        switch (unit.group(1)) {
          case "ns" -> value / 1000.0;
          case "us" -> value;
          case "ms" -> value * 1000.0;
          default -> value * 1_000_000.0;
        };
    System.out.printf(Locale.ROOT, "iree-benchmark-module: %.2f us per call%n", micros);
    return OptionalDouble.of(micros);
  }
}
