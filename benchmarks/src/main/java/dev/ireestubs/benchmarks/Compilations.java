package dev.ireestubs.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The four compilations {@link ProcessingTime} measures for a module, the same arguments for its
 * cold runs (a {@code javac} process each) and its warm ones; and, run as a program, the warm runs.
 *
 * <p>The compilations, in the order of a round ({@code mode} 0 to 3): the interface without a
 * processor ({@code -proc:none}); with the processor (the stub written and compiled); the interface
 * and the floor class without a processor; the processor alone ({@code -proc:only}: the stub
 * written and parsed, not compiled). A module's directory holds {@code src/bench/Big.java}, {@code
 * src/bench/Floor.java} and the module file {@code big.abi.json}.
 *
 * <p>As a program ({@code Compilations DIR PATH RUNS WARMUPS}) it compiles the module in {@code
 * DIR} with {@link ToolProvider#getSystemJavaCompiler()} in this JVM, as Maven's compiler plugin
 * (javac in-process) and Gradle's compiler daemon do from a build's second compilation on: {@code
 * WARMUPS} rounds of the four compilations untimed, then {@code RUNS} timed rounds; it writes to
 * {@code DIR/warm.txt} one line per compilation, its wall times in milliseconds, one per run (and
 * on a failure prints javac's messages and exits with status 1). {@code ProcessingTime} starts it
 * in a JVM of its own whose class path holds nothing but this class's code source: javac's module
 * is defined to the application class loader, which javac makes the parent of the processor path's
 * class loader, so a processor on this JVM's class path (as it is on the benchmarks') would be
 * loaded from there once and stay loaded and JIT-compiled across compilations. In a build it is not
 * (Maven's JVM has only its launcher on its class path, Gradle's daemon isolates the processor
 * path): each compilation loads the processor's classes anew, in a new class loader.
 */
final class Compilations {

  /** The compilations of a round. */
  static final int MODES = 4;

  private Compilations() {}

  /**
   * The arguments of compilation {@code mode} of the module in {@code dir}, {@code path} (the
   * processor and its dependencies) as both class path and processor path.
   */
  static List<String> arguments(Path dir, String path, int mode) {
    Path out = output(dir, mode);
    List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-s", out.toString()));
    args.addAll(List.of("-cp", path));
    if (mode == 1 || mode == 3) {
      if (mode == 3) {
        args.add("-proc:only");
      }
      args.addAll(
          List.of(
              "-processorpath",
              path,
              "-processor",
              "dev.ireestubs.processor.IreeStubsProcessor",
              "-Airee.reflectionDir=" + dir));
    } else {
      args.add("-proc:none");
    }
    Path sources = dir.resolve("src/bench");
    args.add(sources.resolve("Big.java").toString());
    if (mode == 2) {
      args.add(sources.resolve("Floor.java").toString());
    }
    return args;
  }

  /** The output directory of compilation {@code mode} (classes and generated sources). */
  static Path output(Path dir, int mode) {
    return dir.resolve(mode == 1 || mode == 3 ? "out-processed" : "out-plain");
  }

  /** Empties and creates the output directory of compilation {@code mode}. */
  static void clean(Path dir, int mode) throws IOException {
    Path out = output(dir, mode);
    deleteTree(out);
    Files.createDirectories(out);
  }

  /** Compilation {@code mode} in this JVM; its wall time in milliseconds. */
  private static long compile(JavaCompiler javac, Path dir, String path, int mode)
      throws IOException {
    clean(dir, mode);
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    String[] arguments = arguments(dir, path, mode).toArray(String[]::new);
    long start = System.nanoTime();
    int status = javac.run(null, log, log, arguments);
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (status != 0) {
      throw new IllegalStateException(
          "javac failed (" + status + "):\n" + log.toString(StandardCharsets.UTF_8));
    }
    return millis;
  }

  /** Deletes {@code dir} and all it holds, if it exists. */
  static void deleteTree(Path dir) throws IOException {
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

  /** The warm runs: {@code DIR PATH RUNS WARMUPS}; see the class comment. */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    String path = args[1];
    int runs = Integer.parseInt(args[2]);
    int warmups = Integer.parseInt(args[3]);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      System.out.println(
          "no system Java compiler in " + System.getProperty("java.home") + ": run on a JDK");
      System.exit(2);
    }
    long[][] millis = new long[MODES][runs];
    try {
      for (int r = -warmups; r < runs; r++) {
        for (int mode = 0; mode < MODES; mode++) {
          long elapsed = compile(javac, dir, path, mode);
          if (r >= 0) {
            millis[mode][r] = elapsed;
          }
        }
      }
    } catch (IllegalStateException e) {
      System.out.println(e.getMessage());
      System.exit(1);
    }
    List<String> lines = new ArrayList<>();
    for (long[] times : millis) {
      lines.add(Arrays.stream(times).mapToObj(Long::toString).collect(Collectors.joining(" ")));
    }
    Files.write(dir.resolve("warm.txt"), lines);
  }
}
