package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Bad input of every kind must end in an {@link AbiParseException} (or a well-formed result), never
 * another exception, a stack overflow or a hang.
 */
class DeclarationHostileInputTest {

  /** Valid declarations exercising every construct; the manifest's real ones are added below. */
  static final List<String> SAMPLES =
      List.of(
          DeclarationTest.NAMED_ENTRY,
          DeclarationTest.OUTPUT_STORAGE,
          DeclarationTest.TF_ATTRIBUTES,
          "sync func @abs(%input0: tensor<f32>) -> (%output0: tensor<f32>)",
          "sync func @test(%input0: tensor<1x?xf32>, %input1: tensor<?xf32>) -> (%output0: index)",
          "async func @step(%state: !util.list<?>, %x: tensor<*xbf16, #enc<a -> b>>, %t:"
              + " tuple<i32, !vm.list<!hal.buffer_view>>) -> (%y: complex<f32> {a = \"}]\\\"\", b ="
              + " [1, {c = 2}]})",
          "sync func @types(%input0: tensor<2x?xsi8>, %input1: tensor<ui16>, %input2:"
              + " tensor<4xf8E4M3FNUZ>, %input3: i1, %input4: !hal.buffer_view, %input5: f64,"
              + " %input6: tensor<?x3xi4>) -> (%output0: tensor<?x?xbf16>, %output1:"
              + " tensor<3xcomplex<f64>>, %output2: !util.list<!util.list<i64>>)",
          "sync func @__init() -> ()");

  private static List<String> allSamples() {
    List<String> all = new ArrayList<>(SAMPLES);
    all.addAll(DeclarationConformanceTest.manifestDeclarationsIfPresent());
    return all;
  }

  /** Only AbiParseException may escape; a result must survive print and parse unchanged. */
  private static void parseSafely(String text) {
    Declaration d;
    try {
      d = Declaration.parse(text);
    } catch (AbiParseException expected) {
      return;
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError("input " + quoteForMessage(text) + " threw " + e, e);
    }
    String printed = d.print();
    Declaration again = Declaration.parse(printed);
    assertWithMessage("reparse of %s", quoteForMessage(text)).that(again).isEqualTo(d);
    assertWithMessage("reprint of %s", quoteForMessage(text))
        .that(again.print())
        .isEqualTo(printed);
  }

  private static String quoteForMessage(String s) {
    return s.length() > 300
        ? "'" + s.substring(0, 300) + "...' (" + s.length() + " chars)"
        : "'" + s + "'";
  }

  @Test
  void everyTruncationThrowsAParseException() {
    int prefixes = 0;
    for (String text : allSamples()) {
      Declaration full = Declaration.parse(text);
      // The one proper prefix that is itself a declaration: everything through the arguments'
      // closing parenthesis (a declaration with no "-> (...)" has no results).
      String withoutResults =
          new Declaration(full.async(), full.name(), full.arguments(), List.of())
              .print()
              .replace(" -> ()", "");
      for (int len = 0; len < text.length(); len++) {
        String prefix = text.substring(0, len);
        prefixes++;
        if (prefix.stripTrailing().equals(withoutResults)) {
          Declaration d = Declaration.parse(prefix);
          assertThat(d.results()).isEmpty();
          assertThat(d.arguments()).isEqualTo(full.arguments());
          continue;
        }
        AbiParseException e =
            assertThrows(
                AbiParseException.class,
                () -> Declaration.parse(prefix),
                () -> "prefix of length " + prefix.length() + " parsed: " + prefix);
        assertThat(e.position()).startsWith("offset ");
        int offset = Integer.parseInt(e.position().substring("offset ".length()));
        assertWithMessage("error offset within the prefix '%s'", prefix)
            .that(offset)
            .isAtMost(prefix.length());
      }
    }
    assertThat(prefixes).isGreaterThan(1000);
  }

  @Test
  void everyTruncatedCallingConventionThrows() {
    for (String text : List.of("0rr_r", "0iCiD_i", "0rCrrD_v", "0v_v", "0rrrrrrrr_r")) {
      for (int len = 0; len < text.length(); len++) {
        String prefix = text.substring(0, len);
        assertThrows(AbiParseException.class, () -> CallingConvention.parse(prefix), prefix);
      }
    }
  }

  @Test
  void deepNestingIsRefusedOrSkippedWithoutRecursion() {
    int n = 200_000;
    // Unclosed brackets of every kind, in types and in attributes.
    for (String open : List.of("(", "[", "{", "<", "tensor<", "tuple<", "!util.list<", "\"")) {
      // An odd count, so that quotes do not pair up into empty strings.
      int count = (n / open.length()) | 1;
      String type = "sync func @f(%a: " + open.repeat(count) + ")";
      assertThrows(AbiParseException.class, () -> Declaration.parse(type), open);
      String attr = "sync func @f(%a: i32 {x = " + open.repeat(count) + "}) -> ()";
      assertThrows(AbiParseException.class, () -> Declaration.parse(attr), open);
    }
    // Balanced but deep: lists hit the depth bound...
    for (String open : List.of("!util.list<", "!vm.list<", "!iree_input.list<")) {
      String type = "sync func @f(%a: " + open.repeat(10_000) + "i32" + ">".repeat(10_000) + ")";
      AbiParseException e = assertThrows(AbiParseException.class, () -> Declaration.parse(type));
      assertThat(e.detail()).contains("nested more than ParseLimits.MAX_DEPTH = 64 levels");
    }
    // ...while text the parser only scans may nest as deep as it likes.
    String deepAttr = "sync func @f(%a: i32 {x = " + "[".repeat(n) + "]".repeat(n) + "}) -> ()";
    assertThat(Declaration.parse(deepAttr).arguments().get(0).attributes()).hasLength(n * 2 + 4);
    String deepTuple = "sync func @f(%a: " + "tuple<".repeat(n / 6) + ">".repeat(n / 6) + ")";
    assertThat(Declaration.parse(deepTuple).arguments().get(0).type())
        .isInstanceOf(AbiType.Unsupported.class);
    String deepDialect = "sync func @f(%a: !x.y" + "<".repeat(n) + ">".repeat(n) + ")";
    assertThat(Declaration.parse(deepDialect).arguments().get(0).type())
        .isInstanceOf(AbiType.Ref.class);
    String deepComplex = "complex<".repeat(n) + "f32" + ">".repeat(n);
    assertThat(MlirTypes.parse(deepComplex)).isInstanceOf(AbiType.Unsupported.class);
    assertThat(MlirTypes.parseElementType(deepComplex)).isEmpty();
    String manyDims = "tensor<" + "1x".repeat(n) + "f32>";
    assertThat(((AbiType.NdArray) MlirTypes.parse(manyDims)).shape().rank()).isEqualTo(n);
    String manyParams = "sync func @f(" + "%a: i32, ".repeat(50_000) + "%z: i32) -> ()";
    assertThat(Declaration.parse(manyParams).arguments()).hasSize(50_001);
  }

  @Test
  void garbageAndMutationsNeverEscapeAsOtherExceptions() {
    Random random = new Random(20240611);
    String alphabet = "%:,(){}[]<>\"\\-> x?*#@!.0123456789ifsyncaunctplei_$\t\n";
    List<String> seeds = allSamples();
    int parsed = 0;
    for (int round = 0; round < 30_000; round++) {
      String text;
      if (round % 10 == 0) {
        StringBuilder sb = new StringBuilder();
        int len = random.nextInt(60);
        for (int i = 0; i < len; i++) {
          sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        text = random.nextBoolean() ? "sync func @f(" + sb : sb.toString();
      } else {
        StringBuilder sb = new StringBuilder(seeds.get(random.nextInt(seeds.size())));
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits && sb.length() > 0; e++) {
          int at = random.nextInt(sb.length());
          switch (random.nextInt(4)) {
            case 0:
              sb.deleteCharAt(at);
              break;
            case 1:
              sb.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
              break;
            case 2:
              sb.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
              break;
            default:
              sb.setCharAt(at, (char) random.nextInt(0x3000));
              break;
          }
        }
        text = sb.toString();
      }
      try {
        Declaration.parse(text);
        parsed++;
      } catch (AbiParseException ignored) {
        // Expected for most.
      }
      parseSafely(text);
    }
    // Many single-character edits (inside names, dims, attribute values) still parse.
    assertThat(parsed).isGreaterThan(1000);
  }

  @Test
  void garbageCallingConventions() {
    Random random = new Random(7);
    String alphabet = "0123vVrRiIfFCD_x ";
    for (int round = 0; round < 20_000; round++) {
      StringBuilder sb = new StringBuilder();
      int len = random.nextInt(12);
      for (int i = 0; i < len; i++) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String text = round % 2 == 0 ? "0" + sb : sb.toString();
      try {
        CallingConvention c = CallingConvention.parse(text);
        assertWithMessage(text).that(c.toString()).isEqualTo(text);
      } catch (AbiParseException expected) {
        int offset = Integer.parseInt(expected.position().substring("offset ".length()));
        assertWithMessage(text).that(offset).isAtMost(text.length());
      }
    }
  }
}
