package dev.ireestubs.internal;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ValueFailures;
import dev.ireestubs.ndarray.DoubleArray;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.ndarray.UIntArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MarshalTest {

  private static final AbiType.NdArray IMAGE =
      new AbiType.NdArray(ElementType.F32, Shape.of(1, 28, 28));
  private static final AbiType.NdArray BATCH =
      new AbiType.NdArray(ElementType.F32, Shape.of(Shape.DYNAMIC, 4));

  @Test
  void arrayResultsOfAClassAndJavaArrayCopies() {
    VmList results =
        VmList.of(
            FloatArray.of(new float[] {1, 2}).asBufferView(),
            IntArray.of(new int[] {3}).asBufferView());
    AbiType.NdArray two = new AbiType.NdArray(ElementType.F32, Shape.of(2));
    AbiType.NdArray anyI32 = new AbiType.NdArray(ElementType.I32, Shape.of(1));
    assertThat(Marshal.array(results, 0, two, FloatArray.class, "f: result[0]").toArray())
        .isEqualTo(new float[] {1, 2});
    assertThat(Marshal.array(results, 0, two, dev.ireestubs.ndarray.NdArray.class, "f: result[0]"))
        .isInstanceOf(FloatArray.class);
    assertThat(Marshal.array(results, 1, anyI32, UIntArray.class, "f: result[1]").get(0))
        .isEqualTo(3);
    IreeValueException wrongClass =
        ValueFailures.result(
            () ->
                Marshal.array(
                    results, 0, AbiType.NdArray.anyBufferView(), IntArray.class, "f: result[0]"));
    assertThat(wrongClass).hasMessageThat().startsWith("f: result[0]: ");
    assertThat(Marshal.copy(new double[][] {{1, 2}}, IMAGE, "f: x"))
        .isInstanceOf(DoubleArray.class);
    assertThat(
            ValueFailures.argument(() -> Marshal.copy(new float[][] {{1, 2}, {3}}, IMAGE, "f: x")))
        .hasMessageThat()
        .startsWith("f: x: ");
    assertThat(ValueFailures.argument(() -> Marshal.copy(null, IMAGE, "f: x")))
        .hasMessageThat()
        .isEqualTo("f: x: is null; expected tensor<1x28x28xf32>");
  }

  @Test
  void arrayArgumentSharesMemoryWhenItFits() {
    FloatArray image = FloatArray.zeros(1, 28, 28);
    BufferView view = Marshal.array(image, IMAGE, "predict: features.image");
    image.set(5f, 0, 3, 4);
    assertThat(FloatArray.fromBufferView(view).get(0, 3, 4)).isEqualTo(5f);
    assertThat(Marshal.array(FloatArray.zeros(7, 4), BATCH, "p: x").shape())
        .isEqualTo(new long[] {7, 4});
  }

  @Test
  void arrayArgumentMessagesNameThePathTheDeclarationAndTheValue() {
    IreeValueException type =
        ValueFailures.argument(
            () -> Marshal.array(DoubleArray.zeros(1, 28, 28), IMAGE, "predict: features.image"));
    assertThat(type)
        .hasMessageThat()
        .isEqualTo(
            "predict: features.image: expected tensor<1x28x28xf32> but got tensor<1x28x28xf64>"
                + " (element type f64, not f32)");
    assertThat(type.path()).isEqualTo("predict: features.image");

    assertThat(
            ValueFailures.argument(
                () -> Marshal.array(FloatArray.zeros(28, 28), IMAGE, "predict: features.image")))
        .hasMessageThat()
        .endsWith("expected tensor<1x28x28xf32> but got tensor<28x28xf32> (rank 2, not 3)");
    assertThat(
            ValueFailures.argument(
                () -> Marshal.array(FloatArray.zeros(1, 28, 27), IMAGE, "predict: features.image")))
        .hasMessageThat()
        .endsWith("(dimension 2 is 27, not 28)");
    assertThat(ValueFailures.argument(() -> Marshal.array(null, IMAGE, "predict: image")))
        .hasMessageThat()
        .isEqualTo("predict: image: is null; expected tensor<1x28x28xf32>");
  }

  @Test
  void signlessDeclarationsAcceptEitherSignedness() {
    AbiType.NdArray ids = new AbiType.NdArray(ElementType.I32, Shape.of(3));
    Marshal.array(IntArray.of(new int[] {1, 2, 3}), ids, "f: ids");
    Marshal.array(UIntArray.zeros(3), ids, "f: ids");
    AbiType.NdArray signed = new AbiType.NdArray(ElementType.SI32, Shape.of(3));
    ValueFailures.argument(() -> Marshal.array(UIntArray.zeros(3), signed, "f: ids"));
  }

  @Test
  void copyReportsRaggedJavaArraysUnderThePath() {
    float[][] ragged = {{1, 2}, {3}};
    IreeValueException e =
        ValueFailures.argument(() -> Marshal.copy(ragged, FloatArray::of, BATCH, "predict: rows"));
    assertThat(e.path()).isEqualTo("predict: rows");
    assertThat(Marshal.copy(new float[][] {{1, 2}, {3, 4}}, FloatArray::of, BATCH, "p: x").shape())
        .isEqualTo(new long[] {2, 2});
  }

  @Test
  void sequenceChecksTheSize() {
    AbiType pair =
        new AbiType.Sequence(
            AbiType.SequenceKind.TUPLE,
            List.of(new AbiType.Scalar(ElementType.I32), new AbiType.Scalar(ElementType.I32)));
    assertThat(Marshal.sequence(List.of(1, 2), pair, 2, "f: pair").capacity()).isAtLeast(2);
    assertThat(ValueFailures.argument(() -> Marshal.sequence(List.of(1), pair, 2, "f: pair")))
        .hasMessageThat()
        .isEqualTo("f: pair: expected 2 elements (stuple[i32, i32]) but got 1");
  }

  @Test
  void resultCountIsChecked() {
    VmList two = VmList.of(VmValue.i32(1), VmValue.i32(2));
    assertThat(Marshal.results(two, 2, "f")).isSameInstanceAs(two);
    assertThat(ValueFailures.result(() -> Marshal.results(two, 3, "f")))
        .hasMessageThat()
        .isEqualTo("f: expected 3 results but the function returned 2");
  }

  @Test
  void scalarResultsAreReadAndRangeChecked() {
    VmList results =
        VmList.of(
            VmValue.i32(1),
            VmValue.i32(-128),
            VmValue.i32(40000),
            VmValue.i64(1L << 40),
            VmValue.f32(1.5f),
            VmValue.f64(2.25),
            VmValue.i32(7));
    assertThat(Marshal.i1(results, 0, "f: a")).isTrue();
    assertThat(Marshal.i8(results, 1, "f: b")).isEqualTo((byte) -128);
    assertThat(Marshal.i32(results, 2, "f: c")).isEqualTo(40000);
    assertThat(Marshal.i64(results, 3, "f: d")).isEqualTo(1L << 40);
    assertThat(Marshal.f32(results, 4, "f: e")).isEqualTo(1.5f);
    assertThat(Marshal.f64(results, 5, "f: f")).isEqualTo(2.25);
    assertThat(ValueFailures.result(() -> Marshal.i16(results, 2, "f: c")))
        .hasMessageThat()
        .isEqualTo("f: c: expected an i16 value but got 40000, which does not fit");
    assertThat(ValueFailures.result(() -> Marshal.i32(results, 3, "f: d")))
        .hasMessageThat()
        .contains("does not fit");
    assertThat(ValueFailures.result(() -> Marshal.i1(results, 6, "f: g")))
        .hasMessageThat()
        .isEqualTo("f: g: expected an i1 value but got 7, which does not fit");
    assertThat(ValueFailures.result(() -> Marshal.f32(results, 0, "f: a")))
        .hasMessageThat()
        .isEqualTo("f: a: expected an f32 value but got the value i32 1");
    assertThat(ValueFailures.result(() -> Marshal.i32(results, 4, "f: e")))
        .hasMessageThat()
        .isEqualTo("f: e: expected an i32 value but got the value f32 1.5");
    assertThat(ValueFailures.result(() -> Marshal.i32(results, 9, "f: z")))
        .hasMessageThat()
        .isEqualTo("f: z: expected a value at index 9 but the list has 7");
  }

  @Test
  void arrayResultsAreCheckedAndWrappedWithoutCopy() {
    FloatArray logits = FloatArray.zeros(1, 10);
    VmList results = VmList.of(logits.asBufferView(), VmValue.i32(3));
    AbiType.NdArray declared = new AbiType.NdArray(ElementType.F32, Shape.of(1, 10));
    FloatArray back = Marshal.array(results, 0, declared, FloatArray::fromBufferView, "f: logits");
    logits.set(9f, 0, 9);
    assertThat(back.get(0, 9)).isEqualTo(9f);

    AbiType.NdArray wrongShape = new AbiType.NdArray(ElementType.F32, Shape.of(1, 11));
    assertThat(ValueFailures.result(() -> Marshal.bufferView(results, 0, wrongShape, "f: logits")))
        .hasMessageThat()
        .isEqualTo(
            "f: logits: expected tensor<1x11xf32> but got tensor<1x10xf32>"
                + " (dimension 1 is 10, not 11)");
    assertThat(ValueFailures.result(() -> Marshal.bufferView(results, 1, declared, "f: x")))
        .hasMessageThat()
        .isEqualTo("f: x: expected tensor<1x10xf32> (a buffer view) but got the value i32 3");
  }

  @Test
  void listAndRefResults() {
    VmList inner = VmList.of(VmValue.i32(1));
    OpaqueRef fence = OpaqueRef.of("hal.fence", "x");
    VmList results = VmList.of(inner, fence);
    AbiType declared = new AbiType.HomogeneousList(new AbiType.Scalar(ElementType.I32));
    assertThat(Marshal.list(results, 0, declared, -1, "f: xs")).isSameInstanceAs(inner);
    assertThat(ValueFailures.result(() -> Marshal.list(results, 0, declared, 2, "f: xs")))
        .hasMessageThat()
        .isEqualTo("f: xs: expected 2 elements (list<i32>) but the list has 1");
    assertThat(Marshal.ref(results, 1, "f: fence")).isSameInstanceAs(fence);
    assertThat(Marshal.ref(results, 1, OpaqueRef.class, "f: fence")).isSameInstanceAs(fence);
    assertThat(ValueFailures.result(() -> Marshal.ref(results, 1, VmList.class, "f: l")))
        .hasMessageThat()
        .isEqualTo("f: l: expected a VmList but got a ref of type hal.fence");
  }

  @Test
  void requireKeysAcceptsExactlyTheKeysAndNamesWhatDiffers() {
    Map<String, Integer> ok = new LinkedHashMap<>();
    ok.put("b", 2);
    ok.put("a", 1);
    assertThat(Marshal.requireKeys(ok, List.of("a", "b"), "f: d")).isSameInstanceAs(ok);
    assertThat(Marshal.requireKeys(Map.of(), List.of(), "f: d")).isEmpty();

    assertThat(
            ValueFailures.argument(
                () -> Marshal.requireKeys(Map.of("a", 1), List.of("a", "b"), "f: d")))
        .hasMessageThat()
        .isEqualTo("f: d: missing key 'b'; expected keys [a, b]");
    assertThat(
            ValueFailures.argument(
                () ->
                    Marshal.requireKeys(Map.of("a", 1, "b", 2, "c", 3), List.of("a", "b"), "f: d")))
        .hasMessageThat()
        .isEqualTo("f: d: unexpected keys [c]; expected exactly [a, b]");
    Map<String, Integer> nullKey = new HashMap<>(Map.of("a", 1));
    nullKey.put(null, 0);
    assertThat(ValueFailures.argument(() -> Marshal.requireKeys(nullKey, List.of("a"), "f: d")))
        .hasMessageThat()
        .isEqualTo("f: d: unexpected keys [null]; expected exactly [a]");
    assertThat(
            ValueFailures.argument(
                () -> Marshal.requireKeys((Map<String, ?>) null, List.of("a"), "f: d")))
        .hasMessageThat()
        .isEqualTo("f: d: is null");
  }

  @Test
  void listFormatsTheDeclaredTypeOnlyForAProblem() {
    AbiType pair =
        new AbiType.Sequence(
            AbiType.SequenceKind.LIST,
            List.of(new AbiType.Scalar(ElementType.I32), new AbiType.Scalar(ElementType.I32)));
    VmList two = VmList.of(VmValue.i32(1), VmValue.i32(2));
    assertThat(Marshal.list(VmList.of(two), 0, pair, 2, "f: result")).isSameInstanceAs(two);
    assertThat(
            ValueFailures.result(() -> Marshal.list(VmList.of(two), 0, pair, 3, "f: result"))
                .getMessage())
        .contains("expected 3 elements (" + pair + ") but the list has 2");
  }

  @Test
  void inFunctionPutsTheFunctionBeforeAPathInsideIt() {
    RuntimeException inside =
        ValueFailures.argument(
            () ->
                Marshal.array(
                    FloatArray.zeros(3), new AbiType.NdArray(ElementType.F32, Shape.of(2)), "x"));
    RuntimeException named = Marshal.inFunction(inside, "predict");
    assertThat(((IreeValueException) named).side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    // The message a path with the function in it would have given from the start.
    RuntimeException whole =
        ValueFailures.argument(
            () ->
                Marshal.array(
                    FloatArray.zeros(3),
                    new AbiType.NdArray(ElementType.F32, Shape.of(2)),
                    "predict: x"));
    assertThat(named).hasMessageThat().isEqualTo(whole.getMessage());
    assertThat(named.getStackTrace()).isEqualTo(inside.getStackTrace());
    // Anything else passes through.
    IllegalStateException other = new IllegalStateException("closed");
    assertThat(Marshal.inFunction(other, "predict")).isSameInstanceAs(other);
  }

  @Test
  void inFunctionRenamesTheSharedCodesParameterToTheFunctions() {
    AbiType.NdArray two = new AbiType.NdArray(ElementType.F32, Shape.of(2));
    for (String inside : new String[] {"in0", "in0.image", "in0[*]", "in0[3].image"}) {
      RuntimeException shared =
          ValueFailures.argument(() -> Marshal.array(FloatArray.zeros(3), two, inside));
      String own = "in5" + inside.substring("in0".length());
      RuntimeException whole =
          ValueFailures.argument(() -> Marshal.array(FloatArray.zeros(3), two, "f5: " + own));
      RuntimeException named = Marshal.inFunction(shared, "f5", "a0", "a5", "in0", "in5");
      assertThat(named).hasMessageThat().isEqualTo(whole.getMessage());
    }
    // A name that only starts the path's first name is not it; a path of no parameter is kept.
    RuntimeException longer =
        ValueFailures.argument(() -> Marshal.array(FloatArray.zeros(3), two, "in01.x"));
    assertThat(Marshal.inFunction(longer, "f5", "in0", "in5").getMessage()).contains("f5: in01.x");
    IllegalStateException other = new IllegalStateException("closed");
    assertThat(Marshal.inFunction(other, "f5", "in0", "in5")).isSameInstanceAs(other);
  }

  @Test
  void signatureListsAreUnmodifiableListsOfTheirElements() {
    AbiType i32 = new AbiType.Scalar(ElementType.I32);
    AbiType.Entry a = new AbiType.Entry("a", i32);
    assertThat(StubConstants.types(i32, i32)).containsExactly(i32, i32).inOrder();
    assertThat(StubConstants.types()).isEmpty();
    assertThat(StubConstants.entries(a)).containsExactly(a);
    assertThrows(UnsupportedOperationException.class, () -> StubConstants.types(i32).add(i32));
  }
}
