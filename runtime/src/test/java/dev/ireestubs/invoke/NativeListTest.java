package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.HalfArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exact native lists that come out of marshalling: order, nesting, widths, codes, bytes. */
class NativeListTest {

  @Test
  void sdictInSlistInSdictNestsListsInDescriptorOrder() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[[\"sdict\",[\"a\",[\"slist\",[\"sdict\",[\"x\",\"i8\"],[\"y\",\"i64\"]],\"f32\"]],"
                + "[\"b\",\"i16\"]]],\"r\":[]}");
    Object outer = Map.of("b", (short) 2, "a", List.of(Map.of("y", 7L, "x", (byte) -1), 0.5f));
    VmList args = AbiValues.packArguments(s, List.of(outer), Map.of(), "f");
    assertThat(args.size()).isEqualTo(1);
    VmList sdict = args.getList(0);
    assertThat(sdict.size()).isEqualTo(2);
    VmList slist = sdict.getList(0); // key "a" first: descriptor order
    assertThat(sdict.getValue(1)).isEqualTo(VmValue.i16((short) 2));
    VmList inner = slist.getList(0);
    assertThat(inner.getValue(0).type()).isEqualTo(VmValueType.I8);
    assertThat(inner.getValue(0).asI8()).isEqualTo((byte) -1);
    assertThat(inner.getValue(1)).isEqualTo(VmValue.i64(7));
    assertThat(slist.getValue(1)).isEqualTo(VmValue.f32(0.5f));
    assertThat(slist.elementType().isVariant()).isTrue();
  }

  @Test
  void buffersCarryTheHalCodeShapeAndNativeOrderBytes() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[[\"ndarray\",\"f32\",0],[\"ndarray\",\"i32\",2,null,2],[\"ndarray\",\"f16\",1,2]],\"r\":[]}");
    FloatArray scalar = FloatArray.scalar(1.5f);
    IntArray matrix = IntArray.of(new int[][] {{1, 2}, {3, 4}, {5, 6}});
    HalfArray half = HalfArray.of(new float[] {1, -2});
    VmList args = AbiValues.packArguments(s, List.of(scalar, matrix, half), Map.of(), "f");

    BufferView v0 = args.getBufferView(0);
    assertThat(v0.elementTypeCode()).isEqualTo(0x21000020); // FLOAT_32
    assertThat(v0.shape()).isEqualTo(new long[0]);
    assertThat(v0.data().order()).isEqualTo(ByteOrder.nativeOrder());
    assertThat(v0.data().getFloat(0)).isEqualTo(1.5f);

    BufferView v1 = args.getBufferView(1);
    assertThat(v1.shape()).isEqualTo(new long[] {3, 2}); // the unknown dim takes the value's
    assertThat(v1.byteLength()).isEqualTo(24);
    assertThat(v1.data().getInt(4 * 5)).isEqualTo(6); // row-major
    assertThat(v1.isDirect()).isTrue();

    BufferView v2 = args.getBufferView(2);
    assertThat(v2.elementTypeCode()).isEqualTo(0x21000010); // FLOAT_16
    assertThat(v2.data().getShort(0)).isEqualTo((short) 0x3C00); // 1.0 in binary16
    assertThat(v2.data().getShort(2)).isEqualTo((short) 0xC000); // -2.0
  }

  @Test
  void zeroCopyIsTheSameMemory() {
    FunctionSignature s = AbiJson.parseFunction("{\"a\":[[\"ndarray\",\"f32\",1,2]],\"r\":[]}");
    FloatArray x = FloatArray.of(new float[] {1, 2});
    BufferView view = AbiValues.packArguments(s, List.of(x), Map.of(), "f").getBufferView(0);
    view.data().putFloat(4, 42f); // write through the VM side ...
    assertThat(x.get(1)).isEqualTo(42f); // ... and read it from the Java side
  }

  @Test
  void errorPathsNameTheFunctionAndPath() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[[\"sdict\",[\"a\",[\"slist\",[\"sdict\",[\"x\",[\"ndarray\",\"f32\",1,2]]]]]]],\"r\":[]}");
    Object wrongShape = Map.of("a", List.of(Map.of("x", FloatArray.zeros(3))));
    assertThat(
            ValueFailures.argument(
                () -> AbiValues.packArguments(s, List.of(wrongShape), Map.of(), "f")))
        .hasMessageThat()
        .isEqualTo(
            "f: arg0.a[0].x: expected tensor<2xf32> but got tensor<3xf32> (dimension 0 is 3, not 2)");
    Object wrongType = Map.of("a", List.of(Map.of("x", IntArray.zeros(2))));
    assertThat(
            ValueFailures.argument(
                () -> AbiValues.packArguments(s, List.of(wrongType), Map.of(), "f")))
        .hasMessageThat()
        .isEqualTo(
            "f: arg0.a[0].x: expected tensor<2xf32> but got tensor<2xi32> (element type i32, not f32)");
    assertThat(ValueFailures.argument(() -> AbiValues.packArguments(s, List.of(), Map.of(), "f")))
        .hasMessageThat()
        .isEqualTo("f: arg0: no value given; expected sdict{a: slist[sdict{x: tensor<2xf32>}]}");
    assertThat(
            ValueFailures.argument(
                () -> AbiValues.packArguments(s, List.of(Map.of("a", List.of())), Map.of(), "f")))
        .hasMessageThat()
        .isEqualTo("f: arg0.a: expected 1 element (slist[sdict{x: tensor<2xf32>}]) but got 0");
    java.util.HashMap<String, Object> nullValue = new java.util.HashMap<>();
    nullValue.put("a", null);
    assertThat(
            ValueFailures.argument(
                () -> AbiValues.packArguments(s, List.of(nullValue), Map.of(), "f")))
        .hasMessageThat()
        .isEqualTo("f: arg0.a: is null; expected slist[sdict{x: tensor<2xf32>}]");
  }
}
