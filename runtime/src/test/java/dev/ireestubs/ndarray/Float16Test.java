package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Float16}: every one of the 65,536 half bit patterns, rounding from float against an
 * independent reference ({@link MiniFloatReference}), and against {@code Float.floatToFloat16} when
 * the JDK running the tests has it (Java 20+).
 */
class Float16Test {

  private static final MiniFloatReference REF = MiniFloatReference.F16;

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
      float f = Float16.toFloat(h);
      int raw = Float.floatToRawIntBits(f);
      if (REF.isNaN(bits)) {
        nans++;
        // A NaN, with the sign and the 10 payload bits (quiet bit included) at the top of the
        // float's significand.
        check(Float.isNaN(f) && Float16.isNaN(h), bits, f, "is not NaN");
        int expected = ((bits & 0x8000) << 16) | 0x7f800000 | ((bits & 0x3ff) << 13);
        check(raw == expected, bits, f, "should be", hex32(Float.intBitsToFloat(expected)));
      } else if (REF.isInfinite(bits)) {
        check(Float.isInfinite(f) && !Float16.isNaN(h), bits, f, "is not infinite");
        check((raw < 0) == REF.isNegative(bits), bits, f, "has the wrong sign");
      } else {
        check(!Float16.isNaN(h), bits, f, "is reported as NaN");
        // The exact value, compared as decimals (BigDecimal(double) is exact); signed zeros
        // keep their sign.
        BigDecimal exact = REF.exactValue(bits);
        check(new BigDecimal((double) f).compareTo(exact) == 0, bits, f, "should be", exact);
        check((raw < 0) == REF.isNegative(bits), bits, f, "has the wrong sign");
      }
      check(Float16.fromFloat(f) == h, bits, f, "does not convert back to the same bits");
    }
    assertThat(nans).isEqualTo(2 * 1023);
  }

  /** Fails naming the pattern and its float when {@code ok} is false; cheap when it is true. */
  private static void check(boolean ok, int bits, float f, Object... problem) {
    if (!ok) {
      StringBuilder message = new StringBuilder("half ").append(hex16(bits));
      message.append(" -> ").append(f).append(" (").append(hex32(f)).append(")");
      for (Object part : problem) {
        message.append(' ').append(part);
      }
      fail(message.toString());
    }
  }

  @Test
  void constants() {
    assertThat(Float16.toFloat(Float16.POSITIVE_INFINITY)).isEqualTo(Float.POSITIVE_INFINITY);
    assertThat(Float16.toFloat(Float16.NEGATIVE_INFINITY)).isEqualTo(Float.NEGATIVE_INFINITY);
    assertThat(Float16.toFloat(Float16.NaN)).isNaN();
    assertThat(Float.floatToRawIntBits(Float16.toFloat(Float16.NaN))).isEqualTo(0x7fc00000);
    assertThat(Float16.toFloat(Float16.MAX_VALUE)).isEqualTo(65504f);
    assertThat(Float16.toFloat(Float16.MIN_NORMAL)).isEqualTo(0x1p-14f);
    assertThat(Float16.toFloat(Float16.MIN_VALUE)).isEqualTo(0x1p-24f);
  }

  @Test
  void tiesRoundToEven() {
    // Between 1 (0x3c00) and 1 + 2^-10 (0x3c01): the even 0x3c00.
    assertThat(hex16(Float16.fromFloat(1f + 0x1p-11f))).isEqualTo("0x3c00");
    // Between 0x3c01 and 0x3c02: the even 0x3c02.
    assertThat(hex16(Float16.fromFloat(1f + 3 * 0x1p-11f))).isEqualTo("0x3c02");
    // Just off the tie goes to the nearer one.
    assertThat(hex16(Float16.fromFloat(Math.nextUp(1f + 0x1p-11f)))).isEqualTo("0x3c01");
    assertThat(hex16(Float16.fromFloat(Math.nextDown(1f + 3 * 0x1p-11f)))).isEqualTo("0x3c01");
    // 2047.5 lies between 2047 (0x67ff, odd) and 2048 (0x6800): the carry moves the exponent.
    assertThat(hex16(Float16.fromFloat(2047.5f))).isEqualTo("0x6800");
    assertThat(hex16(Float16.fromFloat(2046.5f))).isEqualTo("0x67fe");
    // Negative values mirror positive ones.
    assertThat(hex16(Float16.fromFloat(-1f - 0x1p-11f))).isEqualTo("0xbc00");
    assertThat(hex16(Float16.fromFloat(-2047.5f))).isEqualTo("0xe800");
  }

  @Test
  void overflowGoesToInfinityFromTheHalfwayPoint() {
    assertThat(hex16(Float16.fromFloat(65504f))).isEqualTo("0x7bff");
    // 65520 is halfway between 65504 and 2^16; the tie goes to the even pattern, infinity.
    assertThat(hex16(Float16.fromFloat(Math.nextDown(65520f)))).isEqualTo("0x7bff");
    assertThat(hex16(Float16.fromFloat(65520f))).isEqualTo("0x7c00");
    assertThat(hex16(Float16.fromFloat(-65520f))).isEqualTo("0xfc00");
    assertThat(hex16(Float16.fromFloat(-Math.nextDown(65520f)))).isEqualTo("0xfbff");
    assertThat(hex16(Float16.fromFloat(1e6f))).isEqualTo("0x7c00");
    assertThat(hex16(Float16.fromFloat(Float.MAX_VALUE))).isEqualTo("0x7c00");
    assertThat(hex16(Float16.fromFloat(-Float.MAX_VALUE))).isEqualTo("0xfc00");
    assertThat(hex16(Float16.fromFloat(Float.POSITIVE_INFINITY))).isEqualTo("0x7c00");
    assertThat(hex16(Float16.fromFloat(Float.NEGATIVE_INFINITY))).isEqualTo("0xfc00");
  }

  @Test
  void subnormalsAndUnderflow() {
    assertThat(hex16(Float16.fromFloat(0x1p-24f))).isEqualTo("0x0001");
    assertThat(hex16(Float16.fromFloat(0x3p-24f))).isEqualTo("0x0003");
    assertThat(hex16(Float16.fromFloat(0x3ffp-24f))).isEqualTo("0x03ff");
    // 2^-25 is halfway between 0 and the smallest subnormal: the even 0.
    assertThat(hex16(Float16.fromFloat(0x1p-25f))).isEqualTo("0x0000");
    assertThat(hex16(Float16.fromFloat(Math.nextUp(0x1p-25f)))).isEqualTo("0x0001");
    assertThat(hex16(Float16.fromFloat(-0x1p-25f))).isEqualTo("0x8000");
    // 3 * 2^-25 is halfway between 1 and 2 units: the even 2.
    assertThat(hex16(Float16.fromFloat(0x3p-25f))).isEqualTo("0x0002");
    assertThat(hex16(Float16.fromFloat(0x5p-25f))).isEqualTo("0x0002");
    // Halfway between the largest subnormal (0x03ff) and the smallest normal (0x0400).
    assertThat(hex16(Float16.fromFloat(0x7ffp-25f))).isEqualTo("0x0400");
    assertThat(hex16(Float16.fromFloat(Math.nextDown(0x7ffp-25f)))).isEqualTo("0x03ff");
    // Tiny floats, including float subnormals, become zeros of the same sign.
    assertThat(hex16(Float16.fromFloat(Float.MIN_VALUE))).isEqualTo("0x0000");
    assertThat(hex16(Float16.fromFloat(-Float.MIN_VALUE))).isEqualTo("0x8000");
    assertThat(hex16(Float16.fromFloat(Float.MIN_NORMAL))).isEqualTo("0x0000");
    assertThat(hex16(Float16.fromFloat(1e-10f))).isEqualTo("0x0000");
  }

  @Test
  void signedZeros() {
    assertThat(hex16(Float16.fromFloat(0f))).isEqualTo("0x0000");
    assertThat(hex16(Float16.fromFloat(-0f))).isEqualTo("0x8000");
    assertThat(Float.floatToRawIntBits(Float16.toFloat((short) 0x8000))).isEqualTo(0x80000000);
    assertThat(Float.floatToRawIntBits(Float16.toFloat((short) 0))).isEqualTo(0);
  }

  @Test
  void nanStaysNanKeepingSignAndTopPayloadBits() {
    // The canonical quiet NaN.
    assertThat(hex16(Float16.fromFloat(Float.NaN))).isEqualTo("0x7e00");
    assertThat(hex16(Float16.fromFloat(Float.intBitsToFloat(0xffc00000)))).isEqualTo("0xfe00");
    // A signalling NaN whose payload is in the top bits stays signalling.
    assertThat(hex16(Float16.fromFloat(Float.intBitsToFloat(0x7fa00000)))).isEqualTo("0x7d00");
    // A payload only in the 13 dropped bits would leave the significand zero, which spells
    // infinity: the quiet bit is set instead.
    assertThat(hex16(Float16.fromFloat(Float.intBitsToFloat(0x7f800001)))).isEqualTo("0x7e00");
    assertThat(hex16(Float16.fromFloat(Float.intBitsToFloat(0xff801fff)))).isEqualTo("0xfe00");
    // The general rule, over many payloads.
    SplittableRandom random = new SplittableRandom(16);
    for (int i = 0; i < 100_000; i++) {
      int payload = 1 + random.nextInt(0x7fffff);
      int sign = random.nextBoolean() ? 0x80000000 : 0;
      float nan = Float.intBitsToFloat(sign | 0x7f800000 | payload);
      int top = payload >>> 13;
      int expected = (sign >>> 16) | 0x7c00 | (top == 0 ? 0x200 : top);
      short got = Float16.fromFloat(nan);
      if (got != (short) expected) {
        assertWithMessage(hex32(nan)).that(hex16(got)).isEqualTo(hex16(expected));
      }
    }
  }

  @Test
  void roundingMatchesTheReferenceAroundEveryHalfValueAndMidpoint() {
    int checked = 0;
    for (int bits = 0; bits < REF.infinity; bits++) {
      double lo = REF.magnitude(bits);
      double hi = REF.magnitude(bits + 1); // 2^16 for the largest finite: the overflow boundary
      float mid = (float) ((lo + hi) / 2); // exact: 12 significant bits
      float[] probes = {
        (float) lo,
        Math.nextUp((float) lo),
        Math.nextDown(mid),
        mid,
        Math.nextUp(mid),
        Math.nextDown((float) hi),
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
    // Every 1021st bit pattern (a prime stride, so the low bits vary), then random ones.
    for (long bits = 0; bits <= 0xffffffffL; bits += 1021) {
      checkAgainstReference(Float.intBitsToFloat((int) bits));
    }
    SplittableRandom random = new SplittableRandom(1616);
    for (int i = 0; i < 500_000; i++) {
      checkAgainstReference(Float.intBitsToFloat(random.nextInt()));
    }
  }

  private static void checkAgainstReference(float value) {
    if (Float.isNaN(value)) {
      assertWithMessage(hex32(value)).that(Float16.isNaN(Float16.fromFloat(value))).isTrue();
      return;
    }
    short got = Float16.fromFloat(value);
    if (got != (short) REF.nearest(value)) {
      assertWithMessage("Float16.fromFloat(" + value + " = " + hex32(value) + ")")
          .that(hex16(got))
          .isEqualTo(hex16(REF.nearest(value)));
    }
  }

  // --- Cross-check against the JDK's own conversions (Java 20+), only where the JDK has them.

  private static final MethodHandle JDK_TO_HALF =
      jdkMethod("floatToFloat16", short.class, float.class);
  private static final MethodHandle JDK_TO_FLOAT =
      jdkMethod("float16ToFloat", float.class, short.class);

  private static MethodHandle jdkMethod(String name, Class<?> returns, Class<?> takes) {
    try {
      return MethodHandles.publicLookup()
          .findStatic(Float.class, name, MethodType.methodType(returns, takes));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null;
    }
  }

  @Test
  void agreesWithTheJdkFloatToFloat16WhereItExists() throws Throwable {
    assumeTrue(
        JDK_TO_HALF != null,
        "Float.floatToFloat16 needs Java 20+; running on "
            + Runtime.version()
            + " (the reference tests above still ran)");
    long compared = 0;
    // Every 61st float bit pattern: about 70 million, every exponent, varied low bits.
    for (long bits = 0; bits <= 0xffffffffL; bits += 61) {
      float f = Float.intBitsToFloat((int) bits);
      short jdk = (short) JDK_TO_HALF.invokeExact(f);
      short ours = Float16.fromFloat(f);
      if (Float.isNaN(f)) {
        // Both NaN, same sign. Payloads may differ: the JDK also folds the low 13 bits in.
        if (!Float16.isNaN(ours) || !Float16.isNaN(jdk) || ((ours ^ jdk) & 0x8000) != 0) {
          assertWithMessage("NaN " + hex32(f)).that(hex16(ours)).isEqualTo(hex16(jdk));
        }
      } else if (ours != jdk) {
        assertWithMessage("Float16.fromFloat(" + f + " = " + hex32(f) + ")")
            .that(hex16(ours))
            .isEqualTo(hex16(jdk));
      }
      compared++;
    }
    assertThat(compared).isGreaterThan(70_000_000L);
  }

  @Test
  void agreesWithTheJdkFloat16ToFloatWhereItExists() throws Throwable {
    assumeTrue(
        JDK_TO_FLOAT != null,
        "Float.float16ToFloat needs Java 20+; running on " + Runtime.version());
    for (int bits = 0; bits <= 0xffff; bits++) {
      float jdk = (float) JDK_TO_FLOAT.invokeExact((short) bits);
      float ours = Float16.toFloat((short) bits);
      if (Float.isNaN(jdk)) {
        assertWithMessage(hex16(bits)).that(Float.isNaN(ours)).isTrue();
        assertWithMessage(hex16(bits))
            .that(Float.floatToRawIntBits(ours) < 0)
            .isEqualTo(Float.floatToRawIntBits(jdk) < 0);
      } else {
        assertWithMessage(hex16(bits)).that(hex32(ours)).isEqualTo(hex32(jdk));
      }
    }
  }
}
