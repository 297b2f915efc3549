package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteArray}: two's-complement 8-bit integers, signless {@code i8} from the factories,
 * relabelled signed {@code si8} without copying.
 */
class ByteArrayTest {

  @Test
  void extremesRoundTripInNativeOrder() {
    byte[] values = {Byte.MIN_VALUE, -1, 0, 1, Byte.MAX_VALUE};
    ByteArray a = ByteArray.of(values);
    assertThat(a.toArray()).isEqualTo(values);
    assertThat(a.get(0)).isEqualTo(Byte.MIN_VALUE);
    assertThat(a.get(4)).isEqualTo(Byte.MAX_VALUE);
    assertThat(a.data().get(3)).isEqualTo((byte) 1);
    assertThat(a.byteLength()).isEqualTo(5 * 1);
  }

  @Test
  void factoriesAreSignlessAndAsSignedIsAViewWithTheSignedLabel() {
    ByteArray a = ByteArray.of(new byte[] {1, 2, 3, 4}, 2, 2);
    assertThat(a.elementType()).isEqualTo(ElementType.I8);
    assertThat(a.halElementType()).isEqualTo(0x10000008);
    assertThat(a.isSigned()).isFalse();
    assertThat(a.asSignless()).isSameInstanceAs(a);
    ByteArray signed = a.asSigned();
    assertThat(signed.isSigned()).isTrue();
    assertThat(signed.elementType()).isEqualTo(ElementType.SI8);
    assertThat(signed.halElementType()).isEqualTo(0x11000008);
    assertThat(signed.asSigned()).isSameInstanceAs(signed);
    assertThat(signed.shape()).isEqualTo(new long[] {2, 2});
    // Same memory.
    assertThat(NativeMemory.address(signed.data())).isEqualTo(NativeMemory.address(a.data()));
    signed.set((byte) -9, 1, 1);
    assertThat(a.get(1, 1)).isEqualTo((byte) -9);
    // Labels survive views and copies.
    assertThat(signed.reshape(4).isSigned()).isTrue();
    assertThat(signed.slice(0, 1).isSigned()).isTrue();
    assertThat(signed.select(0).isSigned()).isTrue();
    assertThat(signed.copy().isSigned()).isTrue();
    assertThat(signed.asSignless().elementType()).isEqualTo(ElementType.I8);
    // The labels differ, so the arrays do (as an i8 and an si8 tensor do).
    assertThat(signed).isNotEqualTo(a);
    assertThat(signed.asSignless()).isEqualTo(a);
  }

  @Test
  void fromBufferViewKeepsTheSignedness() {
    ByteArray a = ByteArray.of(new byte[] {5, -6});
    BufferView signedView = a.asSigned().asBufferView();
    assertThat(signedView.elementTypeCode()).isEqualTo(0x11000008);
    for (ByteArray back :
        new ByteArray[] {
          ByteArray.fromBufferView(signedView), (ByteArray) NdArray.fromBufferView(signedView)
        }) {
      assertThat(back.isSigned()).isTrue();
      assertThat(back.toArray()).isEqualTo(new byte[] {5, -6});
    }
    assertThat(ByteArray.fromBufferView(a.asBufferView()).isSigned()).isFalse();
    // Unsigned views of the same width belong to the unsigned class.
    BufferView unsigned = BufferView.wrap(0x12000008, new long[] {2}, a.data());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ByteArray.fromBufferView(unsigned));
    assertThat(e)
        .hasMessageThat()
        .contains(
            "ByteArray holds i8 (HAL 0x10000008) or i1 (HAL 0x13000008) or si8 (HAL 0x11000008)");
    assertThat(e).hasMessageThat().contains("but the buffer view holds ui8");
    assertThat(e).hasMessageThat().contains("UByteArray.fromBufferView reads it");
  }

  @Test
  void nestedRoundTripAndToString() {
    byte[][] data = {{1, -2}, {3, -4}};
    ByteArray a = ByteArray.of(data);
    assertThat(a.toArray2D()).isEqualTo(data);
    assertThat(a.toString()).isEqualTo("ByteArray<2x2xi8> [[1, -2], [3, -4]]");
    assertThat(a.asSigned().toString()).isEqualTo("ByteArray<2x2xsi8> [[1, -2], [3, -4]]");
  }
}
