package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import org.junit.jupiter.api.Test;

/**
 * {@link UByteArray}: unsigned {@code ui8} elements read and written as {@code int} values in
 * 0..255, range-checked on the way in; the raw bits as {@code byte}.
 */
class UByteArrayTest {

  @Test
  void valuesAboveTheSignedRangeReadAsTheWiderType() {
    UByteArray a = UByteArray.of(new int[] {0, 1, 255 / 2 + 1, 255});
    assertThat(a.elementType()).isEqualTo(ElementType.UI8);
    assertThat(a.halElementType()).isEqualTo(0x12000008);
    assertThat(a.toArray()).isEqualTo(new int[] {0, 1, 255 / 2 + 1, 255});
    assertThat(a.get(3)).isEqualTo(255);
    // Stored as the raw bits: the largest value is all ones.
    assertThat(a.data().get(3 * 1)).isEqualTo((byte) -1);
    assertThat(a.getBits(3)).isEqualTo((byte) -1);
    assertThat(a.toBits()).isEqualTo(new byte[] {0, 1, (byte) (255 / 2 + 1), -1});
    assertThat(a.toString()).isEqualTo("UByteArray<4xui8> [0, 1, " + (255 / 2 + 1) + ", 255]");
  }

  @Test
  void outOfRangeValuesAreRejectedNamingTheIndex() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> UByteArray.of(new int[] {1, 2, 3, -1}, 2, 2));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("UByteArray.of: value -1 at index [1, 1] is out of range for ui8 (0..255)");
    e =
        assertThrows(
            IllegalArgumentException.class, () -> UByteArray.of(new int[][] {{0}, {255 + 1}}));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "UByteArray.of: value "
                + (255 + 1)
                + " at index [1, 0] is out of range for ui8 (0..255)");
    UByteArray a = UByteArray.zeros(2, 3);
    e = assertThrows(IllegalArgumentException.class, () -> a.set(255 + 1, 1, 2));
    assertThat(e)
        .hasMessageThat()
        .startsWith("UByteArray.set: value " + (255 + 1) + " at index [1, 2]");
    e = assertThrows(IllegalArgumentException.class, () -> a.setFlat(-5, 4));
    assertThat(e).hasMessageThat().startsWith("UByteArray.setFlat: value -5 at index [1, 1]");
    e = assertThrows(IllegalArgumentException.class, () -> a.fill(-1));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("UByteArray.fill: value -1 is out of range for ui8 (0..255)");
    e = assertThrows(IllegalArgumentException.class, () -> UByteArray.scalar(256));
    assertThat(e).hasMessageThat().startsWith("UByteArray.scalar: value ");
    // Nothing was written.
    assertThat(a).isEqualTo(UByteArray.zeros(2, 3));
  }

  @Test
  void rawBitsGoInAndOutUnchecked() {
    UByteArray a = UByteArray.ofBits(new byte[] {-1, 0, 7}, 3);
    assertThat(a.toArray()).isEqualTo(new int[] {255, 0, 7});
    a.setBits((byte) -2, 1);
    assertThat(a.get(1)).isEqualTo(255 - 1);
    assertThat(a.getBits(1)).isEqualTo((byte) -2);
    e(
        () -> UByteArray.ofBits(new byte[2], 3),
        "UByteArray.ofBits: shape 3 holds 3 elements but the data has 2");
  }

  private static void e(org.junit.jupiter.api.function.Executable call, String message) {
    assertThat(assertThrows(IllegalArgumentException.class, call))
        .hasMessageThat()
        .isEqualTo(message);
  }

  @Test
  void bufferViewsAreUnsignedAndOtherWidthsOrSignsAreRejected() {
    UByteArray a = UByteArray.of(new int[] {255, 3});
    BufferView view = a.asBufferView();
    assertThat(view.elementTypeCode()).isEqualTo(0x12000008);
    assertThat(NdArray.fromBufferView(view)).isEqualTo(a);
    assertThat(UByteArray.fromBufferView(view)).isEqualTo(a);
    BufferView signed = ByteArray.of(new byte[] {-1, 3}).asSigned().asBufferView();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> UByteArray.fromBufferView(signed));
    assertThat(e).hasMessageThat().contains("UByteArray holds ui8 (HAL 0x12000008)");
    assertThat(e).hasMessageThat().contains("ByteArray.fromBufferView reads it");
    // The same bytes as signed and unsigned arrays are different arrays.
    assertThat(NdArray.fromBufferView(signed)).isNotEqualTo(a);
  }

  @Test
  void nestedRoundTrip() {
    int[][][] data = {{{255, 0}}, {{1, 2}}};
    UByteArray a = UByteArray.of(data);
    assertThat(a.shape()).isEqualTo(new long[] {2, 1, 2});
    assertThat(a.toArray3D()).isEqualTo(data);
  }
}
