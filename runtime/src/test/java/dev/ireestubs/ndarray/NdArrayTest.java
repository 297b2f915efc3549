package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link NdArray}'s static and final members: element-type compatibility, the checks marshalling
 * code runs against declared types, and choosing a class for a buffer view.
 */
class NdArrayTest {

  // ---------------------------------------------------------------------------------------------
  // isCompatible

  @Test
  void everyTypeIsCompatibleWithItself() {
    for (ElementType t :
        List.of(
            ElementType.I1,
            ElementType.I8,
            ElementType.SI16,
            ElementType.UI32,
            ElementType.F16,
            ElementType.BF16,
            ElementType.F32,
            ElementType.F64,
            ElementType.INDEX,
            ElementType.COMPLEX64,
            ElementType.F8E4M3FN)) {
      assertThat(NdArray.isCompatible(t, t)).isTrue();
    }
  }

  @Test
  void signlessIntegersAcceptEitherSignednessOfTheSameWidth() {
    // The iree.abi JSON drops signedness: a declared i32 may be fed si32 or ui32 data.
    assertThat(NdArray.isCompatible(ElementType.I32, ElementType.SI32)).isTrue();
    assertThat(NdArray.isCompatible(ElementType.I32, ElementType.UI32)).isTrue();
    assertThat(NdArray.isCompatible(ElementType.SI32, ElementType.I32)).isTrue();
    assertThat(NdArray.isCompatible(ElementType.UI8, ElementType.I8)).isTrue();
    // Signed and unsigned never match each other.
    assertThat(NdArray.isCompatible(ElementType.SI32, ElementType.UI32)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.UI16, ElementType.SI16)).isFalse();
    // Widths must agree.
    assertThat(NdArray.isCompatible(ElementType.I32, ElementType.I64)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.I32, ElementType.SI16)).isFalse();
  }

  @Test
  void indexIsASignless64BitInteger() {
    assertThat(NdArray.isCompatible(ElementType.INDEX, ElementType.I64)).isTrue();
    assertThat(NdArray.isCompatible(ElementType.INDEX, ElementType.SI64)).isTrue();
    assertThat(NdArray.isCompatible(ElementType.INDEX, ElementType.UI64)).isTrue();
    assertThat(NdArray.isCompatible(ElementType.SI64, ElementType.INDEX)).isTrue();
    assertThat(NdArray.isCompatible(ElementType.INDEX, ElementType.I32)).isFalse();
  }

  @Test
  void unknownDeclaredTypesAcceptAnything() {
    assertThat(NdArray.isCompatible(ElementType.UNKNOWN, ElementType.F32)).isTrue();
    assertThat(NdArray.isCompatible(ElementType.UNKNOWN, ElementType.I1)).isTrue();
    // Not the other way round.
    assertThat(NdArray.isCompatible(ElementType.F32, ElementType.UNKNOWN)).isFalse();
  }

  @Test
  void i1IsStoredAsAnyEightBitInteger() {
    // IREE stores i1 tensors in bytes and may type an i1 result i8 or ui8 (issue 19).
    for (ElementType bytes : List.of(ElementType.I8, ElementType.SI8, ElementType.UI8)) {
      assertThat(NdArray.isCompatible(ElementType.I1, bytes)).isTrue();
      assertThat(NdArray.isCompatible(bytes, ElementType.I1)).isTrue();
    }
    // Signed and unsigned bytes still do not match each other.
    assertThat(NdArray.isCompatible(ElementType.SI8, ElementType.UI8)).isFalse();
  }

  @Test
  void otherKindsDoNotMix() {
    assertThat(NdArray.isCompatible(ElementType.F16, ElementType.BF16)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.BF16, ElementType.F16)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.F32, ElementType.I32)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.I32, ElementType.F32)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.F32, ElementType.F64)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.I1, ElementType.I16)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.I1, ElementType.F16)).isFalse();
    assertThat(NdArray.isCompatible(ElementType.COMPLEX64, ElementType.F32)).isFalse();
    assertThrows(NullPointerException.class, () -> NdArray.isCompatible(null, ElementType.F32));
    assertThrows(NullPointerException.class, () -> NdArray.isCompatible(ElementType.F32, null));
  }

  // ---------------------------------------------------------------------------------------------
  // checkElementType, checkShape, check

  @Test
  void checkElementTypeNamesThePathExpectedAndActual() {
    DoubleArray image = DoubleArray.zeros(1, 28, 28);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> image.checkElementType(ElementType.F32, "predict: features.image"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "predict: features.image: expected element type f32 but got f64 (DoubleArray of shape"
                + " 1x28x28)");
    // Compatible types pass.
    IntArray.zeros(2).asSigned().checkElementType(ElementType.I32, "f: ids");
    IntArray.zeros(2).checkElementType(ElementType.SI32, "f: ids");
    UIntArray.zeros(2).checkElementType(ElementType.I32, "f: ids");
    FloatArray.scalar(1f).checkElementType(ElementType.UNKNOWN, "f: x");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> UIntArray.zeros(2).checkElementType(ElementType.SI32, "f: ids"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("f: ids: expected element type si32 but got ui32 (UIntArray of shape 2)");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BFloat16Array.scalar(1f).checkElementType(ElementType.F16, "g: [0]"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "g: [0]: expected element type f16 but got bf16 (BFloat16Array of shape scalar)");
  }

  @Test
  void checkShapeNamesThePathExpectedAndActual() {
    FloatArray image = FloatArray.zeros(1, 28, 27);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> image.checkShape(Shape.of(1, 28, 28), "predict: features.image"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("predict: features.image: expected shape 1x28x28 (f32) but got 1x28x27");
    // Rank mismatches say so.
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> FloatArray.zeros(28, 28).checkShape(Shape.of(1, 28, 28), "p: x"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("p: x: expected shape 1x28x28 (f32) but got 28x28 (rank 2, expected rank 3)");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> IntArray.zeros(3).checkShape(Shape.scalar(), "p: n"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("p: n: expected shape scalar (i32) but got 3 (rank 1, expected rank 0)");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> IntArray.scalar(3).checkShape(Shape.of(1), "p: n"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("p: n: expected shape 1 (i32) but got scalar (rank 0, expected rank 1)");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> FloatArray.zeros(2, 5).checkShape(Shape.of(Shape.DYNAMIC, 4), "p: x"));
    assertThat(e).hasMessageThat().isEqualTo("p: x: expected shape ?x4 (f32) but got 2x5");
  }

  @Test
  void checkShapeAcceptsDynamicAndUnrankedShapes() {
    FloatArray a = FloatArray.zeros(3, 4);
    a.checkShape(Shape.of(3, 4), "p");
    a.checkShape(Shape.of(Shape.DYNAMIC, 4), "p");
    a.checkShape(Shape.dynamic(2), "p");
    a.checkShape(Shape.unranked(), "p");
    FloatArray.scalar(1f).checkShape(Shape.scalar(), "p");
    FloatArray.scalar(1f).checkShape(Shape.unranked(), "p");
    FloatArray.zeros(0, 4).checkShape(Shape.of(Shape.DYNAMIC, 4), "p");
    assertThrows(NullPointerException.class, () -> a.checkShape(null, "p"));
  }

  @Test
  void checkTestsTheElementTypeFirst() {
    DoubleArray a = DoubleArray.zeros(2);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> a.check(ElementType.F32, Shape.of(3), "run: inputs[0]"));
    assertThat(e).hasMessageThat().contains("expected element type f32 but got f64");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> a.check(ElementType.F64, Shape.of(3), "run: inputs[0]"));
    assertThat(e).hasMessageThat().isEqualTo("run: inputs[0]: expected shape 3 (f64) but got 2");
    a.check(ElementType.F64, Shape.of(2), "run: inputs[0]");
  }

  // ---------------------------------------------------------------------------------------------
  // fromBufferView

  private static BufferView view(int halCode, int bytesPerElement, long... shape) {
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    ByteBuffer data =
        ByteBuffer.allocateDirect((int) n * bytesPerElement).order(ByteOrder.nativeOrder());
    return BufferView.wrap(halCode, shape, data);
  }

  @Test
  void fromBufferViewPicksTheClassNamingTheElementType() {
    Object[][] table = {
      {0x21000020, 4, FloatArray.class, ElementType.F32},
      {0x21000040, 8, DoubleArray.class, ElementType.F64},
      {0x21000010, 2, HalfArray.class, ElementType.F16},
      {0x22000010, 2, BFloat16Array.class, ElementType.BF16},
      {0x13000008, 1, BoolArray.class, ElementType.I1},
      {0x10000008, 1, ByteArray.class, ElementType.I8},
      {0x11000008, 1, ByteArray.class, ElementType.SI8},
      {0x10000010, 2, ShortArray.class, ElementType.I16},
      {0x11000010, 2, ShortArray.class, ElementType.SI16},
      {0x10000020, 4, IntArray.class, ElementType.I32},
      {0x11000020, 4, IntArray.class, ElementType.SI32},
      {0x10000040, 8, LongArray.class, ElementType.I64},
      {0x11000040, 8, LongArray.class, ElementType.SI64},
      {0x12000008, 1, UByteArray.class, ElementType.UI8},
      {0x12000010, 2, UShortArray.class, ElementType.UI16},
      {0x12000020, 4, UIntArray.class, ElementType.UI32},
      {0x12000040, 8, ULongArray.class, ElementType.UI64},
    };
    for (Object[] row : table) {
      int code = (Integer) row[0];
      NdArray a = NdArray.fromBufferView(view(code, (Integer) row[1], 2, 3));
      assertThat(a).isInstanceOf((Class<?>) row[2]);
      assertThat(a.elementType()).isEqualTo(row[3]);
      assertThat(a.halElementType()).isEqualTo(code);
      assertThat(a.shape()).isEqualTo(new long[] {2, 3});
      assertThat(NdArray.classNameFor((ElementType) row[3]))
          .isEqualTo(((Class<?>) row[2]).getSimpleName());
    }
  }

  @Test
  void fromBufferViewRejectsTypesNoClassHolds() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> NdArray.fromBufferView(view(0x23000040, 8, 2)));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "NdArray.fromBufferView: no array class holds elements of complex<f32> (HAL"
                + " 0x23000040) (buffer view of shape 2); arrays hold f16, bf16, f32, f64, i1, and"
                + " 8-, 16-, 32- and 64-bit integers of any signedness");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> NdArray.fromBufferView(view(0x25000008, 1, 4)));
    assertThat(e).hasMessageThat().contains("no array class holds elements of f8E4M3FN");
    // Odd integer widths (one element: BufferView allows sub-byte types only then).
    e =
        assertThrows(
            IllegalArgumentException.class, () -> NdArray.fromBufferView(view(0x10000004, 1)));
    assertThat(e).hasMessageThat().contains("no array class holds elements of i4 (HAL 0x10000004)");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> NdArray.fromBufferView(view(0x10000080, 16, 1)));
    assertThat(e).hasMessageThat().contains("elements of i128");
    // A code with no known numerical type.
    e =
        assertThrows(
            IllegalArgumentException.class, () -> NdArray.fromBufferView(view(0x00000020, 4, 2)));
    assertThat(e)
        .hasMessageThat()
        .startsWith(
            "NdArray.fromBufferView: no array class holds elements of HAL element type 0x00000020"
                + " (buffer view of shape 2)");
    assertThrows(NullPointerException.class, () -> NdArray.fromBufferView(null));
  }
}
