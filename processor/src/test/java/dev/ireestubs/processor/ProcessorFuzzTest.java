package dev.ireestubs.processor;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.processor.InterfaceSource.Perturbation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Fuzz target that drives the annotation processor over mutated {@code iree.abi} reflection, the
 * way a build would: an interface is written for the reflection (by the conformance tests' {@link
 * InterfaceSource}, with the deliberate mistake the input picks) and compiled with the processor.
 *
 * <p>An input is bytes: the first chooses the mistake ({@link Perturbation}, low three bits), the
 * Java form of structures (bit 3) and the function's name (high bits, from {@link #NAMES}); the
 * rest is the reflection text. Text that does not parse is passed as it is, and must be reported as
 * {@code [IreeBadReflection]}.
 *
 * <p>The contract: no exception leaves javac (the processor reports its own failures), and the
 * compilation either succeeds, so the generated stub compiles, or fails with errors that are all
 * tagged {@code [Iree...]} (never {@code [IreeInternalError]}) and all sit in the interface, not in
 * generated code. An input whose interface is not valid Java even without the processor (the writer
 * cannot express every key as Java) is skipped.
 */
class ProcessorFuzzTest {

  /** Function names the input may choose: ordinary, Java keywords, object methods, odd text. */
  static final List<String> NAMES =
      List.of(
          "predict",
          "main$async",
          "class",
          "hashCode",
          "__init",
          "serving default",
          "f",
          "toString",
          "\u00e9t\u00e9",
          "wait",
          "a.b",
          "",
          "Iree_X",
          "getClass",
          "_",
          "0day");

  private static final Path REFLECTION_DIR = tempDir();

  @FuzzTest
  @DictionaryEntries({
    "{\"a\":[", "],\"r\":[", "]}", "\"ndarray\"", "\"sdict\"", "\"slist\"", "\"stuple\"",
    "\"named\"", "\"py_homogeneous_list\"", "\"i32\"", "\"f32\"", "\"i1\"", "\"f16\"", "\"i64\"",
    "null", "\"unknown\"", "\"class\"", "\"hash_code\""
  })
  void reflection(byte[] data) {
    if (data.length == 0) {
      return;
    }
    int options = data[0] & 0xFF;
    String text = new String(data, 1, data.length - 1, StandardCharsets.UTF_8);
    String function = NAMES.get(options >>> 4);
    boolean alternate = (options & 8) != 0;
    JavaFileObject source;
    String sourceText;
    try {
      FunctionSignature signature = AbiJson.parseFunction(text);
      List<Perturbation> choices = InterfaceSource.perturbationsFor(signature);
      choices.add(0, Perturbation.NONE);
      Perturbation perturbation = choices.get((options & 7) % choices.size());
      InterfaceSource.Generated g =
          InterfaceSource.generate(
              "Fuzzed", function, AbiJson.print(signature), signature, perturbation, alternate);
      source = g.file();
      sourceText = g.text();
    } catch (AbiParseException e) {
      sourceText =
          "package test;\n"
              + ProcessorTester.IMPORTS
              + "\n@IreeModule interface Fuzzed {\n  @IreeFunction(value = \"f\", abi = "
              + javaLiteral(text)
              + ")\n  void f();\n}\n";
      source = JavaFileObjects.forSourceString("test.Fuzzed", sourceText);
    }
    check(source, sourceText);
  }

  private static void check(JavaFileObject source, String sourceText) {
    Compilation c;
    try {
      c = new ProcessorTester(REFLECTION_DIR).compile(source);
    } catch (RuntimeException e) {
      throw new AssertionError("an exception escaped into javac for\n" + sourceText, e);
    }
    List<Diagnostic<? extends JavaFileObject>> errors =
        c.diagnostics().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
            .collect(Collectors.toList());
    List<String> wrong = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : errors) {
      String message = d.getMessage(null);
      boolean inInterface =
          d.getSource() != null && d.getSource().getName().endsWith("/Fuzzed.java");
      boolean tagged = message.startsWith("[Iree") && !message.startsWith("[IreeInternalError]");
      if (!inInterface || !tagged) {
        wrong.add(ProcessorTester.format(d));
      }
    }
    if (wrong.isEmpty()) {
      return;
    }
    if (Compiler.javac().compile(source).status() == Compilation.Status.FAILURE) {
      return; // the writer could not express this reflection as Java; nothing to say about it
    }
    throw new AssertionError(
        "untagged errors, or errors in generated code:\n"
            + String.join("\n", wrong)
            + "\nfor the interface\n"
            + sourceText
            + "\nall diagnostics:\n"
            + ProcessorTester.diagnostics(c));
  }

  /** A Java string literal of any text: quotes, backslashes and control characters escaped. */
  static String javaLiteral(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        sb.append(String.format("\\%03o", (int) c)); // three digits: a digit after it stays text
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  private static Path tempDir() {
    try {
      Path dir = Files.createTempDirectory("iree-processor-fuzz");
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
