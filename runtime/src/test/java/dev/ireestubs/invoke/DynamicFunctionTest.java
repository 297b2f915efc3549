package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.ndarray.BoolArray;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The defects of issue 19 through the dynamic invoker (the same through a generated stub:
 * processor's {@code StubValueChecksTest}).
 */
class DynamicFunctionTest {

  /** A backend function that runs {@code body} and records the argument list it was given. */
  private static final class Recording implements BackendFunction {
    final Function<VmList, VmList> body;
    VmList arguments;
    VmList results;

    Recording(Function<VmList, VmList> body) {
      this.body = body;
    }

    @Override
    public String qualifiedName() {
      return "m.f";
    }

    @Override
    public String callingConvention() {
      return "";
    }

    @Override
    public Map<String, String> reflection() {
      return Map.of();
    }

    @Override
    public VmList invoke(VmList arguments) {
      this.arguments = arguments;
      results = body.apply(arguments);
      return results;
    }
  }

  private static BufferView bytes(int halCode, byte... values) {
    ByteBuffer data = ByteBuffer.allocateDirect(values.length).order(ByteOrder.nativeOrder());
    data.put(values).flip();
    return BufferView.wrap(halCode, new long[] {values.length}, data);
  }

  @Test
  void anI1ResultInEightBitStorageIsABoolArray() {
    FunctionSignature s = AbiJson.parseFunction("{\"a\":[],\"r\":[[\"ndarray\",\"i1\",1,3]]}");
    for (int code : new int[] {0x10000008, 0x11000008, 0x12000008}) {
      Recording f = new Recording(args -> VmList.of(bytes(code, (byte) 1, (byte) 0, (byte) 1)));
      Object result = DynamicFunction.of(f, s).call();
      assertThat(result).isInstanceOf(BoolArray.class);
      assertThat(((BoolArray) result).toArray()).isEqualTo(new boolean[] {true, false, true});
      // The host-module check of the same list agrees.
      AbiValues.checkResults(s, VmList.of(bytes(code, (byte) 0, (byte) 0, (byte) 0)), "f");
    }
    Recording wide = new Recording(args -> VmList.of(IntArray.zeros(3).asBufferView()));
    IreeValueException e =
        assertThrows(IreeValueException.class, () -> DynamicFunction.of(wide, s).call());
    assertThat(e.side()).isEqualTo(IreeValueException.Side.RESULT);
    assertThat(e)
        .hasMessageThat()
        .startsWith("f: result: expected tensor<3xi1> but got tensor<3xi32>");
  }

  @Test
  void refSlotsWithNoReflectionTakeWhatAVariantListHolds() {
    // Only the calling convention: 0rr_r, as every torch or ONNX export has.
    FunctionSignature s = CallingConvention.parse("0rr_r").toSignature();
    Recording echo = new Recording(args -> VmList.of(args.get(0)));
    DynamicFunction f = DynamicFunction.of(echo, s);
    FloatArray array = FloatArray.of(new float[] {1, 2});
    Object result =
        f.call(
            List.of(List.of(1, List.of(2L, array)), Map.of("b", 2.5, "a", new float[][] {{3}})),
            Map.of());

    // Arguments: a list (nested), a map as its values in sorted key order, arrays as buffer views.
    VmList first = echo.arguments.getList(0);
    assertThat(first.getValue(0)).isEqualTo(VmValue.i32(1));
    assertThat(first.getList(1).getValue(0)).isEqualTo(VmValue.i64(2));
    assertThat(first.getList(1).get(1)).isInstanceOf(BufferView.class);
    VmList second = echo.arguments.getList(1);
    assertThat(second.get(0)).isInstanceOf(BufferView.class); // "a" first
    assertThat(second.getValue(1)).isEqualTo(VmValue.f64(2.5));

    // The list result comes back as a List, its arrays as arrays.
    assertThat(result).isInstanceOf(List.class);
    List<?> list = (List<?>) result;
    assertThat(list.get(0)).isEqualTo(1);
    assertThat(((FloatArray) ((List<?>) list.get(1)).get(1)).toArray())
        .isEqualTo(new float[] {1, 2});

    // A VmRef still passes as it is; a scalar cannot fill a ref slot, and says so in user words.
    OpaqueRef ref = OpaqueRef.of("hal.fence", "x");
    Recording refs = new Recording(args -> VmList.of(args.get(0)));
    assertThat(DynamicFunction.of(refs, s).call(ref, List.of())).isSameInstanceAs(ref);
    IreeValueException e = assertThrows(IreeValueException.class, () -> f.call(3, List.of()));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("f: arg0: expected ref (a VmRef, a List, a Map or an array) but got Integer");
  }

  @Test
  void messagesNameJavaTypesAsUsersWriteThem() {
    FunctionSignature s =
        AbiJson.parseFunction("{\"a\":[[\"sdict\",[\"a\",\"i32\"]],\"i32\"],\"r\":[]}");
    DynamicFunction f = DynamicFunction.of(new Recording(args -> VmList.of()), s);
    IreeValueException list = assertThrows(IreeValueException.class, () -> f.call(List.of(1), 2));
    assertThat(list).hasMessageThat().endsWith("but got List");
    assertThat(list).hasMessageThat().doesNotContain("ImmutableCollections");
    IreeValueException array =
        assertThrows(IreeValueException.class, () -> f.call(Map.of("a", 1), new float[][] {{1}}));
    assertThat(array).hasMessageThat().endsWith("but got float[][]");

    assertThat(JavaMapping.typeName(Map.of("k", 1))).isEqualTo("Map");
    assertThat(JavaMapping.typeName(new ArrayList<>())).isEqualTo("List");
    assertThat(JavaMapping.typeName(new int[0][0][0])).isEqualTo("int[][][]");
    assertThat(JavaMapping.typeName(List.of().toArray(new String[0]))).isEqualTo("String[]");
    assertThat(JavaMapping.typeName(java.util.Set.of())).isEqualTo("Set");
    Runnable lambda = () -> {};
    assertThat(JavaMapping.typeName(lambda)).isEqualTo("Runnable");
    assertThat(JavaMapping.typeName(FloatArray.zeros(1))).isEqualTo("FloatArray");
    assertThat(JavaMapping.aTypeName(1)).isEqualTo("an Integer");
    assertThat(JavaMapping.typeName((Object) null)).isEqualTo("null");
  }

  @Test
  void aFailingListElementIsNamedByItsIndex() {
    FunctionSignature s =
        AbiJson.parseFunction(
            "{\"a\":[[\"py_homogeneous_list\",[\"py_homogeneous_list\",[\"ndarray\",\"f32\",1,2]]]],"
                + "\"r\":[[\"py_homogeneous_list\",[\"slist\",\"i32\",\"i32\"]]]}");
    Recording f =
        new Recording(
            args ->
                VmList.of(
                    VmList.of(
                        VmList.of(VmValue.i32(1), VmValue.i32(2)),
                        VmList.of(VmValue.i32(3), VmValue.f32(4)))));
    FloatArray ok = FloatArray.zeros(2);
    IreeValueException argument =
        assertThrows(
            IreeValueException.class,
            () ->
                DynamicFunction.of(f, s)
                    .call(List.of(List.of(ok), List.of(ok, ok, FloatArray.zeros(3)))));
    assertThat(argument.path()).isEqualTo("f: arg0[1][2]");
    assertThat(argument)
        .hasMessageThat()
        .isEqualTo(
            "f: arg0[1][2]: expected tensor<2xf32> but got tensor<3xf32> (dimension 0 is 3, not 2)");
    IreeValueException result =
        assertThrows(
            IreeValueException.class, () -> DynamicFunction.of(f, s).call(List.of(List.of(ok))));
    assertThat(result.side()).isEqualTo(IreeValueException.Side.RESULT);
    assertThat(result).hasMessageThat().startsWith("f: result[1][1]: expected an i32 value");
  }

  @Test
  void aResultThatFailsToDecodeClosesTheResultList() {
    FunctionSignature s =
        AbiJson.parseFunction("{\"a\":[],\"r\":[[\"ndarray\",\"f32\",1,2],\"i32\"]}");
    AtomicInteger released = new AtomicInteger();
    Recording f =
        new Recording(
            args ->
                VmList.of(
                    FloatArray.zeros(2).asBufferView(),
                    OpaqueRef.withRelease("hal.fence", "fence", released::incrementAndGet)));
    IreeValueException e =
        assertThrows(IreeValueException.class, () -> DynamicFunction.of(f, s).call());
    assertThat(e).hasMessageThat().startsWith("f: result[1]: expected an i32 value but got a ref");
    assertThat(f.results.isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(1);

    // The host-module check of results releases them too.
    VmList checked =
        VmList.of(
            FloatArray.zeros(2).asBufferView(),
            OpaqueRef.withRelease("hal.fence", "fence", released::incrementAndGet));
    assertThrows(IreeValueException.class, () -> AbiValues.checkResults(s, checked, "f"));
    assertThat(checked.isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(2);
  }

  @Test
  void aValueFailureSaysItsSidePathAndProblem() {
    FunctionSignature s = AbiJson.parseFunction("{\"a\":[\"i32\"],\"r\":[]}");
    DynamicFunction f = DynamicFunction.of(new Recording(args -> VmList.of()), s);
    IreeValueException e = ValueFailures.argument(() -> f.call("x"));
    assertThat(e.path()).isEqualTo("f: arg0");
    assertThat(e.problem()).isEqualTo("expected i32 (an integral Number) but got String");
    assertThat(e).hasMessageThat().isEqualTo(e.path() + ": " + e.problem());
  }
}
