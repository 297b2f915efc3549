package dev.ireestubs.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * How much the annotation processor adds to a compilation, by module size: an {@code @IreeModule}
 * interface of N functions (a mix of arrays, records over sdicts, scalars, lists and Java arrays,
 * with its {@code iree.abi} JSON module file) is compiled with the processor and, for comparison,
 * without it ({@code -proc:none}); the difference is what processing (binding, writing the stub
 * and compiling it) costs.
 *
 * <p>Each compilation runs in a fresh {@code javac} process, as a build's first compilation does
 * (cold: no JIT warm-up); the median of the runs is reported. Run it with
 *
 * <pre>
 * mvn -q -pl benchmarks -am package -DskipTests exec:exec@processing-time
 * </pre>
 *
 * <p>({@code -Dprocessing.args="100 1000 3000 runs=5"} sets the sizes and runs.) It prints one
 * row per size: javac alone, javac with the processor, the difference, and the difference per
 * function (the growth is linear when that column stays flat), and the floor: what javac adds to
 * compile, beside the interface, a class implementing it by methods that only throw, which any
 * stub must at least cost, and what the processor alone adds ({@code -proc:only}: the stub written
 * and its source parsed, not compiled), which splits the cost between the processor's work and
 * javac's compiling the stub. Wall time is what a build waits; on Linux a second row gives the CPU
 * time the javac processes used (user and system, their JIT and GC threads included, read from
 * {@code /proc/self/stat} as the time of waited-for children), which a busy machine inflates far
 * less than wall time.
 *
 * <p>Three families of modules are measured ({@code family=same}, {@code dims} or {@code own}
 * runs one): in each, function i has one of five structures (i % 5). In {@code same} the functions
 * of one structure are equal but for their names; in {@code dims} every function has static
 * dimensions of its own (derived from i); in {@code own} every function's parameters are named for
 * it. The stub gives methods whose bodies are equal but for their function, its name and their
 * descriptor constants one shared body, so {@code same} and {@code dims} cost javac about five
 * bodies ({@code dims} shows that other dimensions, passed as constants, still share). In {@code
 * own} each body names its own parameters in its code and messages, so no two are equal: it is
 * what a module whose every function has a structure of its own costs, every method keeping its
 * own body, javac compiling each.
 */
public final class ProcessingTime {

  private ProcessingTime() {}

  /** Runs the benchmark: sizes, and {@code runs=n}. */
  public static void main(String[] args) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    int runs = 3;
    List<String> families = List.of("same", "dims", "own");
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("runs=")) {
        runs = Integer.parseInt(args[i].substring("runs=".length()));
      } else if (args[i].startsWith("family=")) {
        families = List.of(args[i].substring("family=".length()));
      } else {
        sizes.add(Integer.parseInt(args[i]));
      }
    }
    if (sizes.isEmpty()) {
      sizes = List.of(100, 1000, 3000);
    }
    String classPath = System.getProperty("java.class.path");
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    System.out.printf(
        Locale.ROOT,
        "javac %s, %d runs each (median), cold (one javac process per compilation)%n",
        System.getProperty("java.version"),
        runs);
    System.out.printf(
        Locale.ROOT,
        "%6s %5s %10s %12s %14s %12s %16s %18s %18s%n",
        "module",
        "time",
        "functions",
        "javac ms",
        "+processor ms",
        "over ms",
        "over ms/function",
        "floor over ms",
        "proc:only over ms");
    for (String family : families) {
      for (int n : sizes) {
        measure(family, n, runs, javac, classPath);
      }
    }
  }

  /** One row of wall time and one of CPU time for a module of {@code family} and size {@code n}. */
  private static void measure(String family, int n, int runs, Path javac, String classPath)
      throws Exception {
    Path dir = Files.createTempDirectory("iree-processing-" + n);
    try {
      Module module = Module.of(n, family);
      Files.writeString(dir.resolve("big.abi.json"), module.json(), StandardCharsets.UTF_8);
      Path source = dir.resolve("src/bench/Big.java");
      Files.createDirectories(source.getParent());
      Files.writeString(source, module.source(), StandardCharsets.UTF_8);
      Path floor = dir.resolve("src/bench/Floor.java");
      Files.writeString(floor, module.floor(), StandardCharsets.UTF_8);
      long[][] wall = new long[4][runs];
      long[][] cpu = new long[4][runs];
      try {
        for (int r = 0; r < runs; r++) {
          for (int mode = 0; mode < 4; mode++) {
            long before = childCpuMillis();
            // 0: javac alone, 1: with the processor, 2: the floor class, 3: the processor alone.
            List<Path> sources = mode == 2 ? List.of(source, floor) : List.of(source);
            int processing = mode == 1 ? FULL : mode == 3 ? ONLY : NONE;
            wall[mode][r] = compile(javac, classPath, dir, sources, processing);
            cpu[mode][r] = childCpuMillis() - before;
          }
        }
      } catch (IllegalStateException e) {
        System.out.printf(
            Locale.ROOT, "%6s %10d  %s%n", family, n, e.getMessage().lines().limit(3).toList());
        return;
      }
      row(family, "wall", n, wall);
      if (childCpuMillis() >= 0) {
        row(family, "cpu", n, cpu);
      }
    } finally {
      deleteTree(dir);
    }
  }

  /** No processor ({@code -proc:none}). */
  private static final int NONE = 0;

  /** The processor, and the stub compiled. */
  private static final int FULL = 1;

  /** The processor alone ({@code -proc:only}): the stub written, not compiled. */
  private static final int ONLY = 2;

  /**
   * One compilation of {@code sources} in a fresh javac process, without a processor, with it, or
   * with it alone ({@link #NONE}, {@link #FULL}, {@link #ONLY}); its wall time in milliseconds.
   */
  private static long compile(
      Path javac, String classPath, Path dir, List<Path> sources, int processing)
      throws IOException, InterruptedException {
    boolean process = processing != NONE;
    Path out = dir.resolve(process ? "out-processed" : "out-plain");
    deleteTree(out);
    Files.createDirectories(out);
    List<String> command = new ArrayList<>();
    command.add(javac.toString());
    command.addAll(List.of("-d", out.toString(), "-s", out.toString(), "-cp", classPath));
    if (processing == ONLY) {
      command.add("-proc:only");
    }
    if (process) {
      command.addAll(
          List.of(
              "-processorpath",
              classPath,
              "-processor",
              "dev.ireestubs.processor.IreeStubsProcessor",
              "-Airee.reflectionDir=" + dir));
    } else {
      command.add("-proc:none");
    }
    sources.forEach(p -> command.add(p.toString()));
    long start = System.nanoTime();
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = p.getInputStream().readAllBytes();
    int status = p.waitFor();
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (status != 0) {
      throw new IllegalStateException(
          "javac failed (" + status + "):\n" + new String(output, StandardCharsets.UTF_8));
    }
    return millis;
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
        "%6s %5s %10d %12.0f %14.0f %12.0f %16.3f %18.0f %18.0f%n",
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

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted((a, b) -> b.compareTo(a))
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }

  /** A method that does nothing but throw: the least code a stub's method can be. */
  private static String trivial(String declaration) {
    return "  public " + declaration + " {\n    throw new UnsupportedOperationException();\n  }\n";
  }

  /**
   * An interface of N functions, its module file, and the floor: a class implementing the
   * interface by methods that only throw; function i has structure i % 5, in {@code family}
   * {@code dims} with static dimensions of its own, in {@code own} with parameters named for it.
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
        json.append(i == 0 ? "" : ",").append('"').append(f).append("\":");
        switch (i % 5) {
          case 0:
            json.append("{\"a\":[[\"ndarray\",\"f32\",2,1,null]],\"r\":[[\"ndarray\",\"f32\",2,1,")
                .append(4 + d)
                .append("]]}");
            java.append("  FloatArray ").append(f).append("(FloatArray x" + p + ");\n");
            floor.append(trivial("FloatArray " + f + "(FloatArray x" + p + ")"));
            break;
          case 1:
            json.append(
                "{\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",3,1,2," + (2 + d) + "]],"
                    + "[\"label\",\"i32\"]]],"
                    + "\"r\":[[\"sdict\",[\"logits\",[\"ndarray\",\"f32\",2,1," + (3 + d) + "]],"
                    + "[\"probs\",[\"ndarray\",\"f32\",2,1,3]]]]}");
            java.append("  Out ").append(f).append("(In in" + p + ");\n");
            floor.append(trivial("Out " + f + "(In in" + p + ")"));
            break;
          case 2:
            json.append("{\"a\":[\"i32\",\"i64\"],\"r\":[\"i32\"]}");
            java.append("  int ").append(f).append("(int a" + p + ", long b" + p + ");\n");
            floor.append(trivial("int " + f + "(int a" + p + ", long b" + p + ")"));
            break;
          case 3:
            json.append(
                "{\"a\":[[\"py_homogeneous_list\",[\"ndarray\",\"f32\",1," + (2 + d) + "]]],"
                    + "\"r\":[[\"py_homogeneous_list\",\"f32\"]]}");
            java.append("  List<Float> ").append(f).append("(List<FloatArray> xs" + p + ");\n");
            floor.append(trivial("List<Float> " + f + "(List<FloatArray> xs" + p + ")"));
            break;
          default:
            json.append("{\"a\":[[\"ndarray\",\"f64\",2,2,")
                .append(2 + d)
                .append("]],\"r\":[\"i64\",[\"ndarray\",\"f64\",2,2,")
                .append(2 + d)
                .append("]]}");
            java.append("  Pair ").append(f).append("(double[][] m" + p + ");\n");
            floor.append(trivial("Pair " + f + "(double[][] m" + p + ")"));
            break;
        }
      }
      json.append('}');
      java.append("}\n");
      floor.append("}\n");
      return new Module(json.toString(), java.toString(), floor.toString());
    }
  }
}
