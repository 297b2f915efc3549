package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.writing.StubWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import javax.annotation.processing.Processor;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;

/**
 * Compiles test sources with the processor, capturing the models it would hand to the writer.
 * Module reflection files go in a directory passed with {@code -Airee.reflectionDir}.
 */
public final class ProcessorTester {

  /** Imports every test interface starts with. */
  public static final String IMPORTS =
      "import dev.ireestubs.annotations.*; import dev.ireestubs.ndarray.*;"
          + " import dev.ireestubs.vm.*; import java.util.List;";

  public final Path reflectionDir;
  public final List<StubModel> models = new ArrayList<>();
  private final List<String> options = new ArrayList<>();

  public ProcessorTester(Path reflectionDir) {
    this.reflectionDir = reflectionDir;
  }

  /** JSON written with single quotes for readability: {@code {'a':['i32']}}. */
  public static String json(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }

  /** A Java string literal of {@code text}, e.g. for {@code @IreeFunction(abi = ...)}. */
  public static String lit(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** Writes a reflection file (JSON with single quotes) into the reflection directory. */
  public ProcessorTester file(String name, String singleQuotedJson) {
    write(reflectionDir.resolve(name), json(singleQuotedJson));
    return this;
  }

  public ProcessorTester option(String... extra) {
    options.addAll(Arrays.asList(extra));
    return this;
  }

  public static void write(Path p, String text) {
    try {
      Files.createDirectories(p.getParent());
      Files.writeString(p, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A source file {@code test/<name>.java} with the given lines after the package and imports. */
  public static JavaFileObject source(String name, String... lines) {
    List<String> all = new ArrayList<>();
    all.add("package test;");
    all.add(IMPORTS);
    all.addAll(Arrays.asList(lines));
    return JavaFileObjects.forSourceLines("test." + name, all);
  }

  public Compilation compile(JavaFileObject... sources) {
    models.clear();
    return compileWith(
        List.of(
            new IreeStubsProcessor(
                (model, filer) -> {
                  // Capture the model, and write the stub so that it must compile too.
                  models.add(model);
                  new StubWriter(IreeStubsProcessor.class.getName()).write(model, filer);
                })),
        sources);
  }

  /**
   * The processor, capturing the models it would hand to the writer and writing no stub: for a
   * compilation with other processors ({@link #compileWith}).
   */
  public Processor capturing() {
    return new IreeStubsProcessor((model, out) -> models.add(model));
  }

  /**
   * Compiles with {@code processors} (a processor built for the test) and this tester's options.
   */
  public Compilation compileWith(List<? extends Processor> processors, JavaFileObject... sources) {
    List<String> all = new ArrayList<>(options);
    all.add("-A" + IreeStubsProcessor.REFLECTION_DIR_OPTION + "=" + reflectionDir);
    return Compiler.javac().withProcessors(processors).withOptions(all).compile(sources);
  }

  /** Compiles and asserts no errors, showing every diagnostic if there were any. */
  public Compilation compileClean(JavaFileObject... sources) {
    Compilation c = compile(sources);
    assertWithMessage("diagnostics:\n%s", diagnostics(c))
        .that(c.status())
        .isEqualTo(Compilation.Status.SUCCESS);
    return c;
  }

  /** The text of the source file {@code test/NAME.java} that {@code c} generated. */
  public static String generatedSource(Compilation c, String name) {
    try {
      return c.generatedFile(StandardLocation.SOURCE_OUTPUT, "test", name + ".java")
          .orElseThrow(() -> new AssertionError("no generated test/" + name + ".java"))
          .getCharContent(false)
          .toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Asserts that {@code actual} equals the golden file {@code src/test/resources/golden/NAME}; with
   * {@code -Dgolden.update=true}, first rewrites the file.
   */
  public static void assertGolden(String actual, String name) throws IOException {
    Path golden = Path.of("src/test/resources/golden", name);
    if (Boolean.getBoolean("golden.update")) {
      Files.createDirectories(golden.getParent());
      Files.writeString(golden, actual, StandardCharsets.UTF_8);
    }
    assertThat(actual).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
  }

  public static String diagnostics(Compilation c) {
    return c.diagnostics().stream().map(ProcessorTester::format).collect(Collectors.joining("\n"));
  }

  public static String format(Diagnostic<? extends JavaFileObject> d) {
    return d.getKind()
        + " "
        + (d.getSource() == null ? "-" : d.getSource().getName())
        + ":"
        + d.getLineNumber()
        + " "
        + d.getMessage(null);
  }

  /**
   * Compiles {@code sources} (without the processor) into class files under {@code classes}, and
   * puts that directory on the class path of later compilations: types from a library, with no
   * source.
   */
  public ProcessorTester library(Path classes, JavaFileObject... sources) {
    Compilation lib = Compiler.javac().compile(sources);
    assertWithMessage("library diagnostics:\n%s", diagnostics(lib))
        .that(lib.status())
        .isEqualTo(Compilation.Status.SUCCESS);
    try {
      for (JavaFileObject f : lib.generatedFiles()) {
        if (f.getKind() == JavaFileObject.Kind.CLASS) {
          Path out = classes.resolve(f.getName().replaceFirst("^/?CLASS_OUTPUT/", ""));
          Files.createDirectories(out.getParent());
          try (java.io.InputStream in = f.openInputStream()) {
            Files.copy(in, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return option(
        "-classpath", System.getProperty("java.class.path") + java.io.File.pathSeparator + classes);
  }

  /** The only model captured. */
  public StubModel model() {
    assertWithMessage("models").that(models).hasSize(1);
    return models.get(0);
  }

  /** The function model of {@code method} in the only model. */
  public CallPlan function(String method) {
    return model().functions().stream()
        .filter(f -> f.methodName().equals(method))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no function model for " + method));
  }
}
