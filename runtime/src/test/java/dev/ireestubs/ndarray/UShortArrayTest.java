package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import org.junit.jupiter.api.Test;

/**
 * {@link UShortArray}: unsigned {@code ui16} elements read and written as {@code int} values in
 * 0..65535, range-checked on the way in; the raw bits as {@code short}.
 */
class UShortArrayTest {

  @Test
  void valuesAboveTheSignedRangeReadAsTheWiderType() {
    UShortArray a = UShortArray.of(new int[] {0, 1, 65535 / 2 + 1, 65535});
    assertThat(a.elementType()).isEqualTo(ElementType.UI16);
    assertThat(a.halElementType()).isEqualTo(0x12000010);
    assertThat(a.toArray()).isEqualTo(new int[] {0, 1, 65535 / 2 + 1, 65535});
    assertThat(a.get(3)).isEqualTo(65535);
    // Stored as the raw bits: the largest value is all ones.
    assertThat(a.data().getShort(3 * 2)).isEqualTo((short) -1);
    assertThat(a.getBits(3)).isEqualTo((short) -1);
    assertThat(a.toBits()).isEqualTo(new short[] {0, 1, (short) (65535 / 2 + 1), -1});
    assertThat(a.toString())
        .isEqualTo("UShortArray<4xui16> [0, 1, " + (65535 / 2 + 1) + ", 65535]");
  }

  @Test
  void outOfRangeValuesAreRejectedNamingTheIndex() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> UShortArray.of(new int[] {1, 2, 3, -1}, 2, 2));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("UShortArray.of: value -1 at index [1, 1] is out of range for ui16 (0..65535)");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> UShortArray.of(new int[][] {{0}, {65535 + 1}}));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "UShortArray.of: value "
                + (65535 + 1)
                + " at index [1, 0] is out of range for ui16 (0..65535)");
    UShortArray a = UShortArray.zeros(2, 3);
    e = assertThrows(IllegalArgumentException.class, () -> a.set(65535 + 1, 1, 2));
    assertThat(e)
        .hasMessageThat()
        .startsWith("UShortArray.set: value " + (65535 + 1) + " at index [1, 2]");
    e = assertThrows(IllegalArgumentException.class, () -> a.setFlat(-5, 4));
    assertThat(e).hasMessageThat().startsWith("UShortArray.setFlat: value -5 at index [1, 1]");
    e = assertThrows(IllegalArgumentException.class, () -> a.fill(-1));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("UShortArray.fill: value -1 is out of range for ui16 (0..65535)");
    e = assertThrows(IllegalArgumentException.class, () -> UShortArray.scalar(65536));
    assertThat(e).hasMessageThat().startsWith("UShortArray.scalar: value ");
    // Nothing was written.
    assertThat(a).isEqualTo(UShortArray.zeros(2, 3));
  }

  @Test
  void rawBitsGoInAndOutUnchecked() {
    UShortArray a = UShortArray.ofBits(new short[] {-1, 0, 7}, 3);
    assertThat(a.toArray()).isEqualTo(new int[] {65535, 0, 7});
    a.setBits((short) -2, 1);
    assertThat(a.get(1)).isEqualTo(65535 - 1);
    assertThat(a.getBits(1)).isEqualTo((short) -2);
    e(
        () -> UShortArray.ofBits(new short[2], 3),
        "UShortArray.ofBits: shape 3 holds 3 elements but the data has 2");
  }

  private static void e(org.junit.jupiter.api.function.Executable call, String message) {
    assertThat(assertThrows(IllegalArgumentException.class, call))
        .hasMessageThat()
        .isEqualTo(message);
  }

  @Test
  void bufferViewsAreUnsignedAndOtherWidthsOrSignsAreRejected() {
    UShortArray a = UShortArray.of(new int[] {65535, 3});
    BufferView view = a.asBufferView();
    assertThat(view.elementTypeCode()).isEqualTo(0x12000010);
    assertThat(NdArray.fromBufferView(view)).isEqualTo(a);
    assertThat(UShortArray.fromBufferView(view)).isEqualTo(a);
    BufferView signed = ShortArray.of(new short[] {-1, 3}).asSigned().asBufferView();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> UShortArray.fromBufferView(signed));
    assertThat(e).hasMessageThat().contains("UShortArray holds ui16 (HAL 0x12000010)");
    assertThat(e).hasMessageThat().contains("ShortArray.fromBufferView reads it");
    // The same bytes as signed and unsigned arrays are different arrays.
    assertThat(NdArray.fromBufferView(signed)).isNotEqualTo(a);
  }

  @Test
  void nestedRoundTrip() {
    int[][][] data = {{{65535, 0}}, {{1, 2}}};
    UShortArray a = UShortArray.of(data);
    assertThat(a.shape()).isEqualTo(new long[] {2, 1, 2});
    assertThat(a.toArray3D()).isEqualTo(data);
  }
}
