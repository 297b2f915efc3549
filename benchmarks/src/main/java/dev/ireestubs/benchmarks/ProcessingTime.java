package dev.ireestubs.benchmarks;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.derive.ClientDeriver;
import dev.ireestubs.processor.IreeStubsProcessor;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.tools.ToolProvider;

/**
 * How much the annotation processor adds to a compilation, by module size: an {@code @IreeModule}
 * interface of N functions (a mix of arrays, records over sdicts, scalars, lists and Java arrays,
 * with its {@code iree.abi} JSON module file) is compiled with the processor and, for comparison,
 * without it ({@code -proc:none}); the difference is what processing (binding, writing the stub and
 * compiling it) costs. Run it with
 *
 * <pre>
 * mvn -q -pl benchmarks -am package -DskipTests exec:exec@processing-time
 * </pre>
 *
 * <p>({@code -Dprocessing.args="100 1000 3000 runs=5"} sets the sizes and runs; {@code mode=cold}
 * or {@code mode=warm} measures one way, {@code warmups=n} sets the warm-up rounds of the warm
 * measurement, 5 by default.)
 *
 * <p>The processor path of each compilation is what a build gives javac (Maven's {@code
 * annotationProcessorPaths}, Gradle's {@code annotationProcessor} configuration): the processor's
 * jar and its runtime dependencies, iree-stubs-runtime (which carries the jackson-core it reads
 * JSON with, relocated), iree-stubs-derive, iree-stubs-annotations and JavaPoet, found as the code
 * sources of a class of each (all are on this module's compile class path, through its dependency
 * on the processor). It is not this JVM's class path, which holds more (these classes, JMH and its
 * dependencies): javac would list and search those entries too, for the processor's classes and the
 * names the interface and the stub use, and a build's compilation has none of them. The same path
 * is the class path the interface compiles against (it needs the annotations and the runtime's
 * array types).
 *
 * <p>Each size prints up to three rows, each the median of the runs (time column):
 *
 * <ul>
 *   <li>{@code wall}: a fresh {@code javac} process per compilation ({@code java.home/bin/javac}),
 *       from its start to its exit, as a build's first compilation (cold: javac and the processor
 *       not yet JIT-compiled);
 *   <li>{@code cpu}, on Linux: the CPU time (user and system, JIT and GC threads included) those
 *       processes used, read from {@code /proc/self/stat} as the time of waited-for children, which
 *       a busy machine inflates far less than wall time;
 *   <li>{@code warm}: the wall time of the same compilations run one after the other in one JVM
 *       through {@code javax.tools} after some warm-up rounds of all of them (see {@link
 *       Compilations}), as from a build's second compilation on, Maven's compiler plugin running
 *       javac in-process and Gradle in a compiler daemon: javac JIT-compiled, the processor's
 *       classes loaded anew in each compilation.
 * </ul>
 *
 * <p>The columns: javac alone ({@code -proc:none}), javac with the processor, the difference, the
 * difference per function (the growth is linear when that column stays flat), the floor (what javac
 * adds to compile, beside the interface, a class implementing it by methods that only throw, which
 * any stub must at least cost) and what the processor alone adds ({@code -proc:only}: the stub
 * written and its source parsed, not compiled), which splits the cost between the processor's work
 * and javac's compiling the stub; the last two over javac alone too. The cold and warm runs
 * alternate the four compilations within a round.
 *
 * <p>Four families of modules are measured ({@code family=same}, {@code dims}, {@code own} or
 * {@code records} runs one): in the first three, function i has one of five structures (i % 5). In
 * {@code same} the functions of one structure are equal but for their names; in {@code dims} every
 * function has static dimensions of its own (derived from i); in {@code own} every function's
 * parameters are named for it. The stub gives methods whose bodies are equal but for their
 * function, its name, their parameters' names and their descriptor constants one shared body, so
 * these cost javac about five bodies ({@code dims} shows that other dimensions, passed as
 * constants, still share, {@code own} that other parameter names do). In {@code records} every
 * function takes and returns records of its own (an sdict in and out, or an array in and a pair
 * out), so no two bodies are equal: it is what a module whose every function has a structure of its
 * own costs, every method keeping its own body, javac compiling each (and, without the processor,
 * compiling the records too).
 */
public final class ProcessingTime {

  private ProcessingTime() {}

  /**
   * What to measure: module sizes and families, runs and warm-up rounds, cold or warm or both, and
   * the processor path.
   */
  private record Settings(
      List<Integer> sizes,
      List<String> families,
      int runs,
      int warmups,
      boolean cold,
      boolean warm,
      String path) {

    /** Sizes, {@code runs=n}, {@code family=f}, {@code mode=cold|warm|both}, {@code warmups=n}. */
    static Settings of(String[] args) throws URISyntaxException {
      List<Integer> sizes = new ArrayList<>();
      List<String> families = List.of("same", "dims", "own", "records");
      int runs = 3;
      int warmups = 5;
      String mode = "both";
      for (String arg : args) {
        String value = arg.substring(arg.indexOf('=') + 1);
        if (arg.startsWith("runs=")) {
          runs = Integer.parseInt(value);
        } else if (arg.startsWith("warmups=")) {
          warmups = Integer.parseInt(value);
        } else if (arg.startsWith("family=")) {
          families = List.of(value);
        } else if (arg.startsWith("mode=")) {
          if (!List.of("cold", "warm", "both").contains(value)) {
            throw new IllegalArgumentException(arg + ": mode=cold, mode=warm or mode=both");
          }
          mode = value;
        } else {
          sizes.add(Integer.parseInt(arg));
        }
      }
      boolean warm = !mode.equals("cold");
      if (warm && ToolProvider.getSystemJavaCompiler() == null) {
        throw new IllegalStateException(
            "the warm runs need a JDK (no system Java compiler in "
                + System.getProperty("java.home")
                + "); mode=cold runs only its bin/javac");
      }
      return new Settings(
          sizes.isEmpty() ? List.of(100, 1000, 3000) : sizes,
          families,
          runs,
          warmups,
          !mode.equals("warm"),
          warm,
          processorPath());
    }
  }

  /** Runs the benchmark; see {@link Settings#of} for the arguments. */
  public static void main(String[] args) throws Exception {
    Settings settings = Settings.of(args);
    System.out.printf(
        Locale.ROOT,
        "javac %s, %d runs each (median); wall, cpu: one javac process per compilation (cold); "
            + "warm: javax.tools in one JVM after %d warm-up rounds%n",
        System.getProperty("java.version"),
        settings.runs(),
        settings.warmups());
    System.out.printf(
        Locale.ROOT,
        "%7s %5s %10s %12s %14s %12s %16s %18s %18s%n",
        "module",
        "time",
        "functions",
        "javac ms",
        "+processor ms",
        "over ms",
        "over ms/function",
        "floor over ms",
        "proc:only over ms");
    for (String family : settings.families()) {
      for (int n : settings.sizes()) {
        measure(family, n, settings);
      }
    }
  }

  /**
   * The processor path a build gives javac: the code sources (jars, or class directories) of the
   * processor and its runtime dependencies.
   */
  private static String processorPath() throws URISyntaxException {
    List<String> path = new ArrayList<>();
    for (Class<?> type :
        List.of(
            IreeStubsProcessor.class,
            FunctionSignature.class,
            ClientDeriver.class,
            IreeModule.class,
            ClassName.class)) {
      path.add(location(type));
    }
    return String.join(File.pathSeparator, path);
  }

  /** Where {@code type} was loaded from: its jar, or its class directory. */
  private static String location(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** The rows of a module of {@code family} and size {@code n}. */
  private static void measure(String family, int n, Settings settings) throws Exception {
    Path dir = Files.createTempDirectory("iree-processing-" + n);
    try {
      Module module = Module.of(n, family);
      Files.writeString(dir.resolve("big.abi.json"), module.json(), StandardCharsets.UTF_8);
      Path sources = dir.resolve("src/bench");
      Files.createDirectories(sources);
      Files.writeString(sources.resolve("Big.java"), module.source(), StandardCharsets.UTF_8);
      Files.writeString(sources.resolve("Floor.java"), module.floor(), StandardCharsets.UTF_8);
      try {
        if (settings.cold()) {
          long[][][] cold = cold(dir, settings);
          row(family, "wall", n, cold[0]);
          if (childCpuMillis() >= 0) {
            row(family, "cpu", n, cold[1]);
          }
        }
        if (settings.warm()) {
          row(family, "warm", n, warm(dir, settings));
        }
      } catch (IllegalStateException e) {
        System.out.printf(
            Locale.ROOT, "%7s %10d  %s%n", family, n, e.getMessage().lines().limit(3).toList());
      }
    } finally {
      Compilations.deleteTree(dir);
    }
  }

  /**
   * The cold runs: each compilation in a fresh javac process; wall times and CPU times in
   * milliseconds, per compilation and run.
   */
  private static long[][][] cold(Path dir, Settings settings)
      throws IOException, InterruptedException {
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    long[][] wall = new long[Compilations.MODES][settings.runs()];
    long[][] cpu = new long[Compilations.MODES][settings.runs()];
    for (int r = 0; r < settings.runs(); r++) {
      for (int mode = 0; mode < Compilations.MODES; mode++) {
        Compilations.clean(dir, mode);
        List<String> command = new ArrayList<>(List.of(javac.toString()));
        command.addAll(Compilations.arguments(dir, settings.path(), mode));
        long before = childCpuMillis();
        long start = System.nanoTime();
        Result result = run(command);
        wall[mode][r] = (System.nanoTime() - start) / 1_000_000;
        cpu[mode][r] = childCpuMillis() - before;
        if (result.status() != 0) {
          throw new IllegalStateException(
              "javac failed (" + result.status() + "):\n" + result.output());
        }
      }
    }
    return new long[][][] {wall, cpu};
  }

  /**
   * The warm runs, in a JVM of their own whose class path is only {@link Compilations}' code source
   * (so that javac loads the processor from the processor path in each compilation, see there):
   * wall times in milliseconds, per compilation and run.
   */
  private static long[][] warm(Path dir, Settings settings)
      throws IOException, InterruptedException, URISyntaxException {
    Result result =
        run(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                location(Compilations.class),
                Compilations.class.getName(),
                dir.toString(),
                settings.path(),
                Integer.toString(settings.runs()),
                Integer.toString(settings.warmups())));
    if (result.status() != 0) {
      throw new IllegalStateException(
          "warm runs failed (" + result.status() + "): " + result.output());
    }
    Path times = dir.resolve("warm.txt");
    return Files.readAllLines(times).stream()
        .map(line -> Arrays.stream(line.split(" ")).mapToLong(Long::parseLong).toArray())
        .toArray(long[][]::new);
  }

  /** A finished process: its exit status and its output (standard output and error). */
  private record Result(int status, String output) {}

  /** Runs {@code command} to its end. */
  private static Result run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = p.getInputStream().readAllBytes();
    return new Result(p.waitFor(), new String(output, StandardCharsets.UTF_8));
  }

  /**
   * One row: medians of javac alone, with the processor, with the trivial class, and with the
   * processor alone.
   */
  private static void row(String family, String time, int n, long[][] millis) {
    double base = median(millis[0]);
    double with = median(millis[1]);
    System.out.printf(
        Locale.ROOT,
        "%7s %5s %10d %12.0f %14.0f %12.0f %16.3f %18.0f %18.0f%n",
        family,
        time,
        n,
        base,
        with,
        with - base,
        (with - base) / n,
        median(millis[2]) - base,
        median(millis[3]) - base);
  }

  /**
   * The CPU time (user and system) of this process's waited-for children so far, in milliseconds,
   * from fields 16 and 17 of {@code /proc/self/stat} (in clock ticks, 100 a second on Linux); -1
   * where there is no such file.
   */
  private static long childCpuMillis() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
      // Fields after the command name, which is in parentheses and may hold spaces.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
      // f[0] is field 3 (state), so field k is f[k - 3].
      return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
  }

  /** A method that does nothing but throw: the least code a stub's method can be. */
  private static String trivial(String declaration) {
    return "  public " + declaration + " {\n    throw new UnsupportedOperationException();\n  }\n";
  }

  /**
   * An interface of N functions, its module file, and the floor: a class implementing the interface
   * by methods that only throw; function i has structure i % 5, in {@code family} {@code dims} with
   * static dimensions of its own, in {@code own} with parameters named for it, in {@code records}
   * structure 1 or 4 (i % 2) with records of its own.
   */
  private record Module(String json, String source, String floor) {
    static Module of(int n, String family) {
      StringBuilder json = new StringBuilder("{");
      StringBuilder java = new StringBuilder();
      StringBuilder floor = new StringBuilder();
      floor
          .append("package bench;\n")
          .append("import dev.ireestubs.ndarray.*;\n")
          .append("import java.util.List;\n")
          .append("final class Floor implements Big {\n");
      java.append("package bench;\n")
          .append("import dev.ireestubs.annotations.*;\n")
          .append("import dev.ireestubs.ndarray.*;\n")
          .append("import java.util.List;\n")
          .append("@IreeModule(name = \"big\", abi = \"big.abi.json\")\n")
          .append("public interface Big {\n")
          .append("  record In(FloatArray image, int label) {}\n")
          .append("  record Out(FloatArray logits, FloatArray probs) {}\n")
          .append("  record Pair(long count, double[][] grid) {}\n");
      for (int i = 0; i < n; i++) {
        String f = "f" + i;
        int d = family.equals("dims") ? i : 0; // added to a static dimension of each array
        // Parameters named for the function: paths (and messages) of its own, no sharing.
        String p = family.equals("own") ? Integer.toString(i) : "";
        // Records of the function's own: every body its own, none shared.
        boolean own = family.equals("records");
        String r = own ? Integer.toString(i) : "";
        if (own) {
          java.append("  record In" + r + "(FloatArray image, int label) {}\n")
              .append("  record Out" + r + "(FloatArray logits, FloatArray probs) {}\n")
              .append("  record Pair" + r + "(long count, double[][] grid) {}\n");
        }
        json.append(i == 0 ? "" : ",").append('"').append(f).append("\":");
        switch (own ? (i % 2 == 0 ? 1 : 4) : i % 5) {
          case 0 -> {
            json.append("{\"a\":[[\"ndarray\",\"f32\",2,1,null]],\"r\":[[\"ndarray\",\"f32\",2,1,")
                .append(4 + d)
                .append("]]}");
            java.append("  FloatArray ").append(f).append("(FloatArray x" + p + ");\n");
            floor.append(trivial("FloatArray " + f + "(FloatArray x" + p + ")"));
          }
          case 1 -> {
            json.append(
                "{\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",3,1,2,"
                    + (2 + d)
                    + "]],"
                    + "[\"label\",\"i32\"]]],"
                    + "\"r\":[[\"sdict\",[\"logits\",[\"ndarray\",\"f32\",2,1,"
                    + (3 + d)
                    + "]],"
                    + "[\"probs\",[\"ndarray\",\"f32\",2,1,3]]]]}");
            java.append("  Out" + r + " ").append(f).append("(In" + r + " in" + p + ");\n");
            floor.append(trivial("Out" + r + " " + f + "(In" + r + " in" + p + ")"));
          }
          case 2 -> {
            json.append("{\"a\":[\"i32\",\"i64\"],\"r\":[\"i32\"]}");
            java.append("  int ").append(f).append("(int a" + p + ", long b" + p + ");\n");
            floor.append(trivial("int " + f + "(int a" + p + ", long b" + p + ")"));
          }
          case 3 -> {
            json.append(
                "{\"a\":[[\"py_homogeneous_list\",[\"ndarray\",\"f32\",1,"
                    + (2 + d)
                    + "]]],"
                    + "\"r\":[[\"py_homogeneous_list\",\"f32\"]]}");
            java.append("  List<Float> ").append(f).append("(List<FloatArray> xs" + p + ");\n");
            floor.append(trivial("List<Float> " + f + "(List<FloatArray> xs" + p + ")"));
          }
          default -> {
            json.append("{\"a\":[[\"ndarray\",\"f64\",2,2,")
                .append(2 + d)
                .append("]],\"r\":[\"i64\",[\"ndarray\",\"f64\",2,2,")
                .append(2 + d)
                .append("]]}");
            java.append("  Pair" + r + " ").append(f).append("(double[][] m" + p + ");\n");
            floor.append(trivial("Pair" + r + " " + f + "(double[][] m" + p + ")"));
          }
        }
      }
      json.append('}');
      java.append("}\n");
      floor.append("}\n");
      return new Module(json.toString(), java.toString(), floor.toString());
    }
  }
}
