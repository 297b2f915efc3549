package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import org.junit.jupiter.api.Test;

/**
 * {@link HalfArray}: f16 storage, rounding on the way in, exact values on the way out, and the raw
 * bit methods (shared behaviour is in {@link AllArraysTest}; the conversion itself in {@link
 * Float16Test}).
 */
class HalfArrayTest {

  @Test
  void holdsF16AsTwoBytesEach() {
    HalfArray a = HalfArray.of(new float[] {1f, -2f, 0.5f});
    assertThat(a.elementType()).isEqualTo(ElementType.F16);
    assertThat(a.halElementType()).isEqualTo(0x21000010);
    assertThat(a.byteLength()).isEqualTo(6);
    assertThat(a.data().getShort(0)).isEqualTo((short) 0x3c00);
    assertThat(a.data().getShort(2)).isEqualTo((short) 0xc000);
    assertThat(a.data().getShort(4)).isEqualTo((short) 0x3800);
  }

  @Test
  void valuesAreRoundedToNearestEvenOnTheWayIn() {
    float tie = 1f + 0x1p-11f; // halfway between 0x3c00 and 0x3c01
    HalfArray a = HalfArray.of(new float[] {tie, 65520f, 1e-8f, -0f, Float.NaN, 0.1f});
    assertThat(a.toBits())
        .isEqualTo(
            new short[] {0x3c00, 0x7c00, 0, (short) 0x8000, 0x7e00, Float16.fromFloat(0.1f)});
    // Reads are exact: 0.1 comes back as the half nearest to it, not 0.1.
    assertThat(a.get(5)).isEqualTo(0.0999755859375f);
    assertThat(a.get(1)).isEqualTo(Float.POSITIVE_INFINITY);
    assertThat(Float.floatToRawIntBits(a.get(3))).isEqualTo(0x80000000);
    a.set(1f + 3 * 0x1p-11f, 0);
    assertThat(a.getBits(0)).isEqualTo((short) 0x3c02);
    a.setFlat(-65520f, 0);
    assertThat(a.getBits(0)).isEqualTo((short) 0xfc00);
    a.fill(2047.5f);
    assertThat(a.toArray())
        .usingExactEquality()
        .containsExactly(2048f, 2048f, 2048f, 2048f, 2048f, 2048f);
    assertThat(HalfArray.scalar(tie).getBits()).isEqualTo((short) 0x3c00);
    assertThat(HalfArray.of(new float[][] {{tie}}).getBits(0, 0)).isEqualTo((short) 0x3c00);
  }

  @Test
  void everyBitPatternSurvivesTheArray() {
    short[] all = new short[65536];
    for (int i = 0; i < all.length; i++) {
      all[i] = (short) i;
    }
    HalfArray bits = HalfArray.ofBits(all, 256, 256);
    assertThat(bits.toBits()).isEqualTo(all);
    float[] values = bits.toArray();
    for (int i = 0; i < all.length; i++) {
      assertThat(Float.floatToRawIntBits(values[i]))
          .isEqualTo(Float.floatToRawIntBits(Float16.toFloat(all[i])));
    }
    // float -> half through the array gives back every pattern, NaN payloads included.
    assertThat(HalfArray.of(values).toBits()).isEqualTo(all);
    assertThat(bits.getBits(255, 255)).isEqualTo((short) -1);
    assertThat(bits.get(0x7c, 0x01)).isNaN(); // 0x7c01, a signalling NaN
  }

  @Test
  void rawBitsAreStoredUnconverted() {
    HalfArray a = HalfArray.ofBits(new short[] {0x7d01, (short) 0xfe00, 0x0001}, 3);
    assertThat(a.getBits(0)).isEqualTo((short) 0x7d01);
    assertThat(a.get(2)).isEqualTo(0x1p-24f);
    a.setBits((short) 0x7bff, 2);
    assertThat(a.get(2)).isEqualTo(65504f);
    assertThat(a.data().getShort(4)).isEqualTo((short) 0x7bff);
  }

  @Test
  void equalityComparesValues() {
    // Different NaN patterns are equal (as Float.equals has it); signed zeros are not.
    HalfArray quiet = HalfArray.ofBits(new short[] {0x7e00});
    HalfArray signalling = HalfArray.ofBits(new short[] {0x7d01});
    assertThat(signalling).isEqualTo(quiet);
    assertThat(signalling.hashCode()).isEqualTo(quiet.hashCode());
    assertThat(HalfArray.ofBits(new short[] {(short) 0x8000}))
        .isNotEqualTo(HalfArray.ofBits(new short[] {0}));
    // Same bits, other class or type: not equal.
    assertThat(BFloat16Array.ofBits(new short[] {0x3c00}))
        .isNotEqualTo(HalfArray.ofBits(new short[] {0x3c00}));
  }

  @Test
  void rejectsBadInputs() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HalfArray.ofBits(new short[3], 2, 2));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("HalfArray.ofBits: shape 2x2 holds 4 elements but the data has 3");
    assertThrows(NullPointerException.class, () -> HalfArray.ofBits(null));
    assertThrows(IndexOutOfBoundsException.class, () -> HalfArray.zeros(2).getBits(2));
    assertThrows(IllegalArgumentException.class, () -> HalfArray.zeros(2).setBits((short) 0, 0, 0));
  }

  @Test
  void toStringPrintsValues() {
    assertThat(HalfArray.of(new float[] {1f, 0.1f, Float.NEGATIVE_INFINITY}).toString())
        .isEqualTo("HalfArray<3xf16> [1.0, " + Float.toString(0.0999755859375f) + ", -Infinity]");
  }
}
