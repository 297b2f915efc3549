package dev.ireestubs.pydm;

import dev.ireestubs.ndarray.Float16;

/**
 * A PyDM {@code Float2}: an IEEE binary16 float, held as its 16 bits, exactly as the object record
 * carries it (an {@code i16} value). Two halves are equal when their bits are: {@code +0} and
 * {@code -0} differ, a NaN equals the same NaN.
 *
 * @param bits the IEEE binary16 bit pattern
 */
public record PyHalf(short bits) {

  /**
   * The half nearest to {@code value} (ties to even; see {@link Float16#fromFloat}).
   *
   * @param value the number to round
   * @return the PyDM {@code Float2} value nearest to it
   */
  public static PyHalf of(float value) {
    return new PyHalf(Float16.fromFloat(value));
  }

  /**
   * The half with bit pattern {@code bits}.
   *
   * @param bits the sign, exponent and mantissa as IEEE binary16 lays them out
   * @return the PyDM {@code Float2} value with exactly those bits
   */
  public static PyHalf ofBits(short bits) {
    return new PyHalf(bits);
  }

  /**
   * The value as a {@code float} (exact).
   *
   * @return the number, widened without rounding
   */
  public float floatValue() {
    return Float16.toFloat(bits);
  }

  /** E.g. {@code f16 1.5 (0x3e00)}. */
  @Override
  public String toString() {
    return "f16 " + floatValue() + " (0x" + Integer.toHexString(bits & 0xffff) + ")";
  }
}
