package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import org.junit.jupiter.api.Test;

/**
 * {@link BFloat16Array}: bf16 storage, rounding on the way in, exact values on the way out, and the
 * raw bit methods (shared behaviour is in {@link AllArraysTest}; the conversion itself in {@link
 * BFloat16Test}).
 */
class BFloat16ArrayTest {

  @Test
  void holdsBf16AsTheTopHalfOfAFloat() {
    BFloat16Array a = BFloat16Array.of(new float[] {1f, -2f, 3.140625f});
    assertThat(a.elementType()).isEqualTo(ElementType.BF16);
    assertThat(a.halElementType()).isEqualTo(0x22000010);
    assertThat(a.byteLength()).isEqualTo(6);
    for (int i = 0; i < 3; i++) {
      assertThat(a.data().getShort(2 * i))
          .isEqualTo((short) (Float.floatToRawIntBits(a.get(i)) >>> 16));
    }
    assertThat(a.getBits(0)).isEqualTo((short) 0x3f80);
  }

  @Test
  void valuesAreRoundedToNearestEvenOnTheWayIn() {
    float tie = 1f + 0x1p-8f; // halfway between 0x3f80 and 0x3f81
    BFloat16Array a =
        BFloat16Array.of(
            new float[] {tie, Float.MAX_VALUE, -0f, Float.intBitsToFloat(0x7f800001), 0.1f});
    assertThat(a.toBits()).isEqualTo(new short[] {0x3f80, 0x7f80, (short) 0x8000, 0x7fc0, 0x3dcd});
    assertThat(a.get(4)).isEqualTo(0.10009765625f);
    assertThat(a.get(3)).isNaN();
    a.set(1f + 3 * 0x1p-8f, 0);
    assertThat(a.getBits(0)).isEqualTo((short) 0x3f82);
    a.setFlat(255.5f, 1);
    assertThat(a.get(1)).isEqualTo(256f);
    a.fill(tie);
    assertThat(a.toArray()).usingExactEquality().containsExactly(1f, 1f, 1f, 1f, 1f);
    assertThat(BFloat16Array.scalar(tie).getBits()).isEqualTo((short) 0x3f80);
  }

  @Test
  void everyBitPatternSurvivesTheArray() {
    short[] all = new short[65536];
    for (int i = 0; i < all.length; i++) {
      all[i] = (short) i;
    }
    BFloat16Array bits = BFloat16Array.ofBits(all, 16, 16, 256);
    assertThat(bits.toBits()).isEqualTo(all);
    float[] values = bits.toArray();
    for (int i = 0; i < all.length; i++) {
      assertThat(Float.floatToRawIntBits(values[i])).isEqualTo(i << 16);
    }
    assertThat(BFloat16Array.of(values).toBits()).isEqualTo(all);
  }

  @Test
  void rawBitsAreStoredUnconverted() {
    BFloat16Array a = BFloat16Array.ofBits(new short[] {0x7f81, 0x0001});
    assertThat(a.getBits(0)).isEqualTo((short) 0x7f81);
    assertThat(a.get(1)).isEqualTo(0x1p-133f);
    a.setBits((short) 0x7f7f, 1);
    assertThat(a.get(1)).isEqualTo(0x1.fep127f);
  }

  @Test
  void equalityComparesValues() {
    assertThat(BFloat16Array.ofBits(new short[] {0x7f81}))
        .isEqualTo(BFloat16Array.ofBits(new short[] {0x7fc0}));
    assertThat(BFloat16Array.ofBits(new short[] {(short) 0x8000}))
        .isNotEqualTo(BFloat16Array.ofBits(new short[] {0}));
  }

  @Test
  void rejectsBadInputs() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BFloat16Array.ofBits(new short[3], 2));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("BFloat16Array.ofBits: shape 2 holds 2 elements but the data has 3");
    assertThrows(NullPointerException.class, () -> BFloat16Array.of((float[]) null));
  }

  @Test
  void toStringPrintsValues() {
    assertThat(BFloat16Array.of(new float[][] {{1f}, {0.1f}}).toString())
        .isEqualTo("BFloat16Array<2x1xbf16> [[1.0], [" + Float.toString(0.10009765625f) + "]]");
  }
}
