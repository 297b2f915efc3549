package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import org.junit.jupiter.api.Test;

/**
 * {@link IntArray}: two's-complement 32-bit integers, signless {@code i32} from the factories,
 * relabelled signed {@code si32} without copying.
 */
class IntArrayTest {

  @Test
  void extremesRoundTripInNativeOrder() {
    int[] values = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE};
    IntArray a = IntArray.of(values);
    assertThat(a.toArray()).isEqualTo(values);
    assertThat(a.get(0)).isEqualTo(Integer.MIN_VALUE);
    assertThat(a.get(4)).isEqualTo(Integer.MAX_VALUE);
    assertThat(a.data().getInt(3 * 4)).isEqualTo((int) 1);
    assertThat(a.byteLength()).isEqualTo(5 * 4);
  }

  @Test
  void factoriesAreSignlessAndAsSignedIsAViewWithTheSignedLabel() {
    IntArray a = IntArray.of(new int[] {1, 2, 3, 4}, 2, 2);
    assertThat(a.elementType()).isEqualTo(ElementType.I32);
    assertThat(a.halElementType()).isEqualTo(0x10000020);
    assertThat(a.isSigned()).isFalse();
    assertThat(a.asSignless()).isSameInstanceAs(a);
    IntArray signed = a.asSigned();
    assertThat(signed.isSigned()).isTrue();
    assertThat(signed.elementType()).isEqualTo(ElementType.SI32);
    assertThat(signed.halElementType()).isEqualTo(0x11000020);
    assertThat(signed.asSigned()).isSameInstanceAs(signed);
    assertThat(signed.shape()).isEqualTo(new long[] {2, 2});
    // Same memory.
    assertThat(NativeMemory.address(signed.data())).isEqualTo(NativeMemory.address(a.data()));
    signed.set((int) -9, 1, 1);
    assertThat(a.get(1, 1)).isEqualTo((int) -9);
    // Labels survive views and copies.
    assertThat(signed.reshape(4).isSigned()).isTrue();
    assertThat(signed.slice(0, 1).isSigned()).isTrue();
    assertThat(signed.select(0).isSigned()).isTrue();
    assertThat(signed.copy().isSigned()).isTrue();
    assertThat(signed.asSignless().elementType()).isEqualTo(ElementType.I32);
    // The labels differ, so the arrays do (as an i32 and an si32 tensor do).
    assertThat(signed).isNotEqualTo(a);
    assertThat(signed.asSignless()).isEqualTo(a);
  }

  @Test
  void fromBufferViewKeepsTheSignedness() {
    IntArray a = IntArray.of(new int[] {5, -6});
    BufferView signedView = a.asSigned().asBufferView();
    assertThat(signedView.elementTypeCode()).isEqualTo(0x11000020);
    for (IntArray back :
        new IntArray[] {
          IntArray.fromBufferView(signedView), (IntArray) NdArray.fromBufferView(signedView)
        }) {
      assertThat(back.isSigned()).isTrue();
      assertThat(back.toArray()).isEqualTo(new int[] {5, -6});
    }
    assertThat(IntArray.fromBufferView(a.asBufferView()).isSigned()).isFalse();
    // Unsigned views of the same width belong to the unsigned class.
    BufferView unsigned = BufferView.wrap(0x12000020, new long[] {2}, a.data());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> IntArray.fromBufferView(unsigned));
    assertThat(e)
        .hasMessageThat()
        .contains("IntArray holds i32 (HAL 0x10000020) or si32 (HAL 0x11000020)");
    assertThat(e).hasMessageThat().contains("but the buffer view holds ui32");
    assertThat(e).hasMessageThat().contains("UIntArray.fromBufferView reads it");
  }

  @Test
  void nestedRoundTripAndToString() {
    int[][] data = {{1, -2}, {3, -4}};
    IntArray a = IntArray.of(data);
    assertThat(a.toArray2D()).isEqualTo(data);
    assertThat(a.toString()).isEqualTo("IntArray<2x2xi32> [[1, -2], [3, -4]]");
    assertThat(a.asSigned().toString()).isEqualTo("IntArray<2x2xsi32> [[1, -2], [3, -4]]");
  }

  @Test
  void asIntBufferSharesMemory() {
    IntArray a = IntArray.zeros(2, 2);
    a.asIntBuffer().put(3, -70000);
    assertThat(a.get(1, 1)).isEqualTo(-70000);
    a.set(5, 0, 0);
    assertThat(a.asIntBuffer().get(0)).isEqualTo(5);
  }
}
