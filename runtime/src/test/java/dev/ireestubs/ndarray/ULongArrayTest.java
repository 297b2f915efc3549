package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import org.junit.jupiter.api.Test;

/**
 * {@link ULongArray}: unsigned {@code ui64} elements held as the 64 bits of a {@code long} (values
 * from 2^63 up are negative longs, as {@link Long#parseUnsignedLong} gives them), printed unsigned.
 */
class ULongArrayTest {

  private static final long MAX = Long.parseUnsignedLong("18446744073709551615");

  @Test
  void valuesAreTheSixtyFourBits() {
    long big = Long.parseUnsignedLong("9223372036854775808"); // 2^63
    ULongArray a = ULongArray.of(new long[] {0, 1, big, MAX});
    assertThat(a.elementType()).isEqualTo(ElementType.UI64);
    assertThat(a.halElementType()).isEqualTo(0x12000040);
    assertThat(a.get(2)).isEqualTo(Long.MIN_VALUE);
    assertThat(a.get(3)).isEqualTo(-1L);
    assertThat(a.getString(3)).isEqualTo("18446744073709551615");
    assertThat(a.getString(2)).isEqualTo("9223372036854775808");
    assertThat(a.data().getLong(24)).isEqualTo(-1L);
    assertThat(a.toString())
        .isEqualTo("ULongArray<4xui64> [0, 1, 9223372036854775808, 18446744073709551615]");
    a.set(MAX - 1, 0);
    a.setFlat(5, 1);
    a.asLongBuffer().put(2, 7);
    assertThat(a.toArray()).isEqualTo(new long[] {MAX - 1, 5, 7, MAX});
    a.fill(MAX);
    assertThat(ULongArray.scalar(MAX).getString()).isEqualTo("18446744073709551615");
    assertThat(a.reshape(2, 2).toArray2D()).isEqualTo(new long[][] {{MAX, MAX}, {MAX, MAX}});
  }

  @Test
  void bufferViewsAreUnsigned() {
    ULongArray a = ULongArray.of(new long[] {MAX});
    BufferView view = a.asBufferView();
    assertThat(view.elementTypeCode()).isEqualTo(0x12000040);
    assertThat(NdArray.fromBufferView(view)).isEqualTo(a);
    BufferView signed = LongArray.of(new long[] {-1}).asSigned().asBufferView();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ULongArray.fromBufferView(signed));
    assertThat(e).hasMessageThat().contains("ULongArray holds ui64 (HAL 0x12000040)");
    assertThat(e).hasMessageThat().contains("LongArray.fromBufferView reads it");
    // Same bits, different classes: not equal.
    assertThat(NdArray.fromBufferView(signed)).isNotEqualTo(a);
  }

  @Test
  void getStringChecksTheIndex() {
    ULongArray a = ULongArray.zeros(2);
    assertThrows(IndexOutOfBoundsException.class, () -> a.getString(2));
    assertThrows(IllegalArgumentException.class, () -> a.getString(0, 0));
  }
}
