package dev.ireestubs.cli;

import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.derive.*;
import dev.ireestubs.processor.IreeStubsProcessor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles a suggested interface with the system Java compiler against the test class path (the
 * annotations, the runtime and, when asked, the iree-stubs processor, which then checks every
 * method against its signature and generates the stub).
 */
final class Javac {
  private Javac() {}

  /** The package tests put suggestions in (users paste them into theirs). */
  static final String PACKAGE = "suggested";

  /**
   * Compiles {@code source} (without a package line; {@link #PACKAGE} is added) as {@code
   * interfaceName}, and returns every error and warning, one per line; empty when it compiled
   * cleanly.
   */
  static List<String> problems(String interfaceName, String source, boolean withProcessor) {
    return problems(
        PACKAGE, interfaceName, "package " + PACKAGE + ";\n\n" + source, withProcessor, List.of());
  }

  /**
   * Compiles the whole compilation unit {@code text} of {@code packageName.interfaceName} with the
   * processor and {@code extraOptions}; every error and warning, one per line.
   */
  static List<String> problemsOfFile(
      String packageName, String interfaceName, String text, List<String> extraOptions) {
    return problems(packageName, interfaceName, text, true, extraOptions);
  }

  private static List<String> problems(
      String packageName,
      String interfaceName,
      String text,
      boolean withProcessor,
      List<String> extraOptions) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertWithMessage("the system Java compiler (tests need a JDK)").that(javac).isNotNull();
    Path out = null;
    try {
      out = Files.createTempDirectory("iree-stubs-cli-javac");
      Path classes = Files.createDirectories(out.resolve("classes"));
      Path generated = Files.createDirectories(out.resolve("generated"));
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      try (StandardJavaFileManager files =
          javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
        List<String> options = new ArrayList<>();
        options.add("-classpath");
        options.add(System.getProperty("java.class.path"));
        options.add("-d");
        options.add(classes.toString());
        options.add("-s");
        options.add(generated.toString());
        if (!withProcessor) {
          options.add("-proc:none");
        }
        options.addAll(extraOptions);
        JavaCompiler.CompilationTask task =
            javac.getTask(
                null,
                files,
                diagnostics,
                options,
                null,
                List.of(new Source(packageName, interfaceName, text)));
        if (withProcessor) {
          task.setProcessors(List.of(new IreeStubsProcessor()));
        }
        task.call();
        return diagnostics.getDiagnostics().stream()
            .filter(d -> d.getKind() != Diagnostic.Kind.NOTE)
            .map(Javac::format)
            .collect(Collectors.toList());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (out != null) {
        delete(out);
      }
    }
  }

  /** Asserts that {@code source} compiles without errors or warnings. */
  static void assertCompiles(String interfaceName, String source, boolean withProcessor) {
    List<String> problems = problems(interfaceName, source, withProcessor);
    assertWithMessage(
            "compiling%s:\n%s\nproblems", withProcessor ? " with the processor" : "", source)
        .that(problems)
        .isEmpty();
  }

  private static String format(Diagnostic<? extends JavaFileObject> d) {
    return d.getKind() + " line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT);
  }

  private static void delete(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An in-memory source file. */
  private static final class Source extends SimpleJavaFileObject {
    private final String text;

    Source(String packageName, String simpleName, String text) {
      super(
          URI.create("string:///" + packageName.replace('.', '/') + "/" + simpleName + ".java"),
          Kind.SOURCE);
      this.text = text;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return text;
    }
  }
}
