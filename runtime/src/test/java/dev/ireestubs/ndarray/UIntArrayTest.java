package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import org.junit.jupiter.api.Test;

/**
 * {@link UIntArray}: unsigned {@code ui32} elements read and written as {@code long} values in
 * 0..4294967295, range-checked on the way in; the raw bits as {@code int}.
 */
class UIntArrayTest {

  @Test
  void signlessViewsReadAsUnsignedWithoutACopy() {
    // IREE's runtime returns an i32 tensor as a signless INT_32 view whatever the model meant.
    BufferView signless = BufferView.allocate(ElementType.I32.halCode().get(), 2);
    signless.data().putInt(0, -1);
    UIntArray u = UIntArray.fromBufferView(signless);
    assertThat(u.get(0)).isEqualTo(4294967295L);
    assertThat(u.elementType()).isEqualTo(ElementType.I32);
    signless.data().putInt(4, 7);
    assertThat(u.get(1)).isEqualTo(7L);
    BufferView signed = BufferView.allocate(ElementType.SI32.halCode().get(), 1);
    assertThrows(IllegalArgumentException.class, () -> UIntArray.fromBufferView(signed));
  }

  @Test
  void valuesAboveTheSignedRangeReadAsTheWiderType() {
    UIntArray a = UIntArray.of(new long[] {0, 1, 4294967295L / 2 + 1, 4294967295L});
    assertThat(a.elementType()).isEqualTo(ElementType.UI32);
    assertThat(a.halElementType()).isEqualTo(0x12000020);
    assertThat(a.toArray()).isEqualTo(new long[] {0, 1, 4294967295L / 2 + 1, 4294967295L});
    assertThat(a.get(3)).isEqualTo(4294967295L);
    // Stored as the raw bits: the largest value is all ones.
    assertThat(a.data().getInt(3 * 4)).isEqualTo((int) -1);
    assertThat(a.getBits(3)).isEqualTo((int) -1);
    assertThat(a.toBits()).isEqualTo(new int[] {0, 1, (int) (4294967295L / 2 + 1), -1});
    assertThat(a.toString())
        .isEqualTo("UIntArray<4xui32> [0, 1, " + (4294967295L / 2 + 1) + ", 4294967295]");
  }

  @Test
  void outOfRangeValuesAreRejectedNamingTheIndex() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> UIntArray.of(new long[] {1, 2, 3, -1}, 2, 2));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "UIntArray.of: value -1 at index [1, 1] is out of range for ui32 (0..4294967295)");
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> UIntArray.of(new long[][] {{0}, {4294967295L + 1}}));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "UIntArray.of: value "
                + (4294967295L + 1)
                + " at index [1, 0] is out of range for ui32 (0..4294967295)");
    UIntArray a = UIntArray.zeros(2, 3);
    e = assertThrows(IllegalArgumentException.class, () -> a.set(4294967295L + 1, 1, 2));
    assertThat(e)
        .hasMessageThat()
        .startsWith("UIntArray.set: value " + (4294967295L + 1) + " at index [1, 2]");
    e = assertThrows(IllegalArgumentException.class, () -> a.setFlat(-5, 4));
    assertThat(e).hasMessageThat().startsWith("UIntArray.setFlat: value -5 at index [1, 1]");
    e = assertThrows(IllegalArgumentException.class, () -> a.fill(-1));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("UIntArray.fill: value -1 is out of range for ui32 (0..4294967295)");
    e = assertThrows(IllegalArgumentException.class, () -> UIntArray.scalar(-1));
    assertThat(e).hasMessageThat().startsWith("UIntArray.scalar: value ");
    // Nothing was written.
    assertThat(a).isEqualTo(UIntArray.zeros(2, 3));
  }

  @Test
  void rawBitsGoInAndOutUnchecked() {
    UIntArray a = UIntArray.ofBits(new int[] {-1, 0, 7}, 3);
    assertThat(a.toArray()).isEqualTo(new long[] {4294967295L, 0, 7});
    a.setBits((int) -2, 1);
    assertThat(a.get(1)).isEqualTo(4294967295L - 1);
    assertThat(a.getBits(1)).isEqualTo((int) -2);
    e(
        () -> UIntArray.ofBits(new int[2], 3),
        "UIntArray.ofBits: shape 3 holds 3 elements but the data has 2");
  }

  private static void e(org.junit.jupiter.api.function.Executable call, String message) {
    assertThat(assertThrows(IllegalArgumentException.class, call))
        .hasMessageThat()
        .isEqualTo(message);
  }

  @Test
  void bufferViewsAreUnsignedAndOtherWidthsOrSignsAreRejected() {
    UIntArray a = UIntArray.of(new long[] {4294967295L, 3});
    BufferView view = a.asBufferView();
    assertThat(view.elementTypeCode()).isEqualTo(0x12000020);
    assertThat(NdArray.fromBufferView(view)).isEqualTo(a);
    assertThat(UIntArray.fromBufferView(view)).isEqualTo(a);
    BufferView signed = IntArray.of(new int[] {-1, 3}).asSigned().asBufferView();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> UIntArray.fromBufferView(signed));
    assertThat(e).hasMessageThat().contains("UIntArray holds ui32 (HAL 0x12000020)");
    assertThat(e).hasMessageThat().contains("IntArray.fromBufferView reads it");
    // The same bytes as signed and unsigned arrays are different arrays.
    assertThat(NdArray.fromBufferView(signed)).isNotEqualTo(a);
  }

  @Test
  void nestedRoundTrip() {
    long[][][] data = {{{4294967295L, 0}}, {{1, 2}}};
    UIntArray a = UIntArray.of(data);
    assertThat(a.shape()).isEqualTo(new long[] {2, 1, 2});
    assertThat(a.toArray3D()).isEqualTo(data);
  }
}
