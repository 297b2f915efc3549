package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiType.HomogeneousList;
import dev.ireestubs.abi.AbiType.NdArray;
import dev.ireestubs.abi.AbiType.Ref;
import dev.ireestubs.abi.AbiType.Scalar;
import dev.ireestubs.abi.AbiType.Unsupported;
import dev.ireestubs.abi.Declaration.Parameter;
import dev.ireestubs.abi.FunctionSignature.CallingModel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class DeclarationTest {

  static final String NAMED_ENTRY =
      "sync func @namedEntry(%my_input_0: tensor<3xf32>, %input1: tensor<3xf32>) ->"
          + " (%my_output_0: tensor<3xf32>, %output1: tensor<3xf32>)";
  static final String OUTPUT_STORAGE =
      "sync func @outputStorage(%input0: tensor<?x8x8x3xf32>, %input1: !hal.buffer"
          + " {iree.abi.output = 1 : index}) -> (%output0: tensor<?x8x8x3xf32>, %output1:"
          + " tensor<?x8x8x3xf32>)";
  static final String TF_ATTRIBUTES =
      "sync func @main(%input0: tensor<1x192x192x3xi8> {ml_program.identifier ="
          + " \"serving_default_input:0\", tf_saved_model.index_path = [\"input\"]}) -> (%output0:"
          + " tensor<1x1x17x3xf32> {ml_program.identifier = \"StatefulPartitionedCall:0\","
          + " tf_saved_model.index_path = [\"output_0\"]})";

  private static NdArray f32(long... dims) {
    return new NdArray(ElementType.F32, Shape.of(dims));
  }

  @Test
  void namedEntryFromTheReference() {
    Declaration d = Declaration.parse(NAMED_ENTRY);
    assertThat(d.async()).isFalse();
    assertThat(d.name()).isEqualTo("namedEntry");
    assertThat(d.arguments().stream().map(Parameter::name))
        .containsExactly("my_input_0", "input1")
        .inOrder();
    assertThat(d.results().stream().map(Parameter::name))
        .containsExactly("my_output_0", "output1")
        .inOrder();
    assertThat(d.arguments().get(0).type()).isEqualTo(f32(3));
    assertThat(d.arguments().get(0).typeText()).isEqualTo("tensor<3xf32>");
    assertThat(d.arguments().get(0).attributes()).isEmpty();
    assertThat(d.print()).isEqualTo(NAMED_ENTRY);
    assertThat(d.toString()).isEqualTo(NAMED_ENTRY);

    FunctionSignature sig = d.toSignature();
    assertThat(sig.format()).isEqualTo(ReflectionFormat.DECLARATION);
    assertThat(sig.model()).isEqualTo(CallingModel.SYNC);
    assertThat(sig.arguments()).containsExactly(f32(3), f32(3));
    assertThat(sig.results()).containsExactly(f32(3), f32(3));
    assertThat(CallingConvention.parse("0rr_rr").mismatches(sig)).isEmpty();
  }

  @Test
  void outputStorageFromTheReference() {
    Declaration d = Declaration.parse(OUTPUT_STORAGE);
    assertThat(d.name()).isEqualTo("outputStorage");
    NdArray dyn = new NdArray(ElementType.F32, Shape.of(Shape.DYNAMIC, 8, 8, 3));
    Parameter storage = d.arguments().get(1);
    assertThat(storage.name()).isEqualTo("input1");
    assertThat(storage.type()).isEqualTo(new Ref("hal.buffer"));
    assertThat(storage.typeText()).isEqualTo("!hal.buffer");
    assertThat(storage.attributes()).isEqualTo("iree.abi.output = 1 : index");
    assertThat(storage.attributeMap()).containsExactly("iree.abi.output", "1 : index");
    assertThat(storage.integerAttribute("iree.abi.output")).isEqualTo(OptionalLong.of(1));
    assertThat(storage.stringAttribute("iree.abi.output")).isEmpty();
    assertThat(d.toSignature().arguments()).containsExactly(dyn, new Ref("hal.buffer")).inOrder();
    assertThat(d.toSignature().results()).containsExactly(dyn, dyn);
    assertThat(d.print()).isEqualTo(OUTPUT_STORAGE);
    assertThat(CallingConvention.expectedFor(d.toSignature()).map(Object::toString))
        .hasValue("0rr_rr");
  }

  @Test
  void attributesWithStringsAndLists() {
    Declaration d = Declaration.parse(TF_ATTRIBUTES);
    Parameter in = d.arguments().get(0);
    assertThat(in.type()).isEqualTo(new NdArray(ElementType.I8, Shape.of(1, 192, 192, 3)));
    assertThat(in.attributes())
        .isEqualTo(
            "ml_program.identifier = \"serving_default_input:0\", tf_saved_model.index_path ="
                + " [\"input\"]");
    assertThat(in.stringAttribute("ml_program.identifier")).hasValue("serving_default_input:0");
    assertThat(in.attribute("tf_saved_model.index_path")).hasValue("[\"input\"]");
    assertThat(in.stringAttribute("tf_saved_model.index_path")).isEmpty();
    assertThat(d.results().get(0).stringAttribute("ml_program.identifier"))
        .hasValue("StatefulPartitionedCall:0");
    assertThat(d.print()).isEqualTo(TF_ATTRIBUTES);
  }

  @Test
  void attributeValuesOfEveryShape() {
    String text =
        "sync func @f(%a: i32 {a = \"x}]) \\\"y\\\\\", b = [1, [2, \"]\"]], c = {d = 1, e = [2]},"
            + " e = 1 : index, f, g = @sym, \"quoted key\" = unit, h = #foo.bar<\"}\", (1) -> (2)>,"
            + " i = dense<[1, 2]> : tensor<2xi32>, j = \"\\E2\\82\\AC\\n\"}) -> ()";
    Declaration d = Declaration.parse(text);
    Parameter p = d.arguments().get(0);
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("a", "\"x}]) \\\"y\\\\\"");
    expected.put("b", "[1, [2, \"]\"]]");
    expected.put("c", "{d = 1, e = [2]}");
    expected.put("e", "1 : index");
    expected.put("f", "unit");
    expected.put("g", "@sym");
    expected.put("quoted key", "unit");
    expected.put("h", "#foo.bar<\"}\", (1) -> (2)>");
    expected.put("i", "dense<[1, 2]> : tensor<2xi32>");
    expected.put("j", "\"\\E2\\82\\AC\\n\"");
    assertThat(p.attributeMap()).containsExactlyEntriesIn(expected).inOrder();
    assertThat(p.stringAttribute("a")).hasValue("x}]) \"y\\");
    assertThat(p.stringAttribute("j")).hasValue("\u20ac\n");
    assertThat(p.integerAttribute("e")).isEqualTo(OptionalLong.of(1));
    assertThat(p.integerAttribute("b")).isEmpty();
    assertThat(p.attribute("missing")).isEmpty();
    assertThat(d.print()).isEqualTo(text);
  }

  @Test
  void attributeNamesAreTakenAsWritten() {
    // IREE writes each attribute name as it is, unquoted, even when it is not an MLIR identifier.
    String text = "sync func @f(%a: i32 {1x = 2, tf.in-put:0 = \"a\", $k}) -> ()";
    Parameter p = Declaration.parse(text).arguments().get(0);
    assertThat(p.attributeMap())
        .containsExactly("1x", "2", "tf.in-put:0", "\"a\"", "$k", "unit")
        .inOrder();
    assertThat(p.integerAttribute("1x")).isEqualTo(OptionalLong.of(2));
    assertThat(p.stringAttribute("tf.in-put:0")).hasValue("a");
    assertThat(Declaration.parse(text).print()).isEqualTo(text);
  }

  @Test
  void asyncIsCoarseFences() {
    String text =
        "async func @predict(%input0: tensor<1x28x28x1xf32>) -> (%output0: tensor<1x10xf32>)";
    Declaration d = Declaration.parse(text);
    assertThat(d.async()).isTrue();
    FunctionSignature sig = d.toSignature();
    assertThat(sig.model()).isEqualTo(CallingModel.COARSE_FENCES);
    assertThat(sig.vmArgumentCount()).isEqualTo(3);
    assertThat(CallingConvention.parse("0rrr_r").mismatches(sig)).isEmpty();
    assertThat(CallingConvention.parse("0r_r").matches(sig)).isFalse();
    assertThat(d.print()).isEqualTo(text);
  }

  @Test
  void resultsMayBeEmptyOrAbsent() {
    Declaration empty = Declaration.parse("sync func @__init() -> ()");
    assertThat(empty.arguments()).isEmpty();
    assertThat(empty.results()).isEmpty();
    assertThat(empty.print()).isEqualTo("sync func @__init() -> ()");
    Declaration absent = Declaration.parse("sync func @f(%input0: i32)");
    assertThat(absent.results()).isEmpty();
    assertThat(absent.print()).isEqualTo("sync func @f(%input0: i32) -> ()");
    assertThat(CallingConvention.parse("0i_v").mismatches(absent.toSignature())).isEmpty();
  }

  @Test
  void whitespaceIsTolerated() {
    Declaration d =
        Declaration.parse(
            "  sync   func  @f ( %a : i32 ,%b:  tensor<4xf32>  {  x = 1  } )  ->  ( )  ");
    assertThat(d.print()).isEqualTo("sync func @f(%a: i32, %b: tensor<4xf32> {x = 1}) -> ()");
    assertThat(d.arguments().get(1).attributes()).isEqualTo("x = 1");
    assertThat(Declaration.parse("sync func@f(%a: i32{x = 1})->(%r: i32)").print())
        .isEqualTo("sync func @f(%a: i32 {x = 1}) -> (%r: i32)");
    assertThat(Declaration.parse("sync func @f(%a: i32 {})").arguments().get(0).attributes())
        .isEmpty();
  }

  @Test
  void namesMayHoldColonsAndOtherPunctuation() {
    String text =
        "sync func @simple_mul$async.v2(%serving_default_input:0: tensor<4xf32>, %a.b-c$d:: i32)"
            + " -> (%x@1: index)";
    Declaration d = Declaration.parse(text);
    assertThat(d.name()).isEqualTo("simple_mul$async.v2");
    assertThat(d.arguments().get(0).name()).isEqualTo("serving_default_input:0");
    assertThat(d.arguments().get(1).name()).isEqualTo("a.b-c$d:");
    assertThat(d.results().get(0).name()).isEqualTo("x@1");
    assertThat(d.print()).isEqualTo(text);
    assertThat(Declaration.parse(d.print())).isEqualTo(d);
  }

  @Test
  void everyKindOfParameterType() {
    Map<String, AbiType> types = new LinkedHashMap<>();
    types.put("i32", new Scalar(ElementType.I32));
    types.put("f32", new Scalar(ElementType.F32));
    types.put("index", new Scalar(ElementType.INDEX));
    types.put("i1", new Scalar(ElementType.I1));
    types.put("tensor<4xf32>", f32(4));
    types.put(
        "tensor<?x8x8x3xf32>", new NdArray(ElementType.F32, Shape.of(Shape.DYNAMIC, 8, 8, 3)));
    types.put("tensor<f32>", f32());
    types.put("tensor<*xf32>", new NdArray(ElementType.F32, Shape.unranked()));
    types.put("tensor<4xf32, #enc>", f32(4));
    types.put("tensor<2xcomplex<f32>>", new NdArray(ElementType.COMPLEX64, Shape.of(2)));
    types.put("!hal.buffer_view", NdArray.anyBufferView());
    types.put("!hal.buffer", new Ref("hal.buffer"));
    types.put("!hal.fence", new Ref("hal.fence"));
    types.put("!hal.device", new Ref("hal.device"));
    types.put("!util.list<?>", new HomogeneousList(new AbiType.Any()));
    types.put("!util.list<i32>", new HomogeneousList(new Scalar(ElementType.I32)));
    types.put("!util.list<!hal.buffer_view>", new HomogeneousList(NdArray.anyBufferView()));
    types.put("!vm.list<f64>", new HomogeneousList(new Scalar(ElementType.F64)));
    types.put("!iree_input.list<?>", new HomogeneousList(new AbiType.Any()));
    types.put(
        "tuple<i32, tensor<4xf32>>",
        new Unsupported(
            "tuple",
            "tuple<i32, tensor<4xf32>>",
            ReflectionFormat.DECLARATION,
            MlirTypes.TUPLE_REASON));
    types.put(
        "memref<4xf32>",
        new Unsupported(
            "memref",
            "memref<4xf32>",
            ReflectionFormat.DECLARATION,
            "memref types do not cross IREE's function ABI; expected a tensor"));
    StringBuilder text = new StringBuilder("sync func @all(");
    int i = 0;
    for (String t : types.keySet()) {
      text.append(i == 0 ? "" : ", ").append("%input").append(i++).append(": ").append(t);
    }
    text.append(") -> (%output0: index)");
    Declaration d = Declaration.parse(text.toString());
    assertThat(d.toSignature().arguments()).containsExactlyElementsIn(types.values()).inOrder();
    assertThat(d.arguments().stream().map(Parameter::typeText))
        .containsExactlyElementsIn(types.keySet())
        .inOrder();
    assertThat(d.print()).isEqualTo(text.toString());
    assertThat(Declaration.parse(d.print())).isEqualTo(d);
  }

  @Test
  void builtDeclarationsPrintAndParseBack() {
    Declaration d =
        new Declaration(
            true,
            "step",
            List.of(
                Parameter.of("state", new HomogeneousList(new AbiType.Any())),
                new Parameter(
                    "x", f32(2, 2), "tensor<2x2xf32, #enc>", " iree.abi.consume = unit ")),
            List.of(Parameter.of("y", new Scalar(ElementType.INDEX))));
    assertThat(d.arguments().get(1).attributes()).isEqualTo("iree.abi.consume = unit");
    assertThat(d.print())
        .isEqualTo(
            "async func @step(%state: !util.list<?>, %x: tensor<2x2xf32, #enc>"
                + " {iree.abi.consume = unit}) -> (%y: index)");
    assertThat(Declaration.parse(d.print())).isEqualTo(d);
  }

  @Test
  void parametersAreValidated() {
    assertThrows(IllegalArgumentException.class, () -> Parameter.of("", f32(1)));
    assertThrows(IllegalArgumentException.class, () -> Parameter.of("a b", f32(1)));
    assertThrows(IllegalArgumentException.class, () -> Parameter.of("a,b", f32(1)));
    assertThrows(IllegalArgumentException.class, () -> Parameter.of("x", new AbiType.Unknown()));
    IllegalArgumentException wrongText =
        assertThrows(
            IllegalArgumentException.class, () -> new Parameter("x", f32(1), "tensor<2xf32>", ""));
    assertThat(wrongText)
        .hasMessageThat()
        .isEqualTo(
            "parameter %x: type text 'tensor<2xf32>' means tensor<2xf32>, not tensor<1xf32>");
    assertThrows(
        IllegalArgumentException.class, () -> new Parameter("x", f32(1), " tensor<1xf32>", ""));
    assertThrows(
        IllegalArgumentException.class, () -> new Parameter("x", f32(1), "tensor<1xf32", ""));
    assertThrows(
        IllegalArgumentException.class, () -> new Parameter("x", f32(1), "tensor<1xf32>", "= 1"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new Parameter("x", f32(1), "tensor<1xf32>", "a = 1}"));
    assertThrows(
        IllegalArgumentException.class, () -> new Declaration(false, "a b", List.of(), List.of()));
    assertThrows(
        IllegalArgumentException.class, () -> new Declaration(false, "", List.of(), List.of()));
  }

  @Test
  void errorsNameTheOffset() {
    assertError("", 0, "expected 'sync' or 'async', found the end of the text");
    assertError("func @f() -> ()", 0, "expected 'sync' or 'async', found 'func'");
    assertError("syncfunc @f()", 0, "expected 'sync' or 'async', found 'syncfunc'");
    assertError("sync fn @f()", 5, "expected 'func', found 'fn'");
    assertError("sync func f()", 10, "expected '@' and the function name, found 'f'");
    assertError("sync func @()", 11, "expected the function name after '@', found '('");
    assertError(
        "sync func @f", 12, "expected '(' to open the arguments, found the end of the text");
    assertError("sync func @f x()", 13, "expected '(' to open the arguments, found 'x'");
    assertError("sync func @f(a: i32)", 13, "expected '%' and the name of argument 0, found 'a'");
    assertError("sync func @f(%: i32)", 14, "expected the name of argument 0 after '%', found ':'");
    assertError(
        "sync func @f(% : i32)", 14, "expected the name of argument 0 after '%', found ' '");
    assertError("sync func @f(%a i32)", 16, "expected ':' and the type of %a, found 'i'");
    assertError("sync func @f(%a: )", 17, "expected the type of %a, found ')'");
    assertError(
        "sync func @f(%a: i32",
        20, "expected ',' or ')' after argument 0, found the end of the text");
    assertError(
        "sync func @f(%a: i32 %b: i32)", 21, "expected ',' or ')' after argument 0, found '%'");
    assertError(
        "sync func @f(%a: tensor<4xf32)",
        29, "expected '>' to close '<' opened at offset 23, found ')'");
    assertError("sync func @f(%a: i32,)", 21, "expected '%' and the name of argument 1, found ')'");
    assertError(
        "sync func @f(%a: i32) x",
        22, "expected '->' and the results, or the end of the declaration, found 'x'");
    assertError(
        "sync func @f(%a: i32) ->",
        24, "expected '(' to open the results, found the end of the text");
    assertError(
        "sync func @f(%a: i32) -> %b: i32", 25, "expected '(' to open the results, found '%'");
    assertError(
        "sync func @f(%a: i32) -> (%b: i32",
        33, "expected ',' or ')' after result 0, found the end of the text");
    assertError(
        "sync func @f(%a: i32) -> (%b: i32) x",
        35, "expected the end of the declaration after the results, found 'x'");
    assertError(
        "sync func @f(%a: i32 {x = \"a}) -> ()",
        36, "expected '\"' to close the string opened at offset 26, found the end of the text");
    assertError(
        "sync func @f(%a: i32 {x = 1) -> ()",
        27, "expected '}' to close the attributes of %a opened at offset 21, found ')'");
    assertError(
        "sync func @f(%a: i32 {x = [1}) -> ()",
        28, "expected ']' to close '[' opened at offset 26, found '}'");
    assertError(
        "sync func @f(%a: i32 {x = 1",
        27,
        "expected '}' to close the attributes of %a opened at offset 21, found the end of the text");
    assertError(
        "sync func @f(%a: i32 {= 1})",
        22, "expected an attribute name (an identifier or a string), found '='");
    assertError(
        "sync func @f(%a: i32 {x 1})", 24, "expected '=' or ',' after attribute name x, found '1'");
    assertError("sync func @f(%a: i32 {x = })", 25, "expected a value for attribute x after '='");
    assertError("sync func @f(%a: i32 {x = 1,})", 28, "expected an attribute name, found '}'");
    assertError(
        "sync func @f(%a: i32 {x = 1, x = 2})", 29, "duplicate attribute x (first at offset 22)");
    assertError(
        "sync func @f(%a: i32 {(x) = 2})",
        22, "expected an attribute name (an identifier or a string), found '('");
    String deep = "sync func @f(%a: " + "!util.list<".repeat(64) + "i32" + ">".repeat(64) + ")";
    assertError(
        deep,
        17 + 64 * 11,
        "types nested more than ParseLimits.MAX_DEPTH = 64 levels deep are not supported");
  }

  private static void assertError(String text, int offset, String detail) {
    AbiParseException e = assertThrows(AbiParseException.class, () -> Declaration.parse(text));
    assertWithMessage(text).that(e.format()).isEqualTo(ReflectionFormat.DECLARATION);
    assertWithMessage(text).that(e.position()).isEqualTo("offset " + offset);
    assertWithMessage(text).that(e.detail()).isEqualTo(detail);
    assertWithMessage(text)
        .that(e.getMessage())
        .isEqualTo("iree.abi.declaration at offset " + offset + ": " + detail);
  }
}
