package dev.ireestubs.vm;

import dev.ireestubs.abi.VmKind;
import java.util.Objects;

/**
 * An IREE VM value ({@code iree_vm_value_t}): a {@link VmValueType} and its bits. Immutable and
 * thread-safe.
 *
 * <p>Integers are kept sign-extended to 64 bits; an {@code f32} as its raw IEEE bits (in the low 32
 * bits), an {@code f64} as its raw IEEE bits. Two values are {@link #equals equal} when they have
 * the same type and the same bits, so {@code f32 NaN} equals itself and {@code f64 0.0} does not
 * equal {@code f64 -0.0} (as {@link Double#equals}).
 *
 * <h2>Conversions</h2>
 *
 * <p>The {@code as*} accessors and {@link #convertTo} follow the VM's own rules for reading a list
 * element into a calling-convention slot ({@code iree_vm_list_get_value_as}) and for storing a
 * value into a typed list:
 *
 * <ul>
 *   <li>integers convert between {@code i8}, {@code i16}, {@code i32} and {@code i64} by C cast:
 *       narrowing truncates to the low bits, widening sign-extends;
 *   <li>{@code f32} and {@code f64} convert to each other ({@code f64} to {@code f32} rounds to
 *       nearest, ties to even; out-of-range magnitudes become infinities);
 *   <li>integer to float and float to integer are <b>refused</b> with a {@link VmTypeException}.
 *       IREE's runtime does not convert them either, but silently yields 0 when marshalling a call;
 *       a Java caller gets a clear error instead of a wrong zero.
 * </ul>
 */
public final class VmValue {

  private final VmValueType type;
  private final long bits;

  private VmValue(VmValueType type, long bits) {
    this.type = type;
    this.bits = bits;
  }

  /**
   * An {@code i8} value.
   *
   * @param value the signed 8-bit integer
   * @return a new {@code i8} value holding it
   */
  public static VmValue i8(byte value) {
    return new VmValue(VmValueType.I8, value);
  }

  /**
   * An {@code i16} value.
   *
   * @param value the signed 16-bit integer
   * @return a new {@code i16} value holding it
   */
  public static VmValue i16(short value) {
    return new VmValue(VmValueType.I16, value);
  }

  /**
   * An {@code i32} value.
   *
   * @param value the 32-bit integer
   * @return a new {@code i32} value holding it
   */
  public static VmValue i32(int value) {
    return new VmValue(VmValueType.I32, value);
  }

  /**
   * An {@code i64} value.
   *
   * @param value the 64-bit integer
   * @return a new {@code i64} value holding it
   */
  public static VmValue i64(long value) {
    return new VmValue(VmValueType.I64, value);
  }

  /**
   * An {@code f32} value; the float's bits are kept as they are (NaN payloads included).
   *
   * @param value the single-precision number
   * @return a new {@code f32} value holding it
   */
  public static VmValue f32(float value) {
    return new VmValue(VmValueType.F32, Float.floatToRawIntBits(value) & 0xFFFF_FFFFL);
  }

  /**
   * An {@code f64} value; the double's bits are kept as they are (NaN payloads included).
   *
   * @param value the double-precision number
   * @return a new {@code f64} value holding it
   */
  public static VmValue f64(double value) {
    return new VmValue(VmValueType.F64, Double.doubleToRawLongBits(value));
  }

  /**
   * The zero of {@code type} ({@code 0} or {@code +0.0}): what resizing a typed value list fills
   * in.
   *
   * @param type the value type
   * @return the zero value of that type
   */
  public static VmValue zero(VmValueType type) {
    return new VmValue(Objects.requireNonNull(type, "type"), 0L);
  }

  /**
   * A value of {@code type} read from raw bits, as a backend reads the union of an {@code
   * iree_vm_value_t}: only the low {@link VmValueType#bitWidth()} bits count. An integer is
   * sign-extended from its width (so {@code fromBits(I8, 0xFF)} is {@code i8 -1}); an {@code f32}
   * is the IEEE bits in the low 32 bits; an {@code f64} the IEEE bits of all 64.
   *
   * @param type the value type, which says how many low bits count
   * @param rawBits the bits as a backend read them
   * @return the value those bits hold
   */
  public static VmValue fromBits(VmValueType type, long rawBits) {
    Objects.requireNonNull(type, "type");
    return switch (type) {
      case I8 -> new VmValue(type, (byte) rawBits);
      case I16 -> new VmValue(type, (short) rawBits);
      case I32 -> new VmValue(type, (int) rawBits);
      case F32 -> new VmValue(type, rawBits & 0xFFFF_FFFFL);
      default -> new VmValue(type, rawBits);
    };
  }

  /**
   * The value type.
   *
   * @return the type the value was made with
   */
  public VmValueType type() {
    return type;
  }

  /**
   * The calling-convention kind this value is marshalled into; see {@link VmValueType#cconvKind()}.
   *
   * @return the slot kind this value travels in
   */
  public VmKind cconvKind() {
    return type.cconvKind();
  }

  /**
   * True for integer values ({@code i8}..{@code i64}).
   *
   * @return true for an integer value
   */
  public boolean isInteger() {
    return type.isInteger();
  }

  /**
   * True for float values ({@code f32}, {@code f64}).
   *
   * @return true for a float value
   */
  public boolean isFloat() {
    return type.isFloat();
  }

  /**
   * The bits as stored: an integer sign-extended to 64 bits, an {@code f32}'s IEEE bits
   * zero-extended, an {@code f64}'s IEEE bits. {@code fromBits(type(), rawBits())} is this value.
   *
   * @return the 64 bits that hold the value
   */
  public long rawBits() {
    return bits;
  }

  /**
   * This integer as an {@code i8}, by C cast (the low 8 bits).
   *
   * @return the low 8 bits, as a signed byte
   * @throws VmTypeException when this is a float
   */
  public byte asI8() {
    return (byte) integerBits(VmValueType.I8);
  }

  /**
   * This integer as an {@code i16}, by C cast (the low 16 bits, or sign-extended from {@code i8}).
   *
   * @return the value cast to 16 bits
   * @throws VmTypeException when this is a float
   */
  public short asI16() {
    return (short) integerBits(VmValueType.I16);
  }

  /**
   * This integer as an {@code i32}, by C cast (the low 32 bits of an {@code i64}, sign-extended
   * from {@code i8} and {@code i16}).
   *
   * @return the value cast to 32 bits
   * @throws VmTypeException when this is a float
   */
  public int asI32() {
    return (int) integerBits(VmValueType.I32);
  }

  /**
   * This integer as an {@code i64}, sign-extended from narrower widths.
   *
   * @return the value as a {@code long}
   * @throws VmTypeException when this is a float
   */
  public long asI64() {
    return integerBits(VmValueType.I64);
  }

  /**
   * This float as an {@code f32}: itself, or an {@code f64} rounded to nearest (ties to even).
   *
   * @return the value as a {@code float}
   * @throws VmTypeException when this is an integer
   */
  public float asF32() {
    requireFloat(VmValueType.F32);
    return type == VmValueType.F32 ? Float.intBitsToFloat((int) bits) : (float) doubleBits();
  }

  /**
   * This float as an {@code f64}: itself, or an {@code f32} widened exactly.
   *
   * @return the value as a {@code double}
   * @throws VmTypeException when this is an integer
   */
  public double asF64() {
    requireFloat(VmValueType.F64);
    return type == VmValueType.F32 ? (double) Float.intBitsToFloat((int) bits) : doubleBits();
  }

  /**
   * The value as the boxed Java number of its own width: {@code Byte}, {@code Short}, {@code
   * Integer}, {@code Long}, {@code Float} or {@code Double}.
   *
   * @return a new boxed number of the value's type
   */
  public Number boxed() {
    return switch (type) {
      case I8 -> asI8();
      case I16 -> asI16();
      case I32 -> asI32();
      case I64 -> asI64();
      case F32 -> asF32();
      default -> asF64();
    };
  }

  /**
   * This value as a value of {@code target}, by the VM's rules (see the class description): this
   * value itself when the types match, a C cast between integer widths, a rounding or widening
   * between float widths.
   *
   * @param target the value type wanted
   * @return the value converted to {@code target}
   * @throws VmTypeException when one type is an integer and the other a float
   */
  public VmValue convertTo(VmValueType target) {
    Objects.requireNonNull(target, "target");
    if (target == type) {
      return this;
    }
    return switch (target) {
      case I8 -> i8(asI8());
      case I16 -> i16(asI16());
      case I32 -> i32(asI32());
      case I64 -> i64(asI64());
      case F32 -> f32(asF32());
      default -> f64(asF64());
    };
  }

  private long integerBits(VmValueType target) {
    if (!type.isInteger()) {
      throw notConvertible(target);
    }
    return bits;
  }

  private void requireFloat(VmValueType target) {
    if (!type.isFloat()) {
      throw notConvertible(target);
    }
  }

  private double doubleBits() {
    return Double.longBitsToDouble(bits);
  }

  private VmTypeException notConvertible(VmValueType target) {
    return new VmTypeException(
        "cannot convert "
            + this
            + " to "
            + target
            + ": the VM does not convert between integers and floats");
  }

  /** True for a {@link VmValue} of the same type and the same bits. */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof VmValue that)) {
      return false;
    }

    return type == that.type && bits == that.bits;
  }

  @Override
  public int hashCode() {
    return 31 * type.hashCode() + Long.hashCode(bits);
  }

  /**
   * The type and the value, e.g. {@code i32 5}, {@code i8 -1}, {@code f32 1.5}, {@code f64 NaN}.
   */
  @Override
  public String toString() {
    return type.mlirName() + " " + valueString();
  }

  /** The value without its type: {@code 5}, {@code 1.5}, {@code NaN}. */
  String valueString() {
    return switch (type) {
      case F32 -> Float.toString(Float.intBitsToFloat((int) bits));
      case F64 -> Double.toString(doubleBits());
      default -> Long.toString(bits);
    };
  }
}
