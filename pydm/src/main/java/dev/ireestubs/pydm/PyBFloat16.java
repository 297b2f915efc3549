package dev.ireestubs.pydm;

import dev.ireestubs.ndarray.BFloat16;

/**
 * A PyDM {@code BFloat2}: a bfloat16, held as its 16 bits, exactly as the object record carries it
 * (an {@code i16} value). Two values are equal when their bits are.
 *
 * @param bits the bfloat16 bit pattern (the top 16 bits of an IEEE binary32)
 */
public record PyBFloat16(short bits) {

  /**
   * The bfloat16 nearest to {@code value} (see {@link BFloat16#fromFloat}).
   *
   * @param value the number to round
   * @return the PyDM {@code BFloat2} value nearest to it
   */
  public static PyBFloat16 of(float value) {
    return new PyBFloat16(BFloat16.fromFloat(value));
  }

  /**
   * The bfloat16 with bit pattern {@code bits}.
   *
   * @param bits the sign, exponent and mantissa as bfloat16 lays them out
   * @return the PyDM {@code BFloat2} value with exactly those bits
   */
  public static PyBFloat16 ofBits(short bits) {
    return new PyBFloat16(bits);
  }

  /**
   * The value as a {@code float} (exact).
   *
   * @return the number, widened without rounding
   */
  public float floatValue() {
    return BFloat16.toFloat(bits);
  }

  /** E.g. {@code bf16 1.5 (0x3fc0)}. */
  @Override
  public String toString() {
    return "bf16 " + floatValue() + " (0x" + Integer.toHexString(bits & 0xffff) + ")";
  }
}
