package dev.ireestubs.derive;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.JavaFileObject.Kind;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Identifiers from metadata, the name allocator, and literals and comments that stay intact. */
class JavaNamesTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "add, add",
    "simple_mul, simple_mul",
    "_private, _private",
    "main$async, mainAsync",
    "simple_mul$async, simpleMulAsync",
    "serving_default:0, servingDefault0",
    "input:0, input0",
    "my.name, myName",
    "3d-conv, _3dConv",
    "class, class_",
    "true, true_",
    "_, fallback",
    "'', fallback",
    "$$$, fallback",
    "größe, größe",
    "a b, aB",
  })
  void memberName(String raw, String expected) {
    assertThat(JavaNames.memberName(raw, "fallback")).isEqualTo(expected);
    assertThat(JavaNames.isJavaName(JavaNames.memberName(raw, "fallback"))).isTrue();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "module, Module",
    "class_ids, ClassIds",
    "features, Features",
    "mainAsync_result, MainAsyncResult",
    "sdxl_compiled_pipeline, SdxlCompiledPipeline",
    "boxes:0, Boxes0",
    "3d, Fallback3d",
    "'', Fallback",
    "__, Fallback",
  })
  void typeName(String raw, String expected) {
    assertThat(JavaNames.typeName(raw, "Fallback")).isEqualTo(expected);
  }

  @Test
  void allocatorNumbersCollisionsAndSkipsReservedNames() {
    NameAllocator names = new NameAllocator().reserve("hashCode");
    assertThat(names.allocate("run")).isEqualTo("run");
    assertThat(names.allocate("run")).isEqualTo("run2");
    assertThat(names.allocate("run2")).isEqualTo("run2_2");
    assertThat(names.allocate("run")).isEqualTo("run3");
    assertThat(names.allocate("hashCode")).isEqualTo("hashCode2");
    assertThat(names.allocate("input0")).isEqualTo("input0");
    assertThat(names.allocate("input0")).isEqualTo("input0_2");
    assertThat(names.isTaken("input0_2")).isTrue();
    assertThat(names.isTaken("input1")).isFalse();
  }

  @Test
  void stringLiteralsAreAsciiAndOneToken() {
    assertThat(JavaNames.stringLiteral("plain")).isEqualTo("\"plain\"");
    assertThat(JavaNames.stringLiteral("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
    assertThat(JavaNames.stringLiteral("line\nbreak\t\u0001"))
        .isEqualTo("\"line\\nbreak\\t\\001\"");
    assertThat(JavaNames.stringLiteral("größe")).isEqualTo("\"gr\\u00f6\\u00dfe\"");
  }

  @Test
  void literalsAndCommentsSurviveTheCompiler() throws IOException {
    String hostile = "a\"b\\u000a c\n*/ \\\\u0022 ü \u2028";
    String source =
        "// "
            + JavaNames.commentText(hostile)
            + "\n"
            + "public interface Hostile {\n"
            + "  String VALUE = "
            + JavaNames.stringLiteral(hostile)
            + ";\n"
            + "}\n";
    assertCompiles("Hostile", source);
    assertThat(JavaNames.commentText(hostile)).doesNotContain("\n");
    assertThat(JavaNames.commentText("x\\u000ay")).isEqualTo("x\\\\u000ay");
  }

  /** Compiles {@code source} (public type {@code name}) with the system compiler, or fails. */
  private static void assertCompiles(String name, String source) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    JavaFileObject file =
        new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    Path out = Files.createTempDirectory("java-names");
    try {
      boolean ok =
          javac
              .getTask(null, null, diagnostics, List.of("-d", out.toString()), null, List.of(file))
              .call();
      assertThat(diagnostics.getDiagnostics()).isEmpty();
      assertThat(ok).isTrue();
    } finally {
      try (Stream<Path> files = Files.walk(out)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
