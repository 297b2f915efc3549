package dev.ireestubs.ndarray;

/**
 * Exact conversions between IEEE 754 binary16 ({@code f16}, "half") bit patterns and {@code float},
 * for Java 17 (which has no {@code Float.float16ToFloat}; that arrived in Java 20).
 *
 * <p>An {@code f16} is held as the 16 bits of a {@code short}: 1 sign bit, 5 exponent bits (bias
 * 15) and 10 significand bits. Every {@code f16} value is exactly representable as a {@code float},
 * so {@link #toFloat} is exact; {@link #fromFloat} rounds to nearest, ties to even, as IEEE 754
 * {@code convertFormat} does in the default rounding mode:
 *
 * <ul>
 *   <li>magnitudes of 65520 or more (halfway between the largest half, 65504, and 2<sup>16</sup>)
 *       and infinities become infinities of the same sign;
 *   <li>magnitudes below the smallest normal half (2<sup>-14</sup>) round to subnormals, in steps
 *       of 2<sup>-24</sup>; at most 2<sup>-25</sup> they round to a zero of the same sign;
 *   <li>signed zeros keep their sign;
 *   <li>a NaN stays a NaN of the same sign, keeping the top 10 bits of its significand (so a quiet
 *       NaN stays quiet and every half NaN survives a round trip through {@code float} unchanged);
 *       when those 10 bits are all zero, which would spell infinity, the quiet bit ({@code 0x0200})
 *       is set instead. The lower 13 significand bits of a {@code float} NaN are dropped.
 * </ul>
 *
 * <p>For every non-NaN {@code float}, {@link #fromFloat} gives the same bits as Java 20's {@code
 * Float.floatToFloat16}. For NaNs both give a NaN of the same sign, but {@code floatToFloat16} also
 * folds the lower 13 significand bits into the payload, so the payloads can differ when any of
 * those bits is set.
 *
 * <p>Converting a {@code double} through {@code (float)} first can round twice; convert from a
 * {@code float} when exact IEEE rounding of a {@code double} matters.
 */
public final class Float16 {

  /** Positive infinity, {@code 0x7c00}. */
  public static final short POSITIVE_INFINITY = (short) 0x7c00;

  /** Negative infinity, {@code 0xfc00}. */
  public static final short NEGATIVE_INFINITY = (short) 0xfc00;

  /** The canonical quiet NaN, {@code 0x7e00}. */
  public static final short NaN = (short) 0x7e00;

  /** The largest finite value, 65504 ({@code 0x7bff}). */
  public static final short MAX_VALUE = (short) 0x7bff;

  /** The smallest positive normal value, 2<sup>-14</sup> ({@code 0x0400}). */
  public static final short MIN_NORMAL = (short) 0x0400;

  /** The smallest positive (subnormal) value, 2<sup>-24</sup> ({@code 0x0001}). */
  public static final short MIN_VALUE = (short) 0x0001;

  private Float16() {}

  /**
   * The {@code float} whose value the half bit pattern {@code bits} spells; exact. A NaN keeps its
   * sign and its significand bits (shifted into the top of the {@code float} significand).
   *
   * @param bits a half-precision (IEEE 754 binary16) bit pattern
   * @return the exact {@code float} value
   */
  public static float toFloat(short bits) {
    int h = bits & 0xffff;
    int sign = (h & 0x8000) << 16;
    int exponent = (h >>> 10) & 0x1f;
    int significand = h & 0x3ff;
    if (exponent == 0x1f) {
      // Infinity (significand 0) or NaN (payload kept).
      return Float.intBitsToFloat(sign | 0x7f800000 | (significand << 13));
    }
    if (exponent == 0) {
      // Zero or subnormal: significand * 2^-24, exact in float.
      float magnitude = significand * 0x1p-24f;
      return sign == 0 ? magnitude : -magnitude;
    }
    // Normal: rebias the exponent from 15 to 127.
    return Float.intBitsToFloat(sign | ((exponent + (127 - 15)) << 23) | (significand << 13));
  }

  /**
   * The half bit pattern nearest to {@code value}, ties to even; see the class description for
   * overflow, underflow, zeros and NaN.
   *
   * @param value the number to round; any {@code float}, NaN and infinities included
   * @return the nearest half bit pattern
   */
  public static short fromFloat(float value) {
    int bits = Float.floatToRawIntBits(value);
    int sign = (bits >>> 16) & 0x8000;
    int magnitude = bits & 0x7fffffff;
    if (magnitude > 0x7f800000) {
      // NaN: keep the top 10 significand bits; never let the result spell infinity.
      int payload = (magnitude >>> 13) & 0x3ff;
      if (payload == 0) {
        payload = 0x200;
      }
      return (short) (sign | 0x7c00 | payload);
    }
    if (magnitude >= 0x477ff000) {
      // At least 65520 (65504 + half an ulp, a tie that goes to the even 2^16): infinity.
      return (short) (sign | 0x7c00);
    }
    if (magnitude >= 0x38800000) {
      // At least 2^-14: a normal half. Rebias the exponent (subtract 112 << 23), then drop 13
      // significand bits rounding to nearest even; a carry ripples into the exponent correctly.
      int rebiased = magnitude - 0x38000000;
      int rounded = rebiased + 0x0fff + ((rebiased >>> 13) & 1);
      return (short) (sign | (rounded >>> 13));
    }
    if (magnitude <= 0x33000000) {
      // At most 2^-25 (half the smallest subnormal; the tie goes to the even zero).
      return (short) sign;
    }
    // A subnormal half: the value in units of 2^-24 is significand * 2^(exponent - 126) for the
    // float's full significand. Here exponent is 102..112, so the shift is 14..24.
    int exponent = magnitude >>> 23;
    int full = (magnitude & 0x7fffff) | 0x800000;
    int shift = 126 - exponent;
    int quotient = full >>> shift;
    int remainder = full & ((1 << shift) - 1);
    int half = 1 << (shift - 1);
    if (remainder > half || (remainder == half && (quotient & 1) != 0)) {
      quotient++; // may reach 0x400, which is exactly the smallest normal: still correct
    }
    return (short) (sign | quotient);
  }

  /**
   * True when {@code bits} is a NaN pattern (exponent all ones, significand not zero).
   *
   * @param bits a half-precision (IEEE 754 binary16) bit pattern
   * @return true for any NaN pattern, whatever its sign and payload
   */
  public static boolean isNaN(short bits) {
    return (bits & 0x7fff) > 0x7c00;
  }
}
