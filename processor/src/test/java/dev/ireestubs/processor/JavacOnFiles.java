package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import javax.annotation.processing.Processor;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * javac over source files on disk, for what compile-testing's in-memory files cannot compile: a
 * {@code module-info.java} (javac takes an in-memory one for {@code java.base}'s).
 */
public final class JavacOnFiles {

  private JavacOnFiles() {}

  /**
   * Compiles {@code files} with {@code options} and {@code processor}, failing the test with
   * javac's diagnostics when the compilation fails.
   *
   * @param files the sources, a {@code module-info.java} among them for a named module
   * @param options javac's options, e.g. {@code --module-path}, {@code -d}, {@code -proc:only}
   * @param processor the annotation processor to run
   * @throws IOException when the file manager cannot be closed
   */
  public static void compile(List<File> files, List<String> options, Processor processor)
      throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fileManager =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      JavaCompiler.CompilationTask task =
          javac.getTask(
              null,
              fileManager,
              diagnostics,
              options,
              null,
              fileManager.getJavaFileObjectsFromFiles(files));
      task.setProcessors(List.of(processor));
      assertWithMessage(diagnostics.getDiagnostics().toString()).that(task.call()).isTrue();
    }
  }
}
