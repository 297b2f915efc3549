package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link BFloat16}: every one of the 65,536 bf16 bit patterns, and rounding from float against an
 * independent reference ({@link MiniFloatReference}); the JDK has no bf16 conversion to compare
 * with.
 */
class BFloat16Test {

  private static final MiniFloatReference REF = MiniFloatReference.BF16;

  private static String hex16(int bits) {
    return String.format("0x%04x", bits & 0xffff);
  }

  private static String hex32(float value) {
    return String.format("0x%08x", Float.floatToRawIntBits(value));
  }

  @Test
  void everyBitPatternConvertsToItsExactValueAndBack() {
    int nans = 0;
    for (int bits = 0; bits <= 0xffff; bits++) {
      short h = (short) bits;
      float f = BFloat16.toFloat(h);
      // A bf16 is the top half of a float, NaN payloads included.
      check(Float.floatToRawIntBits(f) == bits << 16, bits, f, "is not the top half of a float");
      if (REF.isNaN(bits)) {
        nans++;
        check(Float.isNaN(f) && BFloat16.isNaN(h), bits, f, "is not NaN");
      } else if (REF.isInfinite(bits)) {
        check(Float.isInfinite(f) && !BFloat16.isNaN(h), bits, f, "is not infinite");
      } else {
        check(!BFloat16.isNaN(h), bits, f, "is reported as NaN");
        BigDecimal exact = REF.exactValue(bits);
        check(new BigDecimal((double) f).compareTo(exact) == 0, bits, f, "should be", exact);
      }
      check(BFloat16.fromFloat(f) == h, bits, f, "does not convert back to the same bits");
    }
    assertThat(nans).isEqualTo(2 * 127);
  }

  /** Fails naming the pattern and its float when {@code ok} is false; cheap when it is true. */
  private static void check(boolean ok, int bits, float f, Object... problem) {
    if (!ok) {
      StringBuilder message = new StringBuilder("bf16 ").append(hex16(bits));
      message.append(" -> ").append(f).append(" (").append(hex32(f)).append(")");
      for (Object part : problem) {
        message.append(' ').append(part);
      }
      fail(message.toString());
    }
  }

  @Test
  void constants() {
    assertThat(BFloat16.toFloat(BFloat16.POSITIVE_INFINITY)).isEqualTo(Float.POSITIVE_INFINITY);
    assertThat(BFloat16.toFloat(BFloat16.NEGATIVE_INFINITY)).isEqualTo(Float.NEGATIVE_INFINITY);
    assertThat(Float.floatToRawIntBits(BFloat16.toFloat(BFloat16.NaN))).isEqualTo(0x7fc00000);
    assertThat(BFloat16.toFloat(BFloat16.MAX_VALUE)).isEqualTo(0x1.fep127f);
    assertThat(BFloat16.toFloat(BFloat16.MIN_NORMAL)).isEqualTo(0x1p-126f);
    assertThat(BFloat16.toFloat(BFloat16.MIN_VALUE)).isEqualTo(0x1p-133f);
  }

  @Test
  void tiesRoundToEven() {
    // Between 1 (0x3f80) and 1 + 2^-7 (0x3f81): the even 0x3f80.
    assertThat(hex16(BFloat16.fromFloat(1f + 0x1p-8f))).isEqualTo("0x3f80");
    // Between 0x3f81 and 0x3f82: the even 0x3f82.
    assertThat(hex16(BFloat16.fromFloat(1f + 3 * 0x1p-8f))).isEqualTo("0x3f82");
    assertThat(hex16(BFloat16.fromFloat(Math.nextUp(1f + 0x1p-8f)))).isEqualTo("0x3f81");
    assertThat(hex16(BFloat16.fromFloat(Math.nextDown(1f + 3 * 0x1p-8f)))).isEqualTo("0x3f81");
    // 255.5 is between 255 (0x437f, odd) and 256 (0x4380): the carry moves the exponent.
    assertThat(hex16(BFloat16.fromFloat(255.5f))).isEqualTo("0x4380");
    assertThat(hex16(BFloat16.fromFloat(-255.5f))).isEqualTo("0xc380");
    assertThat(hex16(BFloat16.fromFloat(254.5f))).isEqualTo("0x437e");
  }

  @Test
  void overflowGoesToInfinityFromTheHalfwayPoint() {
    // The largest bf16 is 0x7f7f; halfway to 2^128 is the float 0x7f7f8000, a tie to the even
    // pattern 0x7f80: infinity.
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x7f7f7fff)))).isEqualTo("0x7f7f");
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x7f7f8000)))).isEqualTo("0x7f80");
    assertThat(hex16(BFloat16.fromFloat(Float.MAX_VALUE))).isEqualTo("0x7f80");
    assertThat(hex16(BFloat16.fromFloat(-Float.MAX_VALUE))).isEqualTo("0xff80");
    assertThat(hex16(BFloat16.fromFloat(Float.POSITIVE_INFINITY))).isEqualTo("0x7f80");
    assertThat(hex16(BFloat16.fromFloat(Float.NEGATIVE_INFINITY))).isEqualTo("0xff80");
    // The tie below infinity in the previous binade goes to the even 0x7f7e.
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x7f7e8000)))).isEqualTo("0x7f7e");
  }

  @Test
  void subnormalsAndUnderflow() {
    // bf16 subnormals are the float subnormals with the low 16 bits dropped, in steps of 2^-133.
    assertThat(hex16(BFloat16.fromFloat(0x1p-133f))).isEqualTo("0x0001");
    assertThat(hex16(BFloat16.fromFloat(Float.MIN_VALUE))).isEqualTo("0x0000");
    assertThat(hex16(BFloat16.fromFloat(-Float.MIN_VALUE))).isEqualTo("0x8000");
    // Halfway between 0 and 2^-133: the even zero. Just above: the smallest subnormal.
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x00008000)))).isEqualTo("0x0000");
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x00008001)))).isEqualTo("0x0001");
    // Halfway between 1 and 2 units: the even 2.
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x00018000)))).isEqualTo("0x0002");
    // The largest float subnormal rounds up to the smallest normal bf16.
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x007fffff)))).isEqualTo("0x0080");
    assertThat(hex16(BFloat16.fromFloat(Float.MIN_NORMAL))).isEqualTo("0x0080");
  }

  @Test
  void signedZeros() {
    assertThat(hex16(BFloat16.fromFloat(0f))).isEqualTo("0x0000");
    assertThat(hex16(BFloat16.fromFloat(-0f))).isEqualTo("0x8000");
    assertThat(Float.floatToRawIntBits(BFloat16.toFloat((short) 0x8000))).isEqualTo(0x80000000);
  }

  @Test
  void nanStaysNanAndNeverBecomesInfinity() {
    assertThat(hex16(BFloat16.fromFloat(Float.NaN))).isEqualTo("0x7fc0");
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0xffc00000)))).isEqualTo("0xffc0");
    // A signalling NaN with a payload in the top 7 bits is kept as it is.
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x7f810000)))).isEqualTo("0x7f81");
    // Payload only in the low 16 bits: truncation would give 0x7f80 (infinity), rounding could
    // carry into the sign-adjacent bits; the quiet bit is set instead.
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x7f800001)))).isEqualTo("0x7fc0");
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x7f80ffff)))).isEqualTo("0x7fc0");
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0xff80ffff)))).isEqualTo("0xffc0");
    // A NaN whose low bits would round the payload up is not rounded (0x7fff ffff stays 0x7fff).
    assertThat(hex16(BFloat16.fromFloat(Float.intBitsToFloat(0x7fffffff)))).isEqualTo("0x7fff");
    SplittableRandom random = new SplittableRandom(1616);
    for (int i = 0; i < 100_000; i++) {
      int payload = 1 + random.nextInt(0x7fffff);
      int sign = random.nextBoolean() ? 0x80000000 : 0;
      float nan = Float.intBitsToFloat(sign | 0x7f800000 | payload);
      int top = payload >>> 16;
      int expected = (sign >>> 16) | 0x7f80 | (top == 0 ? 0x40 : top);
      short got = BFloat16.fromFloat(nan);
      if (got != (short) expected) {
        assertWithMessage(hex32(nan)).that(hex16(got)).isEqualTo(hex16(expected));
      }
    }
  }

  @Test
  void roundingMatchesTheReferenceAroundEveryValueAndMidpoint() {
    int checked = 0;
    for (int bits = 0; bits < REF.infinity; bits++) {
      double lo = REF.magnitude(bits);
      double hi = REF.magnitude(bits + 1); // 2^128 for the largest finite: not a float
      float mid = (float) ((lo + hi) / 2); // exact: 9 significant bits, >= 2^-134
      float[] probes = {
        (float) lo,
        Math.nextUp((float) lo),
        Math.nextDown(mid),
        mid,
        Math.nextUp(mid),
        Math.nextDown((float) hi), // Float.MAX_VALUE when hi is 2^128 (which is float infinity)
      };
      for (float p : probes) {
        checkAgainstReference(p);
        checkAgainstReference(-p);
        checked += 2;
      }
    }
    assertThat(checked).isEqualTo(REF.infinity * 12);
  }

  @Test
  void roundingMatchesTheReferenceOverASpreadOfAllFloats() {
    for (long bits = 0; bits <= 0xffffffffL; bits += 1021) {
      checkAgainstReference(Float.intBitsToFloat((int) bits));
    }
    SplittableRandom random = new SplittableRandom(16);
    for (int i = 0; i < 500_000; i++) {
      checkAgainstReference(Float.intBitsToFloat(random.nextInt()));
    }
  }

  private static void checkAgainstReference(float value) {
    if (Float.isNaN(value)) {
      assertWithMessage(hex32(value)).that(BFloat16.isNaN(BFloat16.fromFloat(value))).isTrue();
      return;
    }
    short got = BFloat16.fromFloat(value);
    if (got != (short) REF.nearest(value)) {
      assertWithMessage("BFloat16.fromFloat(" + value + " = " + hex32(value) + ")")
          .that(hex16(got))
          .isEqualTo(hex16(REF.nearest(value)));
    }
  }
}
