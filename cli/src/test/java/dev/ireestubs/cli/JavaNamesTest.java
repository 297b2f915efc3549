package dev.ireestubs.cli;

import dev.ireestubs.derive.*;
import static com.google.common.truth.Truth.assertThat;

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
    assertThat(JavaNames.stringLiteral("line\nbreak\t\u0001")).isEqualTo("\"line\\nbreak\\t\\001\"");
    assertThat(JavaNames.stringLiteral("größe")).isEqualTo("\"gr\\u00f6\\u00dfe\"");
  }

  @Test
  void literalsAndCommentsSurviveTheCompiler() {
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
    Javac.assertCompiles("Hostile", source, false);
    assertThat(JavaNames.commentText(hostile)).doesNotContain("\n");
    assertThat(JavaNames.commentText("x\\u000ay")).isEqualTo("x\\\\u000ay");
  }
}
