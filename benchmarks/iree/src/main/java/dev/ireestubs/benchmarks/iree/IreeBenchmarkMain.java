package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.iree.IreeLibrary;
import dev.ireestubs.vmfb.RuntimeGeneration;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * installs beside the library): time and heap bytes per call. On a machine shared with other work
 * wall times scatter, so it also measures the CPU time the calling thread spends per call (best of
 * {@value #CPU_ROUNDS} rounds), next to the CPU time the tool reports per iteration. Without a
 * runtime library or without the module it prints why and exits 0. Arguments are JMH's.
 */
public final class IreeBenchmarkMain {
  private IreeBenchmarkMain() {}

  private static final String FUNCTION = "add";
  private static final List<String> INPUTS =
      List.of("--input=4xf32=1,2,3,4", "--input=4xf32=10,20,30,40");
  private static final int CPU_ROUNDS = 15;
  private static final int CPU_CALLS = 20_000;

  /** The tool's best real and CPU time per iteration, in microseconds. */
  private record ToolFigures(double realMicros, double cpuMicros) {}

  /**
   * The add module in the shared folder, in the format of the located runtime's generation (the
   * 3.11 module, or its 3.12-format twin on a 3.12-line runtime); null when absent.
   */
  static Path module() {
    String dir = System.getProperty("iree.reflection.dir", "../shared/iree-reflection");
    boolean current =
        IreeLibrary.locate()
            .map(IreeLibrary::load)
            .map(l -> l.generation() == RuntimeGeneration.IREE_3_12_AND_LATER)
            .orElse(false);
    Path p = Path.of(dir, current ? Adder.FILE_HAL07 : Adder.FILE);
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
    System.out.println(
        "library: "
            + library.get()
            + " (IREE "
            + IreeLibrary.load(library.get()).release().orElse("of an unknown release")
            + ")");
    System.out.println("module:  " + module);

    Optional<ToolFigures> tool = ireeBenchmarkModule(library.get(), module);
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .parent(new CommandLineOptions(args))
                    .include(IreeCallBenchmark.class.getName())
                    .addProfiler(GCProfiler.class)
                    .build())
            .run();
    Map<String, Double> cpu = cpuMicrosPerCall();

    System.out.println();
    System.out.println("add(4xf32) on local-sync, per call (wall time and heap bytes from JMH,");
    System.out.println(
        "CPU time of the calling thread, best of "
            + CPU_ROUNDS
            + " x "
            + CPU_CALLS
            + " calls; x tool: CPU time over the tool's):");
    String row = "  %-22s %9s %8s %8s %9s %7s%n";
    System.out.printf(Locale.ROOT, row, "path", "us/call", "+-", "B/call", "CPU us", "x tool");
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      name = name.substring(name.lastIndexOf('.') + 1);
      Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
      double error = r.getPrimaryResult().getScoreError() / 1000.0;
      Double cpuMicros = cpu.get(name);
      System.out.printf(
          Locale.ROOT,
          row,
          "Java " + name,
          format(r.getPrimaryResult().getScore() / 1000.0),
          format(Double.isNaN(error) ? 0.0 : error),
          alloc == null ? "?" : String.format(Locale.ROOT, "%.0f", alloc.getScore()),
          cpuMicros == null ? "" : format(cpuMicros),
          cpuMicros == null || tool.isEmpty() ? "" : format(cpuMicros / tool.get().cpuMicros()));
    }
    tool.ifPresent(
        t ->
            System.out.printf(
                Locale.ROOT,
                row,
                "iree-benchmark-module",
                format(t.realMicros()),
                "",
                "-",
                format(t.cpuMicros()),
                "1.00"));
  }

  private static String format(double value) {
    return String.format(Locale.ROOT, "%.2f", value);
  }

  /** Each benchmark method's CPU time per call on this thread, in microseconds. */
  private static Map<String, Double> cpuMicrosPerCall() throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (!threads.isCurrentThreadCpuTimeSupported()) {
      return Map.of();
    }
    IreeCallBenchmark bench = new IreeCallBenchmark();
    bench.setUp();
    Map<String, Double> out = new LinkedHashMap<>();
    try {
      Map<String, Supplier<Object>> paths = new LinkedHashMap<>();
      paths.put("backend", bench::backend);
      paths.put("dynamic", bench::dynamic);
      paths.put("stub", bench::stub);
      paths.put("stubNewArrays", bench::stubNewArrays);
      paths.put("stubSegments", bench::stubSegments);
      for (Map.Entry<String, Supplier<Object>> path : paths.entrySet()) {
        double best = Double.MAX_VALUE;
        Object sink = null;
        for (int round = 0; round < CPU_ROUNDS; round++) {
          long start = threads.getCurrentThreadCpuTime();
          for (int i = 0; i < CPU_CALLS; i++) {
            sink = path.getValue().get();
          }
          best = Math.min(best, (threads.getCurrentThreadCpuTime() - start) / 1e3 / CPU_CALLS);
        }
        if (sink == null) {
          throw new IllegalStateException(path.getKey() + " returned nothing");
        }
        out.put(path.getKey(), best);
      }
    } finally {
      bench.tearDown();
    }
    return out;
  }

  /** What iree-benchmark-module reports (best of its repetitions), if it runs. */
  private static Optional<ToolFigures> ireeBenchmarkModule(Path library, Path module)
      throws IOException, InterruptedException {
    Path tool =
        library.toAbsolutePath().getParent().getParent().resolve("bin/iree-benchmark-module");
    if (!Files.isExecutable(tool)) {
      System.out.println("iree-benchmark-module: not found at " + tool + " (not compared)");
      return Optional.empty();
    }
    List<String> command = new ArrayList<>();
    command.add(tool.toString());
    command.add("--module=" + module);
    command.add("--device=local-sync");
    command.add("--function=" + FUNCTION);
    command.addAll(INPUTS);
    command.add("--benchmark_min_time=1s");
    command.add("--benchmark_repetitions=5");
    command.add("--benchmark_format=json");
    System.out.println("$ " + String.join(" ", command));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0) {
      System.out.println("iree-benchmark-module failed: not compared");
      return Optional.empty();
    }
    // Each repetition is one object with "run_type": "iteration", "real_time", "cpu_time" and
    // "time_unit"; aggregates (mean, median...) have "run_type": "aggregate".
    double real = Double.MAX_VALUE;
    double cpu = Double.MAX_VALUE;
    Matcher run =
        Pattern.compile(
                "\"run_type\":\\s*\"iteration\"[^}]*?\"real_time\":\\s*([0-9.eE+-]+),\\s*"
                    + "\"cpu_time\":\\s*([0-9.eE+-]+),\\s*\"time_unit\":\\s*\"(\\w+)\"")
            .matcher(json);
    while (run.find()) {
      double unit = micros(run.group(3));
      real = Math.min(real, Double.parseDouble(run.group(1)) * unit);
      cpu = Math.min(cpu, Double.parseDouble(run.group(2)) * unit);
    }
    if (real == Double.MAX_VALUE) {
      System.out.println("iree-benchmark-module printed no timings: not compared");
      return Optional.empty();
    }
    System.out.printf(
        Locale.ROOT, "iree-benchmark-module: %.2f us real, %.2f us CPU per call%n", real, cpu);
    return Optional.of(new ToolFigures(real, cpu));
  }

  private static double micros(String unit) {
    return switch (unit) {
      case "ns" -> 1e-3;
      case "us" -> 1.0;
      case "ms" -> 1e3;
      default -> 1e6;
    };
  }
}
