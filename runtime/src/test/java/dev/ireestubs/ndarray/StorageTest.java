package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** {@link Storage}: shape arithmetic and allocation shared by every array class. */
class StorageTest {

  @Test
  void countMultipliesAndReportsOverflow() {
    assertThat(Storage.count(new long[0])).isEqualTo(1);
    assertThat(Storage.count(new long[] {2, 3, 4})).isEqualTo(24);
    assertThat(Storage.count(new long[] {Long.MAX_VALUE})).isEqualTo(Long.MAX_VALUE);
    assertThat(Storage.count(new long[] {1L << 32, 1L << 32})).isEqualTo(-1);
    // A zero dimension makes the count 0 wherever it is, even after an overflowing prefix.
    assertThat(Storage.count(new long[] {1L << 62, 1L << 62, 0})).isEqualTo(0);
    assertThat(Storage.count(new long[] {0, 1L << 62, 1L << 62})).isEqualTo(0);
  }

  @Test
  void byteLengthAllowsExactlyIntegerMaxValueBytes() {
    // Arithmetic only: nothing is allocated.
    long[] max = {Integer.MAX_VALUE};
    assertThat(Storage.byteLength(ElementType.I8, max, "t")).isEqualTo(Integer.MAX_VALUE);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Storage.byteLength(ElementType.I8, new long[] {Integer.MAX_VALUE + 1L}, "t"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "t: shape 2147483648 of i8 needs 2147483648 elements of 1 bytes; an array holds at"
                + " most 2147483647 bytes");
    assertThat(Storage.byteLength(ElementType.F32, new long[] {Integer.MAX_VALUE / 4}, "t"))
        .isEqualTo(Integer.MAX_VALUE / 4 * 4);
    assertThrows(
        IllegalArgumentException.class,
        () -> Storage.byteLength(ElementType.F32, new long[] {Integer.MAX_VALUE / 4 + 1}, "t"));
    // Bytes overflow a long while the count does not.
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Storage.byteLength(ElementType.F64, new long[] {Long.MAX_VALUE / 4}, "t"));
    assertThat(e).hasMessageThat().contains("elements of 8 bytes; an array holds at most");
  }

  @Test
  void allocateGivesExactlyTheBytesAskedFor64ByteAlignedAndZeroed() {
    // Regression: alignedSlice rounds the limit down too, which left too few bytes for most
    // sizes when the allocator's address was not already 64-aligned.
    for (int bytes = 0; bytes <= 1024; bytes++) {
      ByteBuffer b = Storage.allocate(bytes).data;
      assertThat(b.capacity()).isEqualTo(bytes);
      assertThat(b.limit()).isEqualTo(bytes);
      assertThat(b.position()).isEqualTo(0);
      assertThat(b.isDirect()).isTrue();
      assertThat(b.order()).isEqualTo(ByteOrder.nativeOrder());
      assertThat(NativeMemory.address(b) % Storage.ALIGNMENT).isEqualTo(0);
      for (int i = 0; i < bytes; i++) {
        if (b.get(i) != 0) {
          throw new AssertionError("byte " + i + " of " + bytes + " is not zero");
        }
      }
    }
  }

  @Test
  void shapeForChecksTheDataLength() {
    assertThat(Storage.shapeFor("t", 6, new long[0])).isEqualTo(new long[] {6});
    assertThat(Storage.shapeFor("t", 6, new long[] {3, 2})).isEqualTo(new long[] {3, 2});
    long[] given = {3, 2};
    long[] kept = Storage.shapeFor("t", 6, given);
    given[0] = 1;
    assertThat(kept[0]).isEqualTo(3); // a copy, not the caller's array
    assertThrows(NullPointerException.class, () -> Storage.shapeFor("t", 6, null));
  }

  @Test
  void describeAndHex() {
    assertThat(Storage.describe(new long[0])).isEqualTo("scalar");
    assertThat(Storage.describe(new long[] {2, 0, 5})).isEqualTo("2x0x5");
    assertThat(Storage.hex(0x21000020)).isEqualTo("0x21000020");
    assertThat(Storage.hex(0x13000008)).isEqualTo("0x13000008");
  }
}
