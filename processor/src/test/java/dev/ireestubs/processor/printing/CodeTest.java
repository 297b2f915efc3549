package dev.ireestubs.processor.printing;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.WildcardTypeName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Code}: its formats (JavaPoet's placeholders, parsed the way {@code CodeBlock} parses
 * them), its errors, and its text ({@link Code#toString()}: every type in full, as {@code
 * CodeBlock.toString()} writes them).
 */
class CodeTest {

  static final ClassName LIST = ClassName.get("java.util", "List");
  static final ClassName NDARRAY = ClassName.get("dev.ireestubs.abi", "AbiType", "NdArray");

  /** {@code format} with {@code args} reads the same as Code and as JavaPoet's CodeBlock. */
  private static void assertLikeJavaPoet(String expected, String format, Object... args) {
    String ours = Code.of(format, args).toString();
    assertThat(ours).isEqualTo(CodeBlock.of(format, args).toString());
    assertThat(ours).isEqualTo(expected);
  }

  @Test
  void nameIsThePlainNameTheCodeIsOrNull() {
    assertThat(Code.of("$N", "features").name()).isEqualTo("features");
    assertThat(Code.of("$N", "features").name())
        .isEqualTo(Code.of("$N", "features").toString()); // what isIdentifier(toString()) says
    assertThat(Code.of("$N.$N()", "features", "image").name()).isNull();
    assertThat(Code.of("$T", ClassName.get("", "Local")).name()).isNull();
    assertThat(Code.of("$S", "x").name()).isNull();
    assertThat(Code.empty().name()).isNull();
  }

  @Test
  void typePlaceholderWritesTheTypeInFull() {
    assertLikeJavaPoet("java.util.List x", "$T x", LIST);
    assertLikeJavaPoet("java.lang.String s", "$T s", ClassName.get(String.class));
    assertLikeJavaPoet("dev.ireestubs.abi.AbiType.NdArray a", "$T a", NDARRAY);
    assertLikeJavaPoet(
        "java.util.Map<java.lang.String, ? extends java.util.List<?>>[]",
        "$T",
        ArrayTypeName.of(
            ParameterizedTypeName.get(
                ClassName.get(Map.class),
                ClassName.get(String.class),
                WildcardTypeName.subtypeOf(
                    ParameterizedTypeName.get(LIST, WildcardTypeName.subtypeOf(Object.class))))));
    assertLikeJavaPoet(
        "? super java.lang.Integer", "$T", WildcardTypeName.supertypeOf(Integer.class));
    assertLikeJavaPoet("int[][] v", "$T v", ArrayTypeName.of(ArrayTypeName.of(TypeName.INT)));
    assertLikeJavaPoet("void", "$T", TypeName.VOID);
  }

  @Test
  void typePlaceholderTakesAClass() {
    assertLikeJavaPoet("java.util.List", "$T", List.class);
    assertLikeJavaPoet("java.util.Map.Entry", "$T", Map.Entry.class);
    assertLikeJavaPoet("long", "$T", long.class);
    assertLikeJavaPoet("java.lang.String[]", "$T", String[].class);
    assertThat(Code.of("$T", List.class)).isEqualTo(Code.of("$T", LIST));
  }

  @Test
  void namePlaceholder() {
    assertLikeJavaPoet("this.f0 = f0", "this.$N = $N", "f0", "f0");
    assertLikeJavaPoet("sb", "$N", new StringBuilder("sb"));
  }

  @Test
  void stringPlaceholderQuotesAndEscapes() {
    assertLikeJavaPoet("\"plain\"", "$S", "plain");
    assertLikeJavaPoet("\"\"", "$S", "");
    assertLikeJavaPoet(
        "\"q\\\"uote 'single' back\\\\slash \\ttab\"", "$S", "q\"uote 'single' back\\slash \ttab");
    assertLikeJavaPoet(
        "\"\\b\\f\\r\\u0000\\u001b\\u007f\\u0085\"", "$S", "\b\f\r\0\u001b\u007f\u0085");
    assertLikeJavaPoet("\"é ü 中 \uD83D\uDE00\"", "$S", "é ü 中 \uD83D\uDE00");
    // A line break ends a line of the literal; the rest continues on the next, after "+ ".
    assertLikeJavaPoet("\"a\\n\"\n    + \"b\"", "$S", "a\nb");
    assertLikeJavaPoet("\"a\\n\"", "$S", "a\n");
    assertLikeJavaPoet("\"\\n\"\n    + \"\\n\"", "$S", "\n\n");
  }

  @Test
  void stringPlaceholderPrintsNullAsNull() {
    assertLikeJavaPoet("f(null)", "f($S)", (Object) null);
    assertThat(Code.of("$S", (Object) null)).isEqualTo(Code.of("null"));
  }

  @Test
  void stringPlaceholderTakesAnyObject() {
    // CodeBlock writes String.valueOf(arg).
    assertLikeJavaPoet("\"42\"", "$S", 42);
    assertLikeJavaPoet("\"sb\"", "$S", new StringBuilder("sb"));
  }

  @Test
  void literalPlaceholder() {
    assertLikeJavaPoet("x = 42", "x = $L", 42);
    assertLikeJavaPoet("x = true", "x = $L", true);
    assertLikeJavaPoet("x = null", "x = $L", (Object) null);
    assertLikeJavaPoet("new int[] {1, 2}", "new int[] {$L}", "1, 2");
  }

  @Test
  void literalPlaceholderTakesANestedFragment() {
    Code inner = Code.of("$T.of($S)", LIST, "x");
    assertThat(Code.of("return $L;", inner).toString())
        .isEqualTo("return java.util.List.of(\"x\");");
    assertThat(Code.of("return $L;", inner)).isEqualTo(Code.of("return $T.of($S);", LIST, "x"));
    // The nested fragment keeps its types: they are offered for import in a file.
    assertThat(Code.of("$L", inner).parts()).contains(LIST);
    // And its markers.
    Code indented = Code.builder().indent().add("a\n").unindent().build();
    assertThat(Code.of("{\n$L}\n", indented).toString()).isEqualTo("{\n  a\n}\n");
  }

  @Test
  void dollarSign() {
    assertLikeJavaPoet("a$b", "a$$b");
    assertLikeJavaPoet("$", "$$");
    assertLikeJavaPoet("$$", "$$$$");
    assertLikeJavaPoet("$java.util.List", "$$$T", LIST);
  }

  @Test
  void indentAndUnindent() {
    assertLikeJavaPoet("a\n  b\n    c\n  d\ne\n", "a\n$>b\n$>c\n$<d\n$<e\n");
    // Empty lines are not indented.
    assertLikeJavaPoet("a\n\n  b\n", "a\n$>\nb\n$<");
  }

  @Test
  void statementContinuationLines() {
    assertLikeJavaPoet("x = a\n    + b\n    + c;\ny;\n", "$[x = a\n+ b\n+ c;\n$]$[y;\n$]");
    Code statement =
        Code.builder().addStatement("$T x = $L", LIST, Code.of("f(\n$S)", "a\nb")).build();
    assertThat(statement.toString())
        .isEqualTo(
            CodeBlock.builder()
                .addStatement("$T x = $L", LIST, CodeBlock.of("f(\n$S)", "a\nb"))
                .build()
                .toString());
    assertThat(statement.toString())
        .isEqualTo("java.util.List x = f(\n    \"a\\n\"\n        + \"b\");\n");
  }

  @Test
  void controlFlow() {
    Code ours =
        Code.builder()
            .beginControlFlow("try")
            .addStatement("$T.f($S)", LIST, "x")
            .nextControlFlow("catch ($T e)", ClassName.get(RuntimeException.class))
            .addStatement("throw e")
            .nextControlFlow("finally")
            .beginControlFlow("for (int i = 0; i < $L; i++)", 3)
            .addStatement("g(i)")
            .endControlFlow()
            .endControlFlow()
            .build();
    CodeBlock theirs =
        CodeBlock.builder()
            .beginControlFlow("try")
            .addStatement("$T.f($S)", LIST, "x")
            .nextControlFlow("catch ($T e)", ClassName.get(RuntimeException.class))
            .addStatement("throw e")
            .nextControlFlow("finally")
            .beginControlFlow("for (int i = 0; i < $L; i++)", 3)
            .addStatement("g(i)")
            .endControlFlow()
            .endControlFlow()
            .build();
    assertThat(ours.toString()).isEqualTo(theirs.toString());
    assertThat(ours.toString())
        .isEqualTo(
            "try {\n"
                + "  java.util.List.f(\"x\");\n"
                + "} catch (java.lang.RuntimeException e) {\n"
                + "  throw e;\n"
                + "} finally {\n"
                + "  for (int i = 0; i < 3; i++) {\n"
                + "    g(i);\n"
                + "  }\n"
                + "}\n");
  }

  @Test
  void builderAddsFragments() {
    Code.Builder b = Code.builder();
    b.add("a").add(Code.of("$T", LIST)).add(Code.of("")).add("$S", "s");
    assertThat(b.build().toString()).isEqualTo("ajava.util.List\"s\"");
  }

  @Test
  void unknownPlaceholderIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Code.of("a $X b", 1));
    assertThat(e).hasMessageThat().contains("$X");
    assertThat(e).hasMessageThat().contains("a $X b");
    // JavaPoet's indexed, named and wrapping placeholders are not ours.
    assertThrows(IllegalArgumentException.class, () -> Code.of("$1L", 1));
    assertThrows(IllegalArgumentException.class, () -> Code.of("$W"));
    assertThrows(IllegalArgumentException.class, () -> Code.of("$a:L", 1));
  }

  @Test
  void danglingDollarIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Code.of("cost $"));
    assertThat(e).hasMessageThat().contains("dangling");
    assertThat(e).hasMessageThat().contains("cost $");
    assertThrows(IllegalArgumentException.class, () -> Code.of("$"));
    assertThrows(IllegalArgumentException.class, () -> Code.builder().addStatement("x$"));
  }

  @Test
  void tooFewArgumentsAreRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Code.of("$T.of($S, $L)", LIST, "x"));
    assertThat(e).hasMessageThat().contains("$T.of($S, $L)");
    assertThrows(IllegalArgumentException.class, () -> Code.of("$N"));
    assertThrows(IllegalArgumentException.class, () -> Code.of("$S"));
    assertThrows(IllegalArgumentException.class, () -> Code.of("$T"));
    assertThrows(IllegalArgumentException.class, () -> Code.builder().beginControlFlow("if ($L)"));
  }

  @Test
  void unusedArgumentsAreRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Code.of("f($L)", 1, 2, 3));
    assertThat(e).hasMessageThat().contains("2 arguments unused");
    assertThat(e).hasMessageThat().contains("f($L)");
    assertThrows(IllegalArgumentException.class, () -> Code.of("$$", "x"));
    assertThrows(IllegalArgumentException.class, () -> Code.builder().addStatement("x", "y"));
  }

  @Test
  void argumentsOfTheWrongKindAreRejected() {
    IllegalArgumentException name =
        assertThrows(IllegalArgumentException.class, () -> Code.of("$N", 42));
    assertThat(name).hasMessageThat().contains("$N");
    assertThrows(IllegalArgumentException.class, () -> Code.of("$N", (Object) null));
    IllegalArgumentException type =
        assertThrows(IllegalArgumentException.class, () -> Code.of("$T", "java.util.List"));
    assertThat(type).hasMessageThat().contains("$T");
    assertThrows(IllegalArgumentException.class, () -> Code.of("$T", (Object) null));
  }

  @Test
  void toStringWritesTypesInFull() {
    Code code =
        Code.of(
            "$T<$T> xs = new $T<>($T.SIZE);",
            LIST,
            ClassName.get(String.class),
            ClassName.get("java.util", "ArrayList"),
            NDARRAY);
    assertThat(code.toString())
        .isEqualTo(
            "java.util.List<java.lang.String> xs = new java.util.ArrayList<>("
                + "dev.ireestubs.abi.AbiType.NdArray.SIZE);");
    // A type of the default package has no package to write.
    assertThat(Code.of("$T x", ClassName.get("", "Top")).toString()).isEqualTo("Top x");
  }

  @Test
  void equalityIsByText() {
    assertThat(Code.of("$T", ClassName.get(String.class))).isEqualTo(Code.of("java.lang.String"));
    assertThat(Code.of("$S", "x")).isEqualTo(Code.of("\"x\""));
    assertThat(Code.of("$L", 1)).isEqualTo(Code.of("1"));
    assertThat(Code.of("$N", "a")).isEqualTo(Code.of("a"));
    assertThat(Code.of("a$L", Code.of("b"))).isEqualTo(Code.of("ab"));
    assertThat(Code.of("$T", LIST).hashCode()).isEqualTo(Code.of("java.util.List").hashCode());
    assertThat(Code.of("a")).isNotEqualTo(Code.of("b"));
    assertThat(Code.of("$S", "a")).isNotEqualTo(Code.of("a"));
    assertThat(Code.of("a")).isNotEqualTo("a");
    assertThat(Code.of("")).isEqualTo(Code.builder().build());
  }

  @Test
  void join() {
    List<Code> codes = List.of(Code.of("$T", LIST), Code.of("$S", "b"), Code.of("c"));
    assertThat(Code.join(codes, ", ").toString()).isEqualTo("java.util.List, \"b\", c");
    assertThat(Code.join(codes, ", ").toString())
        .isEqualTo(
            CodeBlock.join(
                    List.of(CodeBlock.of("$T", LIST), CodeBlock.of("$S", "b"), CodeBlock.of("c")),
                    ", ")
                .toString());
    assertThat(Code.join(codes, ", ").parts()).contains(LIST);
    assertThat(Code.join(List.of(Code.of("only")), ", ")).isEqualTo(Code.of("only"));
    assertThat(Code.join(List.of(), ", ").isEmpty()).isTrue();
    // A separator is text: a $ in it is not a placeholder.
    assertThat(Code.join(List.of(Code.of("a"), Code.of("b")), " $ ").toString()).isEqualTo("a $ b");
  }

  @Test
  void isEmpty() {
    assertThat(Code.of("").isEmpty()).isTrue();
    assertThat(Code.builder().build().isEmpty()).isTrue();
    assertThat(Code.builder().add("").add(Code.of("")).build().isEmpty()).isTrue();
    assertThat(Code.of(" ").isEmpty()).isFalse();
    assertThat(Code.of("$L", "").isEmpty()).isFalse(); // an empty literal is a part
    assertThat(Code.of("$>").isEmpty()).isFalse();
    assertThat(Code.of("$S", "").isEmpty()).isFalse();
  }

  @Test
  void partsAreImmutable() {
    Code code = Code.of("a$T", LIST);
    assertThrows(UnsupportedOperationException.class, () -> code.parts().add("b"));
    Code.Builder b = Code.builder().add("a");
    Code first = b.build();
    b.add("b");
    assertThat(first.toString()).isEqualTo("a");
  }
}
