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
 * function; the growth is linear when the last column stays flat.
 */
public final class ProcessingTime {

  private ProcessingTime() {}

  /** Runs the benchmark: sizes, and {@code runs=n}. */
  public static void main(String[] args) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    int runs = 3;
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("runs=")) {
        runs = Integer.parseInt(args[i].substring("runs=".length()));
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
        "%10s %12s %14s %12s %16s%n",
        "functions",
        "javac ms",
        "+processor ms",
        "over ms",
        "over ms/function");
    for (int n : sizes) {
      Path dir = Files.createTempDirectory("iree-processing-" + n);
      try {
        Module module = Module.of(n);
        Files.writeString(dir.resolve("big.abi.json"), module.json(), StandardCharsets.UTF_8);
        Path source = dir.resolve("src/bench/Big.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, module.source(), StandardCharsets.UTF_8);
        long[] plain = new long[runs];
        long[] processed = new long[runs];
        try {
          for (int r = 0; r < runs; r++) {
            plain[r] = compile(javac, classPath, dir, source, false);
            processed[r] = compile(javac, classPath, dir, source, true);
          }
        } catch (IllegalStateException e) {
          System.out.printf(Locale.ROOT, "%10d  %s%n", n, e.getMessage().lines().limit(3).toList());
          continue;
        }
        double base = median(plain);
        double with = median(processed);
        System.out.printf(
            Locale.ROOT,
            "%10d %12.0f %14.0f %12.0f %16.3f%n",
            n,
            base,
            with,
            with - base,
            (with - base) / n);
      } finally {
        deleteTree(dir);
      }
    }
  }

  /** One compilation in a fresh javac process; its wall time in milliseconds. */
  private static long compile(Path javac, String classPath, Path dir, Path source, boolean process)
      throws IOException, InterruptedException {
    Path out = dir.resolve(process ? "out-processed" : "out-plain");
    deleteTree(out);
    Files.createDirectories(out);
    List<String> command = new ArrayList<>();
    command.add(javac.toString());
    command.addAll(List.of("-d", out.toString(), "-s", out.toString(), "-cp", classPath));
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
    command.add(source.toString());
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

  /** An interface of N functions and its module file; function i has shape i % 5. */
  private record Module(String json, String source) {
    static Module of(int n) {
      StringBuilder json = new StringBuilder("{");
      StringBuilder java = new StringBuilder();
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
        json.append(i == 0 ? "" : ",").append('"').append(f).append("\":");
        switch (i % 5) {
          case 0:
            json.append("{\"a\":[[\"ndarray\",\"f32\",2,1,null]],\"r\":[[\"ndarray\",\"f32\",2,1,4]]}");
            java.append("  FloatArray ").append(f).append("(FloatArray x);\n");
            break;
          case 1:
            json.append(
                "{\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",3,1,2,2]],[\"label\",\"i32\"]]],"
                    + "\"r\":[[\"sdict\",[\"logits\",[\"ndarray\",\"f32\",2,1,3]],"
                    + "[\"probs\",[\"ndarray\",\"f32\",2,1,3]]]]}");
            java.append("  Out ").append(f).append("(In in);\n");
            break;
          case 2:
            json.append("{\"a\":[\"i32\",\"i64\"],\"r\":[\"i32\"]}");
            java.append("  int ").append(f).append("(int a, long b);\n");
            break;
          case 3:
            json.append(
                "{\"a\":[[\"py_homogeneous_list\",[\"ndarray\",\"f32\",1,2]]],"
                    + "\"r\":[[\"py_homogeneous_list\",\"f32\"]]}");
            java.append("  List<Float> ").append(f).append("(List<FloatArray> xs);\n");
            break;
          default:
            json.append("{\"a\":[[\"ndarray\",\"f64\",2,2,2]],\"r\":[\"i64\",[\"ndarray\",\"f64\",2,2,2]]}");
            java.append("  Pair ").append(f).append("(double[][] m);\n");
            break;
        }
      }
      json.append('}');
      java.append("}\n");
      return new Module(json.toString(), java.toString());
    }
  }
}
