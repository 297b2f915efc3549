package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import org.junit.jupiter.api.Test;

/**
 * {@link ShortArray}: two's-complement 16-bit integers, signless {@code i16} from the factories,
 * relabelled signed {@code si16} without copying.
 */
class ShortArrayTest {

  @Test
  void extremesRoundTripInNativeOrder() {
    short[] values = {Short.MIN_VALUE, -1, 0, 1, Short.MAX_VALUE};
    ShortArray a = ShortArray.of(values);
    assertThat(a.toArray()).isEqualTo(values);
    assertThat(a.get(0)).isEqualTo(Short.MIN_VALUE);
    assertThat(a.get(4)).isEqualTo(Short.MAX_VALUE);
    assertThat(a.data().getShort(3 * 2)).isEqualTo((short) 1);
    assertThat(a.byteLength()).isEqualTo(5 * 2);
  }

  @Test
  void factoriesAreSignlessAndAsSignedIsAViewWithTheSignedLabel() {
    ShortArray a = ShortArray.of(new short[] {1, 2, 3, 4}, 2, 2);
    assertThat(a.elementType()).isEqualTo(ElementType.I16);
    assertThat(a.halElementType()).isEqualTo(0x10000010);
    assertThat(a.isSigned()).isFalse();
    assertThat(a.asSignless()).isSameInstanceAs(a);
    ShortArray signed = a.asSigned();
    assertThat(signed.isSigned()).isTrue();
    assertThat(signed.elementType()).isEqualTo(ElementType.SI16);
    assertThat(signed.halElementType()).isEqualTo(0x11000010);
    assertThat(signed.asSigned()).isSameInstanceAs(signed);
    assertThat(signed.shape()).isEqualTo(new long[] {2, 2});
    // Same memory.
    assertThat(NativeMemory.address(signed.data())).isEqualTo(NativeMemory.address(a.data()));
    signed.set((short) -9, 1, 1);
    assertThat(a.get(1, 1)).isEqualTo((short) -9);
    // Labels survive views and copies.
    assertThat(signed.reshape(4).isSigned()).isTrue();
    assertThat(signed.slice(0, 1).isSigned()).isTrue();
    assertThat(signed.select(0).isSigned()).isTrue();
    assertThat(signed.copy().isSigned()).isTrue();
    assertThat(signed.asSignless().elementType()).isEqualTo(ElementType.I16);
    // The labels differ, so the arrays do (as an i16 and an si16 tensor do).
    assertThat(signed).isNotEqualTo(a);
    assertThat(signed.asSignless()).isEqualTo(a);
  }

  @Test
  void fromBufferViewKeepsTheSignedness() {
    ShortArray a = ShortArray.of(new short[] {5, -6});
    BufferView signedView = a.asSigned().asBufferView();
    assertThat(signedView.elementTypeCode()).isEqualTo(0x11000010);
    for (ShortArray back :
        new ShortArray[] {
          ShortArray.fromBufferView(signedView), (ShortArray) NdArray.fromBufferView(signedView)
        }) {
      assertThat(back.isSigned()).isTrue();
      assertThat(back.toArray()).isEqualTo(new short[] {5, -6});
    }
    assertThat(ShortArray.fromBufferView(a.asBufferView()).isSigned()).isFalse();
    // Unsigned views of the same width belong to the unsigned class.
    BufferView unsigned = BufferView.wrap(0x12000010, new long[] {2}, a.data());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ShortArray.fromBufferView(unsigned));
    assertThat(e)
        .hasMessageThat()
        .contains("ShortArray holds i16 (HAL 0x10000010) or si16 (HAL 0x11000010)");
    assertThat(e).hasMessageThat().contains("but the buffer view holds ui16");
    assertThat(e).hasMessageThat().contains("UShortArray.fromBufferView reads it");
  }

  @Test
  void nestedRoundTripAndToString() {
    short[][] data = {{1, -2}, {3, -4}};
    ShortArray a = ShortArray.of(data);
    assertThat(a.toArray2D()).isEqualTo(data);
    assertThat(a.toString()).isEqualTo("ShortArray<2x2xi16> [[1, -2], [3, -4]]");
    assertThat(a.asSigned().toString()).isEqualTo("ShortArray<2x2xsi16> [[1, -2], [3, -4]]");
  }

  @Test
  void asShortBufferSharesMemory() {
    ShortArray a = ShortArray.zeros(3);
    a.asShortBuffer().put(1, (short) -300);
    assertThat(a.get(1)).isEqualTo((short) -300);
  }
}
