package dev.ireestubs.ndarray;

/**
 * Exact conversions between bfloat16 ({@code bf16}, "brain float") bit patterns and {@code float}.
 *
 * <p>A {@code bf16} is the top 16 bits of a {@code float}: 1 sign bit, 8 exponent bits (bias 127,
 * the same range as {@code float}) and 7 significand bits, held in a {@code short}. {@link
 * #toFloat} is exact. {@link #fromFloat} rounds to nearest, ties to even:
 *
 * <ul>
 *   <li>magnitudes of at least 2<sup>128</sup> &times; (1 - 2<sup>-9</sup>) (halfway between the
 *       largest bf16 and 2<sup>128</sup>) become infinities of the same sign, as do infinities;
 *   <li>subnormal {@code float}s round to bf16 subnormals (steps of 2<sup>-133</sup>) or to a zero
 *       of the same sign;
 *   <li>a NaN stays a NaN of the same sign, keeping the top 7 bits of its significand (a quiet NaN
 *       stays quiet; every bf16 NaN survives a round trip through {@code float}); when those 7 bits
 *       are all zero, which would spell infinity, the quiet bit ({@code 0x0040}) is set instead.
 *       Plain truncation, as some libraries do, could turn such a NaN into infinity.
 * </ul>
 */
public final class BFloat16 {

  /** Positive infinity, {@code 0x7f80}. */
  public static final short POSITIVE_INFINITY = (short) 0x7f80;

  /** Negative infinity, {@code 0xff80}. */
  public static final short NEGATIVE_INFINITY = (short) 0xff80;

  /** The canonical quiet NaN, {@code 0x7fc0}. */
  public static final short NaN = (short) 0x7fc0;

  /** The largest finite value, about 3.39e38 ({@code 0x7f7f}). */
  public static final short MAX_VALUE = (short) 0x7f7f;

  /** The smallest positive normal value, 2<sup>-126</sup> ({@code 0x0080}). */
  public static final short MIN_NORMAL = (short) 0x0080;

  /** The smallest positive (subnormal) value, 2<sup>-133</sup> ({@code 0x0001}). */
  public static final short MIN_VALUE = (short) 0x0001;

  private BFloat16() {}

  /**
   * The {@code float} whose value the bf16 bit pattern {@code bits} spells; exact, NaNs kept.
   *
   * @param bits a bfloat16 bit pattern (the top 16 bits of a {@code float})
   * @return the exact {@code float} value
   */
  public static float toFloat(short bits) {
    return Float.intBitsToFloat((bits & 0xffff) << 16);
  }

  /**
   * The bf16 bit pattern nearest to {@code value}, ties to even; see the class description for
   * overflow, subnormals and NaN.
   *
   * @param value the number to round; any {@code float}, NaN and infinities included
   * @return the nearest bf16 bit pattern
   */
  public static short fromFloat(float value) {
    int bits = Float.floatToRawIntBits(value);
    if ((bits & 0x7fffffff) > 0x7f800000) {
      int top = bits >>> 16;
      if ((top & 0x7f) == 0) {
        top |= 0x40;
      }
      return (short) top;
    }
    // Add just under half of the dropped part's range, plus one when the kept part is odd, so
    // exact halves round to even. A carry ripples into the exponent (up to infinity) correctly;
    // it cannot reach the sign bit because no finite float is that large.
    int rounded = bits + 0x7fff + ((bits >>> 16) & 1);
    return (short) (rounded >>> 16);
  }

  /**
   * True when {@code bits} is a NaN pattern (exponent all ones, significand not zero).
   *
   * @param bits a bfloat16 bit pattern (the top 16 bits of a {@code float})
   * @return true for any NaN pattern, whatever its sign and payload
   */
  public static boolean isNaN(short bits) {
    return (bits & 0x7fff) > 0x7f80;
  }
}
