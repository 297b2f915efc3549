package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.ndarray.BFloat16Array;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.HalfArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AbiValuesTest {

  private static AbiType type(String json) {
    return AbiJson.parseType(json);
  }

  @Test
  void scalarsEncodeToValuesOfTheDeclaredWidth() {
    assertThat(AbiValues.encode(type("\"i8\""), 5, "f: a")).isEqualTo(VmValue.i8((byte) 5));
    assertThat(AbiValues.encode(type("\"i16\""), (short) 5, "f: a"))
        .isEqualTo(VmValue.i16((short) 5));
    assertThat(AbiValues.encode(type("\"i32\""), 5L, "f: a")).isEqualTo(VmValue.i32(5));
    assertThat(AbiValues.encode(type("\"i64\""), 5, "f: a")).isEqualTo(VmValue.i64(5));
    assertThat(AbiValues.encode(type("\"f32\""), 1.5, "f: a")).isEqualTo(VmValue.f32(1.5f));
    assertThat(AbiValues.encode(type("\"f64\""), 2, "f: a")).isEqualTo(VmValue.f64(2));
    assertThat(AbiValues.encode(type("\"i1\""), true, "f: a")).isEqualTo(VmValue.i32(1));
  }

  @Test
  void scalarMismatchesAreClear() {
    assertThat(ValueFailures.argument(() -> AbiValues.encode(type("\"i8\""), 300, "f: a")))
        .hasMessageThat()
        .isEqualTo("f: a: expected an i8 but 300 does not fit in 8 bits");
    assertThat(ValueFailures.argument(() -> AbiValues.encode(type("\"i32\""), 1.5, "f: a")))
        .hasMessageThat()
        .isEqualTo("f: a: expected i32 (an integral Number) but got Double");
    assertThat(ValueFailures.argument(() -> AbiValues.encode(type("\"i1\""), 1, "f: a")))
        .hasMessageThat()
        .isEqualTo("f: a: expected i1 (a Boolean) but got Integer");
    assertThat(ValueFailures.argument(() -> AbiValues.encode(type("\"f16\""), 1.0, "f: a")))
        .hasMessageThat()
        .contains("a scalar f16 has no VM value type");
    assertThat(ValueFailures.argument(() -> AbiValues.encode(type("\"i32\""), null, "f: a")))
        .hasMessageThat()
        .isEqualTo("f: a: is null; expected i32");
  }

  @Test
  void arraysAcceptTypedArraysBufferViewsAndJavaArrays() {
    AbiType t = type("[\"ndarray\",\"f32\",2,null,2]");
    FloatArray a = FloatArray.of(new float[][] {{1, 2}, {3, 4}});
    assertThat(((BufferView) AbiValues.encode(t, a, "f: x")).data().getFloat(12)).isEqualTo(4f);
    assertThat(AbiValues.encode(t, a.asBufferView(), "f: x")).isInstanceOf(BufferView.class);
    BufferView copied = (BufferView) AbiValues.encode(t, new float[][] {{1, 2}, {3, 4}}, "f: x");
    assertThat(FloatArray.fromBufferView(copied)).isEqualTo(a);
    assertThat(ValueFailures.argument(() -> AbiValues.encode(t, new double[][] {{1, 2}}, "f: x")))
        .hasMessageThat()
        .contains("(element type f64, not f32)");
    assertThat(ValueFailures.argument(() -> AbiValues.encode(t, "text", "f: x")))
        .hasMessageThat()
        .isEqualTo(
            "f: x: expected tensor<?x2xf32> (an NdArray, a BufferView or a Java array) but got"
                + " String");
  }

  @Test
  void halfFloatAndUnsignedArraysPassWhereTheReferenceRefusesThem() {
    HalfArray h = HalfArray.zeros(2);
    BFloat16Array b = BFloat16Array.zeros(2);
    UByteArray u = UByteArray.zeros(3);
    AbiValues.encode(type("[\"ndarray\",\"f16\",1,2]"), h, "f: h");
    AbiValues.encode(type("[\"ndarray\",\"bf16\",1,2]"), b, "f: b");
    AbiValues.encode(type("[\"ndarray\",\"i8\",1,3]"), u, "f: u");
    assertThat(AbiValues.decode(type("[\"ndarray\",\"f16\",1,2]"), h.asBufferView(), "f: r"))
        .isEqualTo(h);
  }

  record Features(FloatArray image, int classId) {}

  @Test
  void sdictTakesMapsOrRecordsAndPacksInDescriptorOrder() {
    AbiType t = type("[\"sdict\",[\"class_id\",\"i32\"],[\"image\",[\"ndarray\",\"f32\",1,2]]]");
    FloatArray image = FloatArray.zeros(2);
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("image", image);
    map.put("class_id", 7);
    VmList fromMap = (VmList) AbiValues.encode(t, map, "f: features");
    assertThat(fromMap.get(0)).isEqualTo(VmValue.i32(7));
    assertThat(fromMap.get(1)).isInstanceOf(BufferView.class);
    VmList fromRecord = (VmList) AbiValues.encode(t, new Features(image, 7), "f: features");
    assertThat(fromRecord.get(0)).isEqualTo(VmValue.i32(7));

    Object decoded = AbiValues.decode(t, fromMap, "f: result");
    assertThat(decoded).isEqualTo(Map.of("class_id", 7, "image", image));
    assertThat(((Map<?, ?>) decoded).keySet()).containsExactly("class_id", "image").inOrder();
  }

  @Test
  void sdictKeySetsMustBeExact() {
    AbiType t = type("[\"sdict\",[\"a\",\"i32\"],[\"b\",\"i32\"]]");
    assertThat(ValueFailures.argument(() -> AbiValues.encode(t, Map.of("a", 1), "f: d")))
        .hasMessageThat()
        .isEqualTo("f: d: missing key 'b'; expected keys [a, b]");
    assertThat(
            ValueFailures.argument(
                () -> AbiValues.encode(t, Map.of("a", 1, "b", 2, "c", 3), "f: d")))
        .hasMessageThat()
        .isEqualTo("f: d: unexpected keys [c]; expected exactly [a, b]");
    assertThat(ValueFailures.argument(() -> AbiValues.encode(t, Map.of("a", 1, "b", "x"), "f: d")))
        .hasMessageThat()
        .isEqualTo("f: d.b: expected i32 (an integral Number) but got String");
  }

  record Pair(int first, float second) {}

  @Test
  void sequencesTakeListsArraysOrRecords() {
    AbiType t = type("[\"stuple\",\"i32\",\"f32\"]");
    VmList a = (VmList) AbiValues.encode(t, List.of(1, 2f), "f: p");
    VmList b = (VmList) AbiValues.encode(t, new Object[] {1, 2f}, "f: p");
    VmList c = (VmList) AbiValues.encode(t, new Pair(1, 2f), "f: p");
    assertThat(a).isEqualTo(b);
    assertThat(a).isEqualTo(c);
    assertThat(AbiValues.decode(t, a, "f: r")).isEqualTo(List.of(1, 2f));
    assertThat(ValueFailures.argument(() -> AbiValues.encode(t, List.of(1), "f: p")))
        .hasMessageThat()
        .isEqualTo("f: p: expected 2 elements (stuple[i32, f32]) but got 1");
  }

  /** A record whose accessor throws: on the side its value was going to. */
  record Broken(int first, float second) {
    @Override
    public int first() {
      throw new IllegalStateException("not ready");
    }
  }

  @Test
  void anUnreadableRecordComponentFailsOnItsValuesSide() {
    AbiType t = type("[\"stuple\",\"i32\",\"f32\"]");
    Broken broken = new Broken(1, 2f);
    assertThat(ValueFailures.argument(() -> AbiValues.encode(t, broken, "f: p")))
        .hasMessageThat()
        .startsWith("f: p: cannot read component first of record");
    assertThat(ValueFailures.result(() -> AbiValues.encodeResult(t, broken, "f: r")))
        .hasMessageThat()
        .startsWith("f: r: cannot read component first of record");
  }

  @Test
  void homogeneousListsHaveAnyLength() {
    AbiType t = type("[\"py_homogeneous_list\",\"i64\"]");
    VmList list = (VmList) AbiValues.encode(t, List.of(1, 2, 3), "f: xs");
    assertThat(list.size()).isEqualTo(3);
    assertThat(AbiValues.decode(t, list, "f: r")).isEqualTo(List.of(1L, 2L, 3L));
    assertThat(ValueFailures.argument(() -> AbiValues.encode(t, List.of(1, "x"), "f: xs")))
        .hasMessageThat()
        .startsWith("f: xs[1]: ");
  }

  @Test
  void anyDescriptorsMarshalByJavaType() {
    AbiType any = type("null");
    assertThat(AbiValues.encode(any, 3, "f: x")).isEqualTo(VmValue.i32(3));
    assertThat(AbiValues.encode(any, 3L, "f: x")).isEqualTo(VmValue.i64(3));
    VmList sorted = (VmList) AbiValues.encode(any, Map.of("b", 2.0, "a", 1.0), "f: x");
    assertThat(sorted).isEqualTo(VmList.of(VmValue.f64(1), VmValue.f64(2)));
    assertThat(AbiValues.decode(any, VmList.of(VmValue.i32(1), VmValue.f32(2)), "f: r"))
        .isEqualTo(List.of(1, 2f));
  }

  @Test
  void refsPassThroughAndAreTypeChecked() {
    OpaqueRef fence = OpaqueRef.of("hal.fence", "x");
    assertThat(AbiValues.encode(AbiType.Ref.any(), fence, "f: r")).isSameInstanceAs(fence);
    assertThat(AbiValues.encode(new AbiType.Ref("hal.fence"), fence, "f: r"))
        .isSameInstanceAs(fence);
    assertThat(
            ValueFailures.argument(
                () -> AbiValues.encode(new AbiType.Ref("hal.device"), fence, "f: r")))
        .hasMessageThat()
        .isEqualTo("f: r: expected a ref of type hal.device but got one of type hal.fence");
  }

  @Test
  void unsupportedRecordsAreRefusedWithTheirSource() {
    AbiType t = type("[\"pytuple\",\"i32\"]");
    assertThat(ValueFailures.argument(() -> AbiValues.encode(t, List.of(1), "f: t")))
        .hasMessageThat()
        .startsWith(
            "f: t: the signature uses [\"pytuple\",\"i32\"], which iree-stubs cannot marshal");
  }

  @Test
  void packArgumentsFollowsIreeRulesForNamedArguments() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[\"i32\",[\"named\",\"scale\",\"f32\"]],\"r\":[\"i32\"],\"v\":1}");
    VmList args = AbiValues.packArguments(s, List.of(1), Map.of("scale", 2f), "f");
    assertThat(args).isEqualTo(VmList.of(VmValue.i32(1), VmValue.f32(2)));
    assertThat(
            ValueFailures.argument(() -> AbiValues.packArguments(s, List.of(1, 2f), Map.of(), "f")))
        .hasMessageThat()
        .isEqualTo("f: expected at most 1 positional argument (pass scale by name) but got 2");
    assertThat(ValueFailures.argument(() -> AbiValues.packArguments(s, List.of(1), Map.of(), "f")))
        .hasMessageThat()
        .isEqualTo("f: scale: no value given; expected named scale: f32");
    assertThat(
            ValueFailures.argument(
                () -> AbiValues.packArguments(s, List.of(1), Map.of("scal", 1f), "f")))
        .hasMessageThat()
        .isEqualTo("f: no argument is named 'scal'; named: scale");
  }

  @Test
  void resultsAreInlinedForOneStructure() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[],\"r\":[[\"sdict\",[\"logits\",[\"ndarray\",\"f32\",1,2]],[\"n\",\"i32\"]]]}");
    FloatArray logits = FloatArray.of(new float[] {1, 2});
    VmList raw = VmList.of(logits.asBufferView(), VmValue.i32(4));
    assertThat(AbiValues.unpackResults(s, raw, "f")).isEqualTo(Map.of("logits", logits, "n", 4));
    AbiValues.checkResults(s, raw, "f");
    VmList bad = VmList.of(FloatArray.zeros(3).asBufferView(), VmValue.i32(4));
    assertThat(ValueFailures.result(() -> AbiValues.checkResults(s, bad, "f")))
        .hasMessageThat()
        .isEqualTo(
            "f: result.logits: expected tensor<2xf32> but got tensor<3xf32>"
                + " (dimension 0 is 3, not 2)");
  }

  @Test
  void severalResultsComeBackAsAList() {
    FunctionSignature s =
        AbiJson.parseFunction("{\"a\":[],\"r\":[\"i32\",[\"ndarray\",\"i32\",1,1]]}");
    IntArray ids = IntArray.of(new int[] {9});
    assertThat(AbiValues.unpackResults(s, VmList.of(VmValue.i32(1), ids.asBufferView()), "f"))
        .isEqualTo(List.of(1, ids));
    assertThat(
            ValueFailures.result(
                () -> AbiValues.checkResults(s, VmList.of(VmValue.i32(1), VmValue.i32(2)), "f")))
        .hasMessageThat()
        .isEqualTo("f: result[1]: expected tensor<1xi32> (a buffer view) but got the value i32 2");
    FunctionSignature none = AbiJson.parseFunction("{\"a\":[],\"r\":[]}");
    assertThat(AbiValues.unpackResults(none, VmList.variant(0), "f")).isNull();
  }

  @Test
  void checkArgumentsNamesTheArgument() {
    FunctionSignature s =
        AbiJson.parseFunction("{\"a\":[[\"named\",\"ids\",[\"ndarray\",\"i32\",1,3]]],\"r\":[]}");
    assertThat(
            ValueFailures.argument(
                () -> AbiValues.checkArguments(s, VmList.of(VmValue.i32(1)), "embed")))
        .hasMessageThat()
        .isEqualTo("embed: ids: expected tensor<3xi32> (a buffer view) but got the value i32 1");
    assertThat(
            ValueFailures.argument(() -> AbiValues.checkArguments(s, VmList.variant(0), "embed")))
        .hasMessageThat()
        .isEqualTo("embed: expected 1 argument but got 0");
  }

  @Test
  void cyclicDynamicValuesAreRefused() {
    VmList self = VmList.variant(1);
    self.push(self);
    assertThat(ValueFailures.result(() -> AbiValues.decode(type("null"), self, "f: r")))
        .hasMessageThat()
        .contains("nested more than");
  }

  @Test
  void positionalValuesFillTheUnnamedArgumentsWhereverTheNamedOnesAre() {
    FunctionSignature s =
        AbiJson.parseFunction("{\"a\":[[\"named\",\"x\",\"i32\"],\"i64\"],\"r\":[]}");
    VmList args = AbiValues.packArguments(s, List.of(1), Map.of("x", 2), "f");
    assertThat(args).isEqualTo(VmList.of(VmValue.i32(2), VmValue.i64(1)));
  }

  @Test
  void unsignedScalarsTakeTheirUnsignedRangeOrTheSameBitsSigned() {
    AbiType ui8 = AbiJson.parseType("\"i8\"");
    AbiType declared = new AbiType.Scalar(dev.ireestubs.abi.ElementType.UI8);
    assertThat(AbiValues.encode(declared, 200, "f: a")).isEqualTo(VmValue.i8((byte) 200));
    assertThat(AbiValues.encode(declared, -56, "f: a")).isEqualTo(VmValue.i8((byte) -56));
    ValueFailures.argument(() -> AbiValues.encode(declared, 256, "f: a"));
    ValueFailures.argument(() -> AbiValues.encode(ui8, 200, "f: a"));
    assertThat(AbiValues.decode(declared, VmValue.i32(200), "f: r")).isEqualTo((byte) 200);
  }

  @Test
  void checksPassValidListsAndStillNameWhatIsWrong() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",2,1,3]],[\"t\",\"f32\"]],"
                + "[\"py_homogeneous_list\",\"i32\"]],"
                + "\"r\":[[\"sdict\",[\"a\",\"i32\"],[\"b\",[\"ndarray\",\"f32\",1,2]]]],\"v\":1}");
    VmList dict = VmList.of(FloatArray.zeros(1, 3).asBufferView(), VmValue.f32(1));
    VmList ints = VmList.of(VmValue.i32(1), VmValue.i32(2));
    AbiValues.checkArguments(s, VmList.of(dict, ints), "f");
    VmList results = VmList.of(VmValue.i32(1), FloatArray.zeros(2).asBufferView());
    AbiValues.checkResults(s, results, "f");

    VmList badInts = VmList.of(VmValue.i32(1), VmValue.f32(2));
    assertThat(
            ValueFailures.argument(() -> AbiValues.checkArguments(s, VmList.of(dict, badInts), "f"))
                .getMessage())
        .contains("f: arg1[1]");
    VmList badDict = VmList.of(FloatArray.zeros(1, 4).asBufferView(), VmValue.f32(1));
    assertThat(
            ValueFailures.argument(() -> AbiValues.checkArguments(s, VmList.of(badDict, ints), "f"))
                .getMessage())
        .contains("f: arg0.image");
    VmList badResults = VmList.of(VmValue.i64(1L << 40), FloatArray.zeros(2).asBufferView());
    assertThat(ValueFailures.result(() -> AbiValues.checkResults(s, badResults, "f")).getMessage())
        .contains("f: result.a");
  }

  @Test
  void refSlotsMatchTheirTypeWithOrWithoutTheBang() {
    FunctionSignature s =
        new FunctionSignature(
            List.of(new AbiType.Ref("!vm.list"), new AbiType.Ref("hal.fence")),
            List.of(),
            dev.ireestubs.abi.ReflectionFormat.IREE_ABI_JSON,
            FunctionSignature.CallingModel.SYNC,
            java.util.OptionalInt.empty());
    OpaqueRef fence = OpaqueRef.of("hal.fence", "x");
    AbiValues.checkArguments(s, VmList.of(VmList.variant(0), fence), "f");
    AbiValues.checkArguments(s, VmList.of(null, null), "f");
    assertThat(
            ValueFailures.argument(() -> AbiValues.checkArguments(s, VmList.of(fence, fence), "f"))
                .getMessage())
        .contains("expected a ref of type vm.list but got one of type hal.fence");
    assertThat(
            ValueFailures.argument(
                    () -> AbiValues.checkArguments(s, VmList.of(null, VmList.variant(0)), "f"))
                .getMessage())
        .contains("expected a ref of type hal.fence but got one of type vm.list");
  }

  record Sample(FloatArray image, float t) {}

  @Test
  void packAndUnpackNameThePathOnlyWhenAValueIsWrong() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",2,1,3]],[\"t\",\"f32\"]]],"
                + "\"r\":[[\"sdict\",[\"a\",\"i32\"],[\"b\",[\"ndarray\",\"f32\",1,2]]]],\"v\":1}");
    VmList packed =
        AbiValues.packArguments(
            s, List.of(Map.of("image", FloatArray.zeros(1, 3), "t", 2f)), Map.of(), "f");
    assertThat(packed.getList(0).size()).isEqualTo(2);
    // A record twice: its accessors are looked up once per class and still read each instance.
    for (float t : new float[] {1f, 3f}) {
      VmList fromRecord =
          AbiValues.packArguments(s, List.of(new Sample(FloatArray.zeros(1, 3), t)), Map.of(), "f");
      assertThat(fromRecord.getList(0).getValue(1).asF32()).isEqualTo(t);
    }
    assertThat(
            ValueFailures.argument(
                    () ->
                        AbiValues.packArguments(
                            s,
                            List.of(Map.of("image", FloatArray.zeros(1, 4), "t", 2f)),
                            Map.of(),
                            "f"))
                .getMessage())
        .startsWith("f: arg0.image: expected");
    assertThat(
            ValueFailures.argument(
                    () ->
                        AbiValues.packArguments(
                            s, List.of(Map.of("image", FloatArray.zeros(1, 3))), Map.of(), "f"))
                .getMessage())
        .isEqualTo("f: arg0: missing key 't'; expected keys [image, t]");
    Object unpacked =
        AbiValues.unpackResults(
            s, VmList.of(VmValue.i32(4), FloatArray.zeros(2).asBufferView()), "f");
    assertThat(((Map<?, ?>) unpacked).get("a")).isEqualTo(4);
    VmList bad = VmList.of(VmValue.i32(4), FloatArray.zeros(3).asBufferView());
    assertThat(ValueFailures.result(() -> AbiValues.unpackResults(s, bad, "f")).getMessage())
        .startsWith("f: result.b: expected");
    assertThat(bad.isClosed()).isTrue();
  }

  @Test
  void scalarResultsComeAsTheNarrowestPrimitiveBox() {
    AbiType i3 = new AbiType.Scalar(dev.ireestubs.abi.ElementType.integer(3));
    AbiType ui16 = new AbiType.Scalar(dev.ireestubs.abi.ElementType.UI16);
    AbiType i33 = new AbiType.Scalar(dev.ireestubs.abi.ElementType.integer(33));
    AbiType i1 = new AbiType.Scalar(dev.ireestubs.abi.ElementType.I1);
    AbiType f32 = new AbiType.Scalar(dev.ireestubs.abi.ElementType.F32);
    AbiType f64 = new AbiType.Scalar(dev.ireestubs.abi.ElementType.F64);
    assertThat(AbiValues.decode(i3, VmValue.i32(3), "f: result")).isEqualTo((byte) 3);
    assertThat(AbiValues.decode(ui16, VmValue.i32(65535), "f: result")).isEqualTo((short) -1);
    assertThat(AbiValues.decode(i33, VmValue.i64(1L << 31), "f: result")).isEqualTo(1L << 31);
    assertThat(AbiValues.decode(i1, VmValue.i32(1), "f: result")).isEqualTo(true);
    assertThat(AbiValues.decode(f32, VmValue.f32(1.5f), "f: result")).isEqualTo(1.5f);
    assertThat(AbiValues.decode(f64, VmValue.f64(2.5), "f: result")).isEqualTo(2.5);
    AbiType i65 = new AbiType.Scalar(dev.ireestubs.abi.ElementType.integer(65));
    assertThat(
            ValueFailures.result(() -> AbiValues.decode(i65, VmValue.i64(1), "f: result"))
                .getMessage())
        .contains("a scalar i65 has no VM value type");
  }
}
