package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@link BoolArray}: i1 stored as one byte per element, 0 or 1. */
class BoolArrayTest {

  @Test
  void storesOneByteZeroOrOnePerElement() {
    BoolArray a = BoolArray.of(new boolean[] {true, false, true, true});
    assertThat(a.elementType()).isEqualTo(ElementType.I1);
    assertThat(a.halElementType()).isEqualTo(0x13000008);
    assertThat(a.byteLength()).isEqualTo(4);
    assertThat(NativeMemory.bytes(a.data())).isEqualTo(new byte[] {1, 0, 1, 1});
    a.set(false, 0);
    a.setFlat(true, 1);
    assertThat(NativeMemory.bytes(a.data())).isEqualTo(new byte[] {0, 1, 1, 1});
    a.fill(true);
    assertThat(NativeMemory.bytes(a.data())).isEqualTo(new byte[] {1, 1, 1, 1});
    assertThat(NativeMemory.bytes(BoolArray.scalar(true).data())).isEqualTo(new byte[] {1});
    assertThat(NativeMemory.bytes(BoolArray.of(new boolean[][] {{true}, {false}}).data()))
        .isEqualTo(new byte[] {1, 0});
  }

  @Test
  void anyNonZeroByteReadsAsTrueAndEqualsOne() {
    ByteBuffer bytes = ByteBuffer.allocateDirect(4);
    bytes.put(new byte[] {0, 2, (byte) 0x80, -1}).flip();
    BoolArray a = BoolArray.wrap(bytes);
    assertThat(a.toArray()).isEqualTo(new boolean[] {false, true, true, true});
    assertThat(a.get(3)).isTrue();
    BoolArray canonical = BoolArray.of(new boolean[] {false, true, true, true});
    assertThat(a).isEqualTo(canonical);
    assertThat(a.hashCode()).isEqualTo(canonical.hashCode());
    assertThat(a.toString()).isEqualTo("BoolArray<4xi1> [false, true, true, true]");
    // A copy keeps the bytes as they are; writing normalises only the written element.
    assertThat(NativeMemory.bytes(a.copy().data())).isEqualTo(new byte[] {0, 2, (byte) 0x80, -1});
    a.set(true, 1);
    assertThat(bytes.get(1)).isEqualTo((byte) 1);
  }

  @Test
  void bufferViewsUseBool8() {
    BoolArray a = BoolArray.of(new boolean[] {true, false});
    BufferView view = a.asBufferView();
    assertThat(view.elementTypeCode()).isEqualTo(0x13000008);
    assertThat(NdArray.fromBufferView(view)).isInstanceOf(BoolArray.class);
    // IREE stores i1 in bytes: an i8 or ui8 view reads as booleans, typed i1.
    for (int code : new int[] {0x10000008, 0x11000008, 0x12000008}) {
      BufferView bytes =
          BufferView.wrap(code, new long[] {3}, ByteArray.of(new byte[] {1, 0, 2}).data());
      BoolArray b = BoolArray.fromBufferView(bytes);
      assertThat(b.elementType()).isEqualTo(ElementType.I1);
      assertThat(b.toArray()).isEqualTo(new boolean[] {true, false, true});
    }
    // A view of another width is not, and the message says which class reads it.
    BufferView i16 = ShortArray.of(new short[] {1, 0}).asBufferView();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BoolArray.fromBufferView(i16));
    assertThat(e)
        .hasMessageThat()
        .contains(
            "BoolArray holds i1 (HAL 0x13000008) or i8 (HAL 0x10000008) or si8 (HAL 0x11000008)"
                + " or ui8 (HAL 0x12000008)");
    assertThat(e).hasMessageThat().contains("ShortArray.fromBufferView reads it");
  }

  @Test
  void nestedRoundTrip() {
    boolean[][][][] data = new boolean[2][1][3][2];
    data[1][0][2][1] = true;
    data[0][0][1][0] = true;
    BoolArray a = BoolArray.of(data);
    assertThat(a.toArray4D()).isEqualTo(data);
    assertThat(a.get(1, 0, 2, 1)).isTrue();
    assertThat(a.getFlat(2)).isTrue();
    assertThat(a.getFlat(3)).isFalse();
  }
}
