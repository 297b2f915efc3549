package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * {@link NdArray}'s static and final members: choosing a class for a buffer view. (Which element
 * types an array may stand for is {@code ElementTypeTest}'s; the checks marshalling runs against
 * declared types are {@code ValueChecksTest}'s.)
 */
class NdArrayTest {

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
