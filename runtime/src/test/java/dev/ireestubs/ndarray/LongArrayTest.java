package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import org.junit.jupiter.api.Test;

/**
 * {@link LongArray}: two's-complement 64-bit integers, signless {@code i64} from the factories,
 * relabelled signed {@code si64} without copying.
 */
class LongArrayTest {

  @Test
  void extremesRoundTripInNativeOrder() {
    long[] values = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    LongArray a = LongArray.of(values);
    assertThat(a.toArray()).isEqualTo(values);
    assertThat(a.get(0)).isEqualTo(Long.MIN_VALUE);
    assertThat(a.get(4)).isEqualTo(Long.MAX_VALUE);
    assertThat(a.data().getLong(3 * 8)).isEqualTo((long) 1);
    assertThat(a.byteLength()).isEqualTo(5 * 8);
  }

  @Test
  void factoriesAreSignlessAndAsSignedIsAViewWithTheSignedLabel() {
    LongArray a = LongArray.of(new long[] {1, 2, 3, 4}, 2, 2);
    assertThat(a.elementType()).isEqualTo(ElementType.I64);
    assertThat(a.halElementType()).isEqualTo(0x10000040);
    assertThat(a.isSigned()).isFalse();
    assertThat(a.asSignless()).isSameInstanceAs(a);
    LongArray signed = a.asSigned();
    assertThat(signed.isSigned()).isTrue();
    assertThat(signed.elementType()).isEqualTo(ElementType.SI64);
    assertThat(signed.halElementType()).isEqualTo(0x11000040);
    assertThat(signed.asSigned()).isSameInstanceAs(signed);
    assertThat(signed.shape()).isEqualTo(new long[] {2, 2});
    // Same memory.
    assertThat(NativeMemory.address(signed.data())).isEqualTo(NativeMemory.address(a.data()));
    signed.set((long) -9, 1, 1);
    assertThat(a.get(1, 1)).isEqualTo((long) -9);
    // Labels survive views and copies.
    assertThat(signed.reshape(4).isSigned()).isTrue();
    assertThat(signed.slice(0, 1).isSigned()).isTrue();
    assertThat(signed.select(0).isSigned()).isTrue();
    assertThat(signed.copy().isSigned()).isTrue();
    assertThat(signed.asSignless().elementType()).isEqualTo(ElementType.I64);
    // The labels differ, so the arrays do (as an i64 and an si64 tensor do).
    assertThat(signed).isNotEqualTo(a);
    assertThat(signed.asSignless()).isEqualTo(a);
  }

  @Test
  void fromBufferViewKeepsTheSignedness() {
    LongArray a = LongArray.of(new long[] {5, -6});
    BufferView signedView = a.asSigned().asBufferView();
    assertThat(signedView.elementTypeCode()).isEqualTo(0x11000040);
    for (LongArray back :
        new LongArray[] {
          LongArray.fromBufferView(signedView), (LongArray) NdArray.fromBufferView(signedView)
        }) {
      assertThat(back.isSigned()).isTrue();
      assertThat(back.toArray()).isEqualTo(new long[] {5, -6});
    }
    assertThat(LongArray.fromBufferView(a.asBufferView()).isSigned()).isFalse();
    // Unsigned views of the same width belong to the unsigned class.
    BufferView unsigned = BufferView.wrap(0x12000040, new long[] {2}, a.data());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LongArray.fromBufferView(unsigned));
    assertThat(e)
        .hasMessageThat()
        .contains("LongArray holds i64 (HAL 0x10000040) or si64 (HAL 0x11000040)");
    assertThat(e).hasMessageThat().contains("but the buffer view holds ui64");
    assertThat(e).hasMessageThat().contains("ULongArray.fromBufferView reads it");
  }

  @Test
  void nestedRoundTripAndToString() {
    long[][] data = {{1, -2}, {3, -4}};
    LongArray a = LongArray.of(data);
    assertThat(a.toArray2D()).isEqualTo(data);
    assertThat(a.toString()).isEqualTo("LongArray<2x2xi64> [[1, -2], [3, -4]]");
    assertThat(a.asSigned().toString()).isEqualTo("LongArray<2x2xsi64> [[1, -2], [3, -4]]");
  }

  @Test
  void asLongBufferSharesMemory() {
    LongArray a = LongArray.zeros(2);
    a.asLongBuffer().put(1, Long.MIN_VALUE);
    assertThat(a.get(1)).isEqualTo(Long.MIN_VALUE);
  }
}
