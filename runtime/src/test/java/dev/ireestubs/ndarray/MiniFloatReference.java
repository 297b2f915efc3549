package dev.ireestubs.ndarray;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * An independent reference for a 16-bit binary float format (IEEE 754 binary16, or bfloat16),
 * written from the format's definition rather than from bit manipulation: the value of a bit
 * pattern, exactly, and the pattern nearest to a {@code float} by searching a sorted table of every
 * finite value, ties to even.
 */
final class MiniFloatReference {

  /** IEEE 754 binary16: 5 exponent bits, 10 significand bits. */
  static final MiniFloatReference F16 = new MiniFloatReference(5, 10);

  /** bfloat16: 8 exponent bits, 7 significand bits. */
  static final MiniFloatReference BF16 = new MiniFloatReference(8, 7);

  final int exponentBits;
  final int significandBits;
  final int bias;
  final int maxExponent; // all ones: infinity and NaN
  final int infinity; // the bit pattern of +infinity

  /**
   * The magnitude of every non-negative finite pattern, indexed by the pattern, and one more entry
   * at index {@link #infinity}: the value that pattern would have if the exponent range went on
   * (2<sup>emax+1</sup>), the "next value" beyond the largest finite one for rounding.
   */
  private final double[] magnitudes;

  private MiniFloatReference(int exponentBits, int significandBits) {
    this.exponentBits = exponentBits;
    this.significandBits = significandBits;
    this.bias = (1 << (exponentBits - 1)) - 1;
    this.maxExponent = (1 << exponentBits) - 1;
    this.infinity = maxExponent << significandBits;
    this.magnitudes = new double[infinity + 1];
    for (int bits = 0; bits <= infinity; bits++) {
      magnitudes[bits] = unboundedMagnitude(bits);
    }
  }

  /** (significand, power of two) of a pattern's magnitude, treating the top exponent as normal. */
  private long[] significandAndPower(int bits) {
    int exponent = (bits >>> significandBits) & maxExponent;
    int fraction = bits & ((1 << significandBits) - 1);
    if (exponent == 0) {
      return new long[] {fraction, 1 - bias - significandBits};
    }
    return new long[] {(1L << significandBits) + fraction, exponent - bias - significandBits};
  }

  private double unboundedMagnitude(int bits) {
    long[] sp = significandAndPower(bits);
    return Math.scalb((double) sp[0], (int) sp[1]); // at most 11 significant bits: exact
  }

  boolean isNaN(int bits) {
    int exponent = (bits >>> significandBits) & maxExponent;
    return exponent == maxExponent && (bits & ((1 << significandBits) - 1)) != 0;
  }

  boolean isInfinite(int bits) {
    return (bits & 0x7fff) == infinity;
  }

  boolean isNegative(int bits) {
    return (bits & 0x8000) != 0;
  }

  /**
   * The exact value of a finite pattern as a BigDecimal (a zero of either sign is 0), computed with
   * integers only: significand × 2<sup>power</sup> = significand × 5<sup>-power</sup> ×
   * 10<sup>power</sup>.
   */
  BigDecimal exactValue(int bits) {
    long[] sp = significandAndPower(bits & 0x7fff);
    BigInteger significand = BigInteger.valueOf(sp[0]);
    int power = (int) sp[1];
    BigDecimal magnitude =
        power >= 0
            ? new BigDecimal(significand.shiftLeft(power))
            : new BigDecimal(significand.multiply(powerOfFive(-power)), -power);
    return isNegative(bits) ? magnitude.negate() : magnitude;
  }

  private final BigInteger[] powersOfFive = new BigInteger[160];

  private BigInteger powerOfFive(int n) {
    if (powersOfFive[n] == null) {
      powersOfFive[n] = BigInteger.valueOf(5).pow(n);
    }
    return powersOfFive[n];
  }

  /** The magnitude of a finite pattern (exact), for building test values. */
  double magnitude(int bits) {
    return magnitudes[bits & 0x7fff];
  }

  /**
   * The pattern nearest to a non-NaN {@code value}, ties to the even pattern; values at or beyond
   * the midpoint between the largest finite value and 2<sup>emax+1</sup> give infinity. Zeros and
   * values that round to zero keep their sign.
   */
  int nearest(float value) {
    if (Float.isNaN(value)) {
      throw new IllegalArgumentException("NaN has no nearest value");
    }
    int sign = (Float.floatToRawIntBits(value) >>> 16) & 0x8000;
    double magnitude = Math.abs((double) value);
    if (Double.isInfinite(magnitude) || magnitude >= magnitudes[infinity]) {
      return sign | infinity;
    }
    // The largest pattern whose magnitude is <= the value.
    int found = Arrays.binarySearch(magnitudes, magnitude);
    int lo = found >= 0 ? found : -found - 2;
    if (magnitudes[lo] == magnitude) {
      return sign | lo;
    }
    int hi = lo + 1;
    // Compare 2|v| with lo + hi rather than the two distances: all three are exact doubles
    // (doubling is exact; lo + hi is an odd multiple of their spacing, a few bits wide).
    double twice = 2 * magnitude;
    double sum = magnitudes[lo] + magnitudes[hi];
    int chosen;
    if (twice < sum) {
      chosen = lo;
    } else if (twice > sum) {
      chosen = hi;
    } else {
      chosen = (lo & 1) == 0 ? lo : hi;
    }
    return sign | chosen;
  }
}
