package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiType.Dict;
import dev.ireestubs.abi.AbiType.Entry;
import dev.ireestubs.abi.AbiType.NdArray;
import dev.ireestubs.abi.AbiType.Scalar;
import dev.ireestubs.abi.AbiType.Sequence;
import dev.ireestubs.abi.AbiType.SequenceKind;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class AbiJsonTest {

  private static NdArray f32(long... dims) {
    return new NdArray(ElementType.F32, Shape.of(dims));
  }

  @Test
  void primitives() {
    assertThat(AbiJson.parseType("\"i32\"")).isEqualTo(new Scalar(ElementType.I32));
    assertThat(AbiJson.parseType("\"i1\"")).isEqualTo(new Scalar(ElementType.I1));
    assertThat(AbiJson.parseType("\"i3\"")).isEqualTo(new Scalar(ElementType.integer(3)));
    assertThat(AbiJson.parseType("\"i128\"")).isEqualTo(new Scalar(ElementType.integer(128)));
    assertThat(AbiJson.parseType("\"f16\"")).isEqualTo(new Scalar(ElementType.F16));
    assertThat(AbiJson.parseType("\"bf16\"")).isEqualTo(new Scalar(ElementType.BF16));
    assertThat(AbiJson.parseType("\"f64\"")).isEqualTo(new Scalar(ElementType.F64));
    assertThat(AbiJson.parseType("null")).isEqualTo(new AbiType.Any());
    assertThat(AbiJson.parseType("\"unknown\"")).isEqualTo(new AbiType.Unknown());
  }

  @Test
  void unsupportedPrimitiveKeepsItsText() {
    AbiType t = AbiJson.parseType("\"pystr\"");
    assertThat(t).isInstanceOf(AbiType.Unsupported.class);
    AbiType.Unsupported u = (AbiType.Unsupported) t;
    assertThat(u.tag()).isEqualTo("pystr");
    assertThat(u.reason()).contains("not part of the iree.abi V1 spec");
    assertThat(AbiJson.printType(t)).isEqualTo("\"pystr\"");
    assertThat(AbiJson.parseType("\"i0\"")).isInstanceOf(AbiType.Unsupported.class);
    assertThat(AbiJson.parseType("\"u8\"")).isInstanceOf(AbiType.Unsupported.class);
  }

  @Test
  void ndarrays() {
    assertThat(AbiJson.parseType("[\"ndarray\",\"f32\",2,2,3]")).isEqualTo(f32(2, 3));
    assertThat(AbiJson.parseType("[\"ndarray\",\"f32\",0]")).isEqualTo(f32());
    assertThat(AbiJson.parseType("[\"ndarray\",\"i32\",2,null,3]"))
        .isEqualTo(new NdArray(ElementType.I32, Shape.of(Shape.DYNAMIC, 3)));
    assertThat(AbiJson.parseType("[\"ndarray\",\"f32\",null]"))
        .isEqualTo(new NdArray(ElementType.F32, Shape.unranked()));
    // MHLO writes null for an element type it cannot map; TF writes "unknown".
    assertThat(AbiJson.parseType("[\"ndarray\",null,1,4]"))
        .isEqualTo(new NdArray(ElementType.UNKNOWN, Shape.of(4)));
    assertThat(AbiJson.parseType("[\"ndarray\",\"unknown\",1,4]"))
        .isEqualTo(new NdArray(ElementType.UNKNOWN, Shape.of(4)));
  }

  @Test
  void ndarrayWhoseRankDisagreesWithItsDimsIsUnsupported() {
    // A real test in IREE's Python bindings writes this; its author meant a 3x4 array.
    AbiType t = AbiJson.parseType("[\"ndarray\", \"f32\", 3, 4]");
    assertThat(t).isInstanceOf(AbiType.Unsupported.class);
    assertThat(((AbiType.Unsupported) t).reason()).isEqualTo("the rank is 3 but 1 dim is listed");
    assertThat(AbiJson.printType(t)).isEqualTo("[\"ndarray\",\"f32\",3,4]");
    assertThat(AbiJson.parseType("[\"ndarray\",\"f32\",null,4]"))
        .isInstanceOf(AbiType.Unsupported.class);
    assertThat(AbiJson.parseType("[\"ndarray\",\"pystr\",1,4]"))
        .isInstanceOf(AbiType.Unsupported.class);
  }

  @Test
  void structures() {
    assertThat(AbiJson.parseType("[\"slist\",\"i32\",\"i64\"]"))
        .isEqualTo(
            new Sequence(
                SequenceKind.LIST,
                List.of(new Scalar(ElementType.I32), new Scalar(ElementType.I64))));
    assertThat(AbiJson.parseType("[\"stuple\"]"))
        .isEqualTo(new Sequence(SequenceKind.TUPLE, List.of()));
    Dict d =
        (Dict) AbiJson.parseType("[\"sdict\",[\"b\",\"i32\"],[\"a\",[\"ndarray\",\"f32\",1,4]]]");
    assertThat(d.keys()).containsExactly("b", "a").inOrder();
    assertThat(d.isSorted()).isFalse();
    assertThat(d.entry("a").get().type()).isEqualTo(f32(4));
    assertThat(((Dict) AbiJson.parseType("[\"sdict\",[\"A\",\"i32\"],[\"a\",\"i32\"]]")).isSorted())
        .isTrue();
    assertThat(AbiJson.parseType("[\"py_homogeneous_list\",\"i64\"]"))
        .isEqualTo(new AbiType.HomogeneousList(new Scalar(ElementType.I64)));
  }

  @Test
  void sortednessIsBytewiseUtf8() {
    // 'é' (U+00E9) encodes as C3 A9, above 'z' (7A) byte-wise.
    assertThat(Dict.compareBytewise("z", "é")).isLessThan(0);
    assertThat(Dict.compareBytewise("ab", "a")).isGreaterThan(0);
    assertThat(Dict.compareBytewise("\uFFFF", "\uD83D\uDE00")).isLessThan(0);
  }

  @Test
  void namedOnlyAtTheRootOfArguments() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[\"i32\",[\"named\",\"a\",\"i32\"]],\"r\":[[\"named\",\"x\",\"i32\"]]}");
    assertThat(s.arguments().get(1)).isEqualTo(new AbiType.Named("a", new Scalar(ElementType.I32)));
    assertThat(s.results().get(0)).isInstanceOf(AbiType.Unsupported.class);
    AbiType nested = AbiJson.parseType("[\"slist\",[\"named\",\"a\",\"i32\"]]");
    assertThat(((Sequence) nested).elements().get(0)).isInstanceOf(AbiType.Unsupported.class);
  }

  @Test
  void functionWithVersion() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"v\":1,\"r\":[[\"stuple\",[\"ndarray\",\"f32\",1,16]]],\"a\":[[\"ndarray\",\"f32\",1,16]]}");
    assertThat(s.abiVersion()).isEqualTo(OptionalInt.of(1));
    assertThat(s.format()).isEqualTo(ReflectionFormat.IREE_ABI_JSON);
    assertThat(s.hasInlinedResults()).isTrue();
    assertThat(s.vmResults()).containsExactly(f32(16));
    assertThat(AbiJson.print(s))
        .isEqualTo(
            "{\"a\":[[\"ndarray\",\"f32\",1,16]],\"r\":[[\"stuple\",[\"ndarray\",\"f32\",1,16]]],\"v\":1}");
  }

  @Test
  void functionWithoutVersionPrintsWithoutOne() {
    String text = "{\"a\":[],\"r\":[\"i32\"]}";
    assertThat(AbiJson.print(AbiJson.parseFunction(text))).isEqualTo(text);
  }

  @Test
  void moduleFile() {
    Map<String, FunctionSignature> m =
        AbiJson.parseModule(
            "{\n  \"predict\": {\"a\":[\"i32\"],\"r\":[]},\n  \"embed\": {\"a\":[],\"r\":[\"f32\"],\"v\":1}\n}");
    assertThat(m.keySet()).containsExactly("predict", "embed").inOrder();
    assertThat(AbiJson.printModule(m))
        .isEqualTo(
            "{\"predict\":{\"a\":[\"i32\"],\"r\":[]},\"embed\":{\"a\":[],\"r\":[\"f32\"],\"v\":1}}");
  }

  @Test
  void errorsNameThePathAndPosition() {
    AbiParseException e =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseFunction("{\"a\":[[\"ndarray\",\"f32\",\"x\"]],\"r\":[]}"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "iree.abi JSON at $.a[0][2] (line 1, column 24): expected the rank as an integer >= 0 or"
                + " null, found the string \"x\"");
    assertThat(e.format()).isEqualTo(ReflectionFormat.IREE_ABI_JSON);

    e = assertThrows(AbiParseException.class, () -> AbiJson.parseFunction("{\"a\":[]}"));
    assertThat(e).hasMessageThat().contains("missing \"r\"");

    e = assertThrows(AbiParseException.class, () -> AbiJson.parseFunction("{\"a\":{},\"r\":[]}"));
    assertThat(e).hasMessageThat().contains("$.a");
    assertThat(e).hasMessageThat().contains("expected an array of type records, found an object");

    e = assertThrows(AbiParseException.class, () -> AbiJson.parseFunction("{\"a\":[[]],\"r\":[]}"));
    assertThat(e).hasMessageThat().contains("found an empty array");

    e =
        assertThrows(
            AbiParseException.class, () -> AbiJson.parseType("[\"ndarray\",\"f32\",1,-1]"));
    assertThat(e).hasMessageThat().contains("$[3]");

    e =
        assertThrows(
            AbiParseException.class, () -> AbiJson.parseType("[\"ndarray\",\"f32\",1,2.5]"));
    assertThat(e).hasMessageThat().contains("found the number 2.5");

    e =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseType("[\"sdict\",[\"a\",\"i32\"],[\"a\",\"i64\"]]"));
    assertThat(e).hasMessageThat().contains("duplicate sdict key \"a\" (first at $[1])");

    e = assertThrows(AbiParseException.class, () -> AbiJson.parseType("[\"sdict\",[1,\"i32\"]]"));
    assertThat(e).hasMessageThat().contains("expected an sdict entry [key, T] with a string key");

    e = assertThrows(AbiParseException.class, () -> AbiJson.parseType("[\"named\",\"a\"]"));
    assertThat(e).hasMessageThat().contains("expected [\"named\", name, T]");

    e = assertThrows(AbiParseException.class, () -> AbiJson.parseType("[\"py_homogeneous_list\"]"));
    assertThat(e).hasMessageThat().contains("expected [\"py_homogeneous_list\", T]");

    e =
        assertThrows(
            AbiParseException.class,
            () -> AbiJson.parseFunction("{\"a\":[],\"r\":[],\"v\":\"1\"}"));
    assertThat(e).hasMessageThat().contains("$.v");

    e = assertThrows(AbiParseException.class, () -> AbiJson.parseModule("[]"));
    assertThat(e).hasMessageThat().contains("expected an object mapping function names");
  }

  @Test
  void malformedJsonIsAParseErrorWithAPosition() {
    for (String bad :
        new String[] {
          "",
          "   ",
          "{",
          "{\"a\":[\"i32\",],\"r\":[]}",
          "{\"a\":[],\"r\":[]} x",
          "[\"slist\"",
          "{\"a\":[],\"a\":[],\"r\":[]}",
          "\"\\u12\"",
          "nul",
          "{'a':[]}"
        }) {
      AbiParseException e =
          assertThrows(AbiParseException.class, () -> AbiJson.parseFunction(bad), bad);
      assertThat(e.format()).isEqualTo(ReflectionFormat.IREE_ABI_JSON);
      assertThat(e.position()).isNotEmpty();
    }
  }

  @Test
  void deepNestingIsRefusedNotAStackOverflow() {
    String deep = "[\"slist\",".repeat(100_000) + "\"i32\"" + "]".repeat(100_000);
    AbiParseException e = assertThrows(AbiParseException.class, () -> AbiJson.parseType(deep));
    assertThat(e.detail())
        .isEqualTo("arrays and objects nested more than ParseLimits.MAX_DEPTH = 64 levels deep");
    String ok = "[\"slist\",".repeat(50) + "\"i32\"" + "]".repeat(50);
    assertThat(AbiJson.printType(AbiJson.parseType(ok))).isEqualTo(ok.replace(" ", ""));
  }

  @Test
  void hugeNumbersAreRefused() {
    assertThrows(
        AbiParseException.class,
        () -> AbiJson.parseType("[\"ndarray\",\"f32\",1,99999999999999999999999]"));
    assertThrows(
        AbiParseException.class,
        () -> AbiJson.parseType("[\"ndarray\",\"f32\",99999999999999999999999]"));
    assertThrows(
        AbiParseException.class,
        () -> AbiJson.parseType("[\"ndarray\",\"f32\",1," + "9".repeat(1000) + "]"));
  }

  @Test
  void printerFollowsTheCompilersMappingForOtherFormats() {
    assertThat(AbiJson.printType(new Scalar(ElementType.UI8))).isEqualTo("\"i8\"");
    assertThat(AbiJson.printType(new Scalar(ElementType.SI32))).isEqualTo("\"i32\"");
    assertThat(AbiJson.printType(new Scalar(ElementType.INDEX))).isEqualTo("\"unknown\"");
    assertThat(AbiJson.printType(new NdArray(ElementType.COMPLEX64, Shape.of(2))))
        .isEqualTo("[\"ndarray\",\"unknown\",1,2]");
    assertThat(AbiJson.printType(new NdArray(ElementType.F8E4M3FN, Shape.of(2))))
        .isEqualTo("[\"ndarray\",\"f8\",1,2]");
    assertThat(AbiJson.printType(new AbiType.Ref("hal.fence"))).isEqualTo("\"unknown\"");
    assertThat(AbiJson.printType(NdArray.anyBufferView()))
        .isEqualTo("[\"ndarray\",\"unknown\",null]");
    assertThat(
            AbiJson.printType(
                new AbiType.Unsupported(
                    "x", "tensor<4x!foo>", ReflectionFormat.DECLARATION, "why")))
        .isEqualTo("\"tensor<4x!foo>\"");
    // Declaration text that happens to be JSON is still text, not a record.
    assertThat(
            AbiJson.printType(
                new AbiType.Unsupported("x", "[\"x\"]", ReflectionFormat.DECLARATION, "why")))
        .isEqualTo("\"[\\\"x\\\"]\"");
  }

  @Test
  void stringsAreEscaped() {
    Dict d = new Dict(List.of(new Entry("a\"b\\c\n\u0001", new Scalar(ElementType.I32))));
    String text = AbiJson.printType(d);
    assertThat(text).isEqualTo("[\"sdict\",[\"a\\\"b\\\\c\\n\\u0001\",\"i32\"]]");
    assertThat(AbiJson.parseType(text)).isEqualTo(d);
  }

  @Test
  void readableToString() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[[\"ndarray\",\"f32\",2,null,3],[\"named\",\"k\",[\"sdict\",[\"a\",\"i32\"]]]],\"r\":[[\"py_homogeneous_list\",null]]}");
    assertThat(s.toString()).isEqualTo("(tensor<?x3xf32>, named k: sdict{a: i32}) -> (list<any>)");
  }
}
