package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.ndarray.BFloat16Array;
import dev.ireestubs.ndarray.DoubleArray;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.ndarray.UIntArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checks of one value against its declaration, as every caller (stubs through {@code
 * internal.Marshal}, {@link AbiValues}, codecs) makes them: arrays against a declared element type
 * and shape (which {@code NdArray} itself no longer checks), in place for buffer views.
 */
class ValueChecksTest {

  private static final AbiType.NdArray IMAGE =
      new AbiType.NdArray(ElementType.F32, Shape.of(1, 28, 28));
  private static final AbiType.NdArray BATCH =
      new AbiType.NdArray(ElementType.F32, Shape.of(Shape.DYNAMIC, 4));

  private static AbiType.NdArray declared(ElementType element, Shape shape) {
    return new AbiType.NdArray(element, shape);
  }

  private static String argumentProblem(NdArray array, AbiType.NdArray declared, String path) {
    return ValueFailures.argument(() -> ValueChecks.array(array, declared, Side.ARGUMENT, path))
        .getMessage();
  }

  @Test
  void anArrayOfAnotherElementTypeNamesThePathExpectedAndActual() {
    assertThat(argumentProblem(DoubleArray.zeros(1, 28, 28), IMAGE, "predict: features.image"))
        .isEqualTo(
            "predict: features.image: expected "
                + IMAGE
                + " but got "
                + declared(ElementType.F64, Shape.of(1, 28, 28))
                + " (element type f64, not f32)");
    assertThat(
            argumentProblem(UIntArray.zeros(2), declared(ElementType.SI32, Shape.of(2)), "f: ids"))
        .endsWith("(element type ui32, not si32)");
    assertThat(
            argumentProblem(
                BFloat16Array.scalar(1f), declared(ElementType.F16, Shape.scalar()), "g: [0]"))
        .endsWith("(element type bf16, not f16)");
  }

  @Test
  void elementTypesThatIreeStoresAlikePass() {
    ValueChecks.array(
        IntArray.zeros(2).asSigned(), declared(ElementType.I32, Shape.of(2)), Side.ARGUMENT, "f");
    ValueChecks.array(
        IntArray.zeros(2), declared(ElementType.SI32, Shape.of(2)), Side.ARGUMENT, "f");
    ValueChecks.array(
        UIntArray.zeros(2), declared(ElementType.I32, Shape.of(2)), Side.ARGUMENT, "f");
    ValueChecks.array(
        FloatArray.scalar(1f), declared(ElementType.UNKNOWN, Shape.unranked()), Side.RESULT, "f");
  }

  @Test
  void anArrayOfAnotherShapeSaysWhichDimensionOrRankDiffers() {
    assertThat(argumentProblem(FloatArray.zeros(1, 28, 27), IMAGE, "predict: features.image"))
        .endsWith("(dimension 2 is 27, not 28)");
    assertThat(argumentProblem(FloatArray.zeros(28, 28), IMAGE, "p: x"))
        .endsWith("(rank 2, not 3)");
    assertThat(
            argumentProblem(IntArray.zeros(3), declared(ElementType.I32, Shape.scalar()), "p: n"))
        .endsWith("(rank 1, not 0)");
    assertThat(argumentProblem(FloatArray.zeros(2, 5), BATCH, "p: x"))
        .endsWith("(dimension 1 is 5, not 4)");
    // Both wrong: both said, the element type first.
    assertThat(argumentProblem(DoubleArray.zeros(2), declared(ElementType.F32, Shape.of(3)), "r"))
        .endsWith("(element type f64, not f32) (dimension 0 is 2, not 3)");
  }

  @Test
  void dynamicAndUnrankedShapesAcceptEveryFittingArray() {
    FloatArray a = FloatArray.zeros(3, 4);
    for (Shape shape :
        new Shape[] {
          Shape.of(3, 4), Shape.of(Shape.DYNAMIC, 4), Shape.dynamic(2), Shape.unranked()
        }) {
      assertThat(ValueChecks.array(a, declared(ElementType.F32, shape), Side.ARGUMENT, "p"))
          .isNotNull();
    }
    ValueChecks.array(
        FloatArray.scalar(1f), declared(ElementType.F32, Shape.scalar()), Side.ARGUMENT, "p");
    ValueChecks.array(FloatArray.zeros(0, 4), BATCH, Side.ARGUMENT, "p");
    assertThat(ValueFailures.result(() -> ValueChecks.array(null, BATCH, Side.RESULT, "f: r")))
        .hasMessageThat()
        .isEqualTo("f: r: is null; expected " + BATCH);
  }

  @Test
  void fitsDecidesABufferViewInPlaceAsTheCheckDoes() {
    BufferView image = FloatArray.zeros(1, 28, 28).asBufferView();
    assertThat(ValueChecks.fits(IMAGE, image)).isTrue();
    assertThat(ValueChecks.fits(BATCH, FloatArray.zeros(7, 4).asBufferView())).isTrue();
    assertThat(ValueChecks.fits(BATCH, FloatArray.zeros(7, 5).asBufferView())).isFalse();
    assertThat(ValueChecks.fits(IMAGE, FloatArray.zeros(1, 28).asBufferView())).isFalse();
    assertThat(ValueChecks.fits(IMAGE, IntArray.zeros(1, 28, 28).asBufferView())).isFalse();
    BufferView opaque =
        BufferView.wrap(0x00000020, new long[] {1, 28, 28}, ByteBuffer.allocateDirect(4 * 28 * 28));
    assertThat(ValueChecks.fits(IMAGE, opaque)).isFalse();
    AbiType.NdArray anything = declared(ElementType.UNKNOWN, Shape.unranked());
    assertThat(ValueChecks.fits(anything, image)).isTrue();
    // The slow path still says what is wrong.
    BufferView wrong = FloatArray.zeros(7, 5).asBufferView();
    assertThat(
            ValueFailures.result(
                    () -> ValueChecks.bufferView(wrong, BATCH, Side.RESULT, "f: result"))
                .getMessage())
        .contains("dimension 1 is 5, not 4");
    assertThat(
            ValueFailures.result(
                    () -> ValueChecks.bufferView(opaque, IMAGE, Side.RESULT, "f: result"))
                .getMessage())
        .isEqualTo(
            "f: result: expected "
                + IMAGE
                + " but the buffer view has an unknown HAL element type 0x20");
  }

  @Test
  void aListOfAnotherSizeOrNoListIsDescribed() {
    VmList two = VmList.variant(2);
    two.push(VmValue.i32(1));
    two.push(VmValue.i32(2));
    assertThat(ValueChecks.list(two, null, 2, Side.RESULT, "f: r")).isSameInstanceAs(two);
    assertThat(ValueChecks.list(two, null, -1, Side.RESULT, "f: r")).isSameInstanceAs(two);
    assertThat(ValueFailures.result(() -> ValueChecks.list(two, null, 3, Side.RESULT, "f: r")))
        .hasMessageThat()
        .isEqualTo("f: r: expected 3 elements but the list has 2");
    assertThat(
            ValueFailures.argument(
                () -> ValueChecks.list(VmValue.i32(1), null, 1, Side.ARGUMENT, "f: a")))
        .hasMessageThat()
        .isEqualTo("f: a: expected a list but got the value i32 1");
    assertThrows(NullPointerException.class, () -> ValueChecks.keysProblem(null, List.of("a")));
  }
}
