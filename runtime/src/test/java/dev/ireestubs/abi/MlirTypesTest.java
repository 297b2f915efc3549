package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiType.HomogeneousList;
import dev.ireestubs.abi.AbiType.NdArray;
import dev.ireestubs.abi.AbiType.Ref;
import dev.ireestubs.abi.AbiType.Scalar;
import dev.ireestubs.abi.AbiType.Sequence;
import dev.ireestubs.abi.AbiType.SequenceKind;
import dev.ireestubs.abi.AbiType.Unsupported;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MlirTypesTest {

  /** Every element type IREE prints, with what it maps to. */
  static Map<String, ElementType> elementTypes() {
    Map<String, ElementType> m = new LinkedHashMap<>();
    m.put("i1", ElementType.I1);
    m.put("i2", ElementType.integer(2));
    m.put("i4", ElementType.integer(4));
    m.put("i8", ElementType.I8);
    m.put("i16", ElementType.I16);
    m.put("i32", ElementType.I32);
    m.put("i64", ElementType.I64);
    m.put("i128", ElementType.integer(128));
    m.put("si8", ElementType.SI8);
    m.put("si16", ElementType.SI16);
    m.put("si32", ElementType.SI32);
    m.put("si64", ElementType.SI64);
    m.put("si1", ElementType.signedInteger(1));
    m.put("ui8", ElementType.UI8);
    m.put("ui16", ElementType.UI16);
    m.put("ui32", ElementType.UI32);
    m.put("ui64", ElementType.UI64);
    m.put("ui4", ElementType.unsignedInteger(4));
    m.put("f16", ElementType.F16);
    m.put("f32", ElementType.F32);
    m.put("f64", ElementType.F64);
    m.put("bf16", ElementType.BF16);
    m.put("f8E5M2", ElementType.F8E5M2);
    m.put("f8E4M3FN", ElementType.F8E4M3FN);
    m.put("f8E5M2FNUZ", ElementType.F8E5M2FNUZ);
    m.put("f8E4M3FNUZ", ElementType.F8E4M3FNUZ);
    m.put("f8E8M0FNU", ElementType.F8E8M0FNU);
    m.put("f8E4M3", ElementType.otherFloat("f8E4M3", 8));
    m.put("f8E3M4", ElementType.otherFloat("f8E3M4", 8));
    m.put("f8E4M3B11FNUZ", ElementType.otherFloat("f8E4M3B11FNUZ", 8));
    m.put("f6E2M3FN", ElementType.otherFloat("f6E2M3FN", 6));
    m.put("f6E3M2FN", ElementType.otherFloat("f6E3M2FN", 6));
    m.put("f4E2M1FN", ElementType.otherFloat("f4E2M1FN", 4));
    m.put("tf32", ElementType.otherFloat("tf32", 32));
    m.put("f80", ElementType.otherFloat("f80", 80));
    m.put("f128", ElementType.otherFloat("f128", 128));
    m.put("complex<f32>", ElementType.COMPLEX64);
    m.put("complex<f64>", ElementType.COMPLEX128);
    m.put("complex<f16>", ElementType.complex(ElementType.F16));
    m.put("complex<bf16>", ElementType.complex(ElementType.BF16));
    m.put("index", ElementType.INDEX);
    return m;
  }

  @Test
  void everyElementTypeAsScalarAndTensorElement() {
    for (Map.Entry<String, ElementType> e : elementTypes().entrySet()) {
      String name = e.getKey();
      assertWithMessage(name).that(MlirTypes.parseElementType(name)).hasValue(e.getValue());
      AbiType scalar = MlirTypes.parse(name);
      assertWithMessage(name).that(scalar).isEqualTo(new Scalar(e.getValue()));
      assertWithMessage(name).that(MlirTypes.print(scalar)).isEqualTo(name);
      String tensor = "tensor<2x?x" + name + ">";
      AbiType array = MlirTypes.parse(tensor);
      assertWithMessage(tensor)
          .that(array)
          .isEqualTo(new NdArray(e.getValue(), Shape.of(2, Shape.DYNAMIC)));
      assertWithMessage(tensor).that(MlirTypes.print(array)).isEqualTo(tensor);
    }
  }

  @Test
  void scalarVmKinds() {
    assertThat(MlirTypes.parse("i1").vmKind()).hasValue(VmKind.I32);
    assertThat(MlirTypes.parse("i8").vmKind()).hasValue(VmKind.I32);
    assertThat(MlirTypes.parse("si32").vmKind()).hasValue(VmKind.I32);
    assertThat(MlirTypes.parse("i64").vmKind()).hasValue(VmKind.I64);
    assertThat(MlirTypes.parse("index").vmKind()).hasValue(VmKind.I64);
    assertThat(MlirTypes.parse("f32").vmKind()).hasValue(VmKind.F32);
    assertThat(MlirTypes.parse("f64").vmKind()).hasValue(VmKind.F64);
    assertThat(MlirTypes.parse("f16").vmKind()).isEmpty();
  }

  @Test
  void notElementTypes() {
    for (String s :
        List.of(
            "i0",
            "i08",
            "u8",
            "f8",
            "f12",
            "int",
            "complex<i32>",
            "complex<complex<f32>>",
            "complex<f80>",
            "i99999999",
            "I32",
            "")) {
      assertWithMessage(s).that(MlirTypes.parseElementType(s)).isEmpty();
    }
    AbiType complexInt = MlirTypes.parse("complex<i32>");
    assertThat(complexInt).isInstanceOf(Unsupported.class);
    assertThat(((Unsupported) complexInt).tag()).isEqualTo("complex");
  }

  @Test
  void tensors() {
    assertThat(MlirTypes.parse("tensor<4xf32>"))
        .isEqualTo(new NdArray(ElementType.F32, Shape.of(4)));
    assertThat(MlirTypes.parse("tensor<?x8x8x3xf32>"))
        .isEqualTo(new NdArray(ElementType.F32, Shape.of(Shape.DYNAMIC, 8, 8, 3)));
    assertThat(MlirTypes.parse("tensor<f32>"))
        .isEqualTo(new NdArray(ElementType.F32, Shape.scalar()));
    assertThat(MlirTypes.parse("tensor<*xf32>"))
        .isEqualTo(new NdArray(ElementType.F32, Shape.unranked()));
    assertThat(MlirTypes.parse("tensor<0x4xi8>"))
        .isEqualTo(new NdArray(ElementType.I8, Shape.of(0, 4)));
    assertThat(MlirTypes.parse("tensor<16x230x230x64xi8>"))
        .isEqualTo(new NdArray(ElementType.I8, Shape.of(16, 230, 230, 64)));
    for (String t :
        List.of(
            "tensor<4xf32>",
            "tensor<?x8x8x3xf32>",
            "tensor<f32>",
            "tensor<*xf32>",
            "tensor<1x?xbf16>",
            "tensor<3xcomplex<f32>>")) {
      assertWithMessage(t).that(MlirTypes.print(MlirTypes.parse(t))).isEqualTo(t);
    }
    assertThat(MlirTypes.parse("tensor<4xf32>").vmKind()).hasValue(VmKind.REF);
  }

  @Test
  void tensorEncodingsAreNotModelled() {
    NdArray plain = new NdArray(ElementType.F32, Shape.of(4, Shape.DYNAMIC));
    assertThat(MlirTypes.parse("tensor<4x?xf32, #enc>")).isEqualTo(plain);
    assertThat(
            MlirTypes.parse(
                "tensor<4x?xf32, #iree_encoding.encoding<operand_index = 0 : index, op_type ="
                    + " matmul, element_types = [f32, f32, f32], user_indexing_maps ="
                    + " [affine_map<(d0, d1, d2) -> (d0, d2)>], round_dims_to = array<i64: 16>>>"))
        .isEqualTo(plain);
    assertThat(MlirTypes.parse("tensor<4x?xf32, \"str>,\">")).isEqualTo(plain);
    assertThat(MlirTypes.print(MlirTypes.parse("tensor<4x?xf32, #enc>")))
        .isEqualTo("tensor<4x?xf32>");
  }

  @Test
  void malformedTensorsAreUnsupportedNotErrors() {
    for (String t :
        List.of(
            "tensor<4x>",
            "tensor<4>",
            "tensor<>",
            "tensor<4xvector<4xf32>>",
            "tensor<4xf32, >",
            "tensor<01xf32>",
            "tensor<99999999999999999999xf32>",
            "tensor<4x?>",
            "tensor<xf32>",
            "tensor<*x4xf32>",
            "tensor<4xf32>x",
            "tensor<4x!quant.uniform<i8:f32, 0.5>>")) {
      AbiType parsed = MlirTypes.parse(t);
      assertWithMessage(t).that(parsed).isInstanceOf(Unsupported.class);
      Unsupported u = (Unsupported) parsed;
      assertWithMessage(t).that(u.tag()).isEqualTo("tensor");
      assertWithMessage(t).that(u.source()).isEqualTo(t);
      assertWithMessage(t).that(MlirTypes.print(u)).isEqualTo(t);
    }
    assertThat(((Unsupported) MlirTypes.parse("tensor<4xvector<4xf32>>")).reason())
        .isEqualTo("unsupported tensor element type 'vector<4xf32>'");
    assertThat(((Unsupported) MlirTypes.parse("tensor<4x>")).reason())
        .isEqualTo("expected an element type");
  }

  @Test
  void dialectTypes() {
    assertThat(MlirTypes.parse("!hal.buffer_view")).isEqualTo(NdArray.anyBufferView());
    assertThat(MlirTypes.parse("!hal.buffer")).isEqualTo(new Ref("hal.buffer"));
    assertThat(MlirTypes.parse("!hal.fence")).isEqualTo(new Ref("hal.fence"));
    assertThat(MlirTypes.parse("!hal.device")).isEqualTo(new Ref("hal.device"));
    assertThat(MlirTypes.parse("!stream.resource<external>"))
        .isEqualTo(new Ref("stream.resource<external>"));
    assertThat(MlirTypes.parse("!hal.fence").vmKind()).hasValue(VmKind.REF);
    for (String t :
        List.of(
            "!hal.buffer_view",
            "!hal.buffer",
            "!hal.fence",
            "!hal.device",
            "!stream.resource<external>",
            "!custom.thing<\"a\", [1, 2]>")) {
      assertWithMessage(t).that(MlirTypes.print(MlirTypes.parse(t))).isEqualTo(t);
    }
  }

  @Test
  void lists() {
    assertThat(MlirTypes.parse("!util.list<?>")).isEqualTo(new HomogeneousList(new AbiType.Any()));
    assertThat(MlirTypes.parse("!util.list<i32>"))
        .isEqualTo(new HomogeneousList(new Scalar(ElementType.I32)));
    assertThat(MlirTypes.parse("!util.list<!hal.buffer_view>"))
        .isEqualTo(new HomogeneousList(NdArray.anyBufferView()));
    assertThat(MlirTypes.parse("!vm.list<f32>"))
        .isEqualTo(new HomogeneousList(new Scalar(ElementType.F32)));
    assertThat(MlirTypes.parse("!iree_input.list<!iree_input.list<?>>"))
        .isEqualTo(new HomogeneousList(new HomogeneousList(new AbiType.Any())));
    assertThat(MlirTypes.parse("!util.list<tensor<4xf32>>"))
        .isEqualTo(new HomogeneousList(new NdArray(ElementType.F32, Shape.of(4))));
    for (String t :
        List.of(
            "!util.list<?>",
            "!util.list<i32>",
            "!util.list<!hal.buffer_view>",
            "!util.list<!util.list<tuple<i32, f32>>>")) {
      assertWithMessage(t).that(MlirTypes.print(MlirTypes.parse(t))).isEqualTo(t);
    }
    // Lists print in the util dialect whichever dialect they came from.
    assertThat(MlirTypes.print(MlirTypes.parse("!vm.list<?>"))).isEqualTo("!util.list<?>");

    for (String t : List.of("!util.list", "!util.list<>", "!vm.list< >")) {
      AbiType u = MlirTypes.parse(t);
      assertWithMessage(t).that(u).isInstanceOf(Unsupported.class);
      assertWithMessage(t).that(((Unsupported) u).reason()).contains("needs an element type");
    }
    assertThat(MlirTypes.parse("!util.list<memref<4xf32>>"))
        .isEqualTo(
            new HomogeneousList(
                new Unsupported(
                    "memref",
                    "memref<4xf32>",
                    ReflectionFormat.DECLARATION,
                    "memref types do not cross IREE's function ABI; expected a tensor")));
  }

  @Test
  void tuplesAreUnsupportedBecauseTheyDoNotCrossTheAbi() {
    for (String t :
        List.of(
            "tuple<>",
            "tuple<i32, tensor<4xf32>>",
            "tuple<tuple<index>,!hal.fence>",
            "tuple<i32,,f32>")) {
      AbiType parsed = MlirTypes.parse(t);
      assertWithMessage(t)
          .that(parsed)
          .isEqualTo(
              new Unsupported("tuple", t, ReflectionFormat.DECLARATION, MlirTypes.TUPLE_REASON));
      assertWithMessage(t).that(parsed.vmKind()).isEmpty();
      assertWithMessage(t).that(MlirTypes.print(parsed)).isEqualTo(t);
    }
    assertThat(MlirTypes.TUPLE_REASON).contains("separate slots");
    // Inside a list the tuple is still unsupported, and the list keeps its own meaning.
    assertThat(MlirTypes.parse("!util.list<tuple<i32>>"))
        .isEqualTo(
            new HomogeneousList(
                new Unsupported(
                    "tuple", "tuple<i32>", ReflectionFormat.DECLARATION, MlirTypes.TUPLE_REASON)));
    // A structure from the JSON formats has no tuple spelling: it would read back as unsupported.
    assertThrows(
        IllegalArgumentException.class,
        () ->
            MlirTypes.print(
                new Sequence(SequenceKind.TUPLE, List.of(new Scalar(ElementType.I32)))));
  }

  @Test
  void otherTypesAreUnsupportedWithTheirText() {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("memref<4xf32>", "memref");
    tags.put("vector<4xf32>", "vector");
    tags.put("none", "none");
    tags.put("(i32) -> i32", "function");
    tags.put("?", "?");
    tags.put("!alias", "!alias");
    tags.put("!hal.buffer<x>y", "!hal.buffer");
    tags.put("!hal.buffer x", "!hal.buffer");
    tags.put("i32 garbage", "i32");
    tags.put("#attr", "#");
    for (Map.Entry<String, String> e : tags.entrySet()) {
      AbiType t = MlirTypes.parse(e.getKey());
      assertWithMessage(e.getKey()).that(t).isInstanceOf(Unsupported.class);
      Unsupported u = (Unsupported) t;
      assertWithMessage(e.getKey()).that(u.tag()).isEqualTo(e.getValue());
      assertWithMessage(e.getKey()).that(u.source()).isEqualTo(e.getKey());
      assertWithMessage(e.getKey()).that(u.vmKind()).isEmpty();
    }
  }

  @Test
  void typesWithoutAnMlirSpellingDoNotPrint() {
    for (AbiType t :
        List.of(
            new Sequence(SequenceKind.LIST, List.of()),
            new Sequence(SequenceKind.TUPLE, List.of()),
            new AbiType.Dict(List.of()),
            new AbiType.Named("x", new Scalar(ElementType.I32)),
            new AbiType.Unknown(),
            new AbiType.Any(),
            Ref.any(),
            new NdArray(ElementType.UNKNOWN, Shape.of(4)),
            new Scalar(ElementType.UNKNOWN))) {
      assertThrows(IllegalArgumentException.class, () -> MlirTypes.print(t), t.toString());
    }
    assertThat(MlirTypes.print(new NdArray(ElementType.UNKNOWN, Shape.unranked())))
        .isEqualTo("!hal.buffer_view");
  }

  @Test
  void nestingIsBoundedAt64Levels() {
    String ok = "!util.list<".repeat(63) + "i32" + ">".repeat(63);
    AbiType t = MlirTypes.parse(ok);
    for (int i = 0; i < 63; i++) {
      t = ((HomogeneousList) t).element();
    }
    assertThat(t).isEqualTo(new Scalar(ElementType.I32));
    assertThat(MlirTypes.print(MlirTypes.parse(ok))).isEqualTo(ok);

    String deep = "!util.list<".repeat(64) + "i32" + ">".repeat(64);
    AbiParseException e = assertThrows(AbiParseException.class, () -> MlirTypes.parse(deep));
    assertThat(e.position()).isEqualTo("offset " + 64 * "!util.list<".length());
    assertThat(e.detail())
        .isEqualTo(
            "types nested more than ParseLimits.MAX_DEPTH = 64 levels deep are not supported");

    // Unsupported types are scanned, not followed: any depth is fine.
    String tuples = "tuple<".repeat(10_000) + ">".repeat(10_000);
    assertThat(MlirTypes.parse(tuples)).isInstanceOf(Unsupported.class);
  }

  @Test
  void errors() {
    assertError("", 0, "expected a type, found the end of the text");
    assertError("   ", 3, "expected a type, found the end of the text");
    assertError("i32, i32", 3, "expected one type, found ',' at the top level");
    assertError(
        "tensor<4xf32",
        12,
        "expected '>' to close '<' opened at offset 6, found the end of the text");
    assertError("tensor<4xf32>>", 13, "unexpected '>' with nothing open to close");
    assertError("tensor<4xf32]", 12, "expected '>' to close '<' opened at offset 6, found ']'");
    assertError(
        "!foo.bar<\"x>",
        12,
        "expected '\"' to close the string opened at offset 9, found the end of the text");
    assertError("i32)", 3, "expected one type, found ')' at the top level");
  }

  private static void assertError(String text, int offset, String detail) {
    AbiParseException e = assertThrows(AbiParseException.class, () -> MlirTypes.parse(text));
    assertThat(e.format()).isEqualTo(ReflectionFormat.DECLARATION);
    assertThat(e.position()).isEqualTo("offset " + offset);
    assertThat(e.detail()).isEqualTo(detail);
  }
}
