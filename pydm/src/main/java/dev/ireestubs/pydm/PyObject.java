package dev.ireestubs.pydm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * An object record in full: its type code, its data as a Java value, and its optional id. The
 * {@linkplain PyObjects codec} decodes a record to a plain Java value ({@code Integer}, {@code
 * Double}, {@link PyTuple}...) when that value alone writes the same record back, and to a {@code
 * PyObject} otherwise: for the weak-sized {@code Integer} and {@code Real}, the unsigned integers,
 * {@code Type}, {@code Object}, "not assigned", and any record that carries an id. Encoding a
 * {@code PyObject} writes exactly its code, data and id.
 *
 * <p>The value's Java class picks the VM value type of the data, so it must suit the code:
 *
 * <ul>
 *   <li>not assigned, {@code None}: {@code null};
 *   <li>{@code Tuple}, {@code List}: a {@code List} of encodable values (kept as a {@link PyTuple}
 *       or an unmodifiable list);
 *   <li>{@code Type}, {@code Object}: any encodable value, written as a nested record;
 *   <li>{@code Bool}: a {@code Boolean} (an {@code i8}), or a {@code Byte}, {@code Short}, {@code
 *       Integer} or {@code Long} 0 or 1 to choose a wider integer;
 *   <li>{@code Integer}: a {@code Byte}, {@code Short}, {@code Integer} or {@code Long} ({@code
 *       i8}..{@code i64}); {@code Real}: a {@code Float} or {@code Double};
 *   <li>{@code Integer1}..{@code Integer8} and {@code UInteger1}..{@code UInteger8}: a {@code
 *       Byte}, {@code Short}, {@code Integer}, {@code Long} of the code's width (for the unsigned
 *       codes, the bit pattern; see {@link #unsigned} and {@link #unsignedValue});
 *   <li>{@code Float2}: a {@link PyHalf}; {@code BFloat2}: a {@link PyBFloat16}; {@code Float4}: a
 *       {@code Float}; {@code Float8}: a {@code Double}.
 * </ul>
 *
 * <p>Immutable (a list value is copied; its elements are not).
 *
 * @param typeCode the type code, slot {@code [0]}
 * @param value the data, slot {@code [1]}, as described above
 * @param id the object's id, slot {@code [2]} (an {@code i64}, present once Python's {@code id()}
 *     has been evaluated for the object)
 */
public record PyObject(PyTypeCode typeCode, Object value, OptionalLong id) {

  /**
   * Checks that {@code typeCode} and {@code id} are not null and that {@code value} suits the type
   * code as the class comment describes (null when the code has no data), keeping an unmodifiable
   * copy of a sequence's list.
   *
   * @param typeCode the record's type code
   * @param value the record's data as a Java value, null where the code has no data
   * @param id the object's identity, when the record carries one
   * @throws PyDmUnsupportedTypeException for a code whose data is TODO ({@code Str}...)
   * @throws PyDmCodecException when {@code value} does not suit {@code typeCode}
   */
  public PyObject {
    Objects.requireNonNull(typeCode, "typeCode");
    Objects.requireNonNull(id, "id");
    value = check(typeCode, value);
  }

  /**
   * A record of {@code typeCode} with {@code value} and no id.
   *
   * @param typeCode the record's type code
   * @param value the record's data as a Java value
   * @return the record, with no id
   */
  public static PyObject of(PyTypeCode typeCode, Object value) {
    return new PyObject(typeCode, value, OptionalLong.empty());
  }

  /**
   * The "not assigned" record (type code 0), which is not {@code None}.
   *
   * @return the record of type code 0
   */
  public static PyObject notAssigned() {
    return of(PyTypeCode.NOT_ASSIGNED, null);
  }

  /**
   * An unsigned integer of {@code typeCode} ({@code UInteger1} .. {@code UInteger8}). For the 1-,
   * 2- and 4-byte codes {@code value} must be in {@code [0, 2^bits)}; for {@code UInteger8} every
   * {@code long} is taken as the 64-bit pattern, so values from 2<sup>63</sup> up are given as
   * negative longs (e.g. {@code Long.parseUnsignedLong("18446744073709551615")}).
   *
   * @param typeCode one of the unsigned integer codes
   * @param value the number, or for {@code UInteger8} its 64-bit pattern
   * @return the record, with no id
   * @throws PyDmCodecException when the code is not unsigned or the value is out of range
   */
  public static PyObject unsigned(PyTypeCode typeCode, long value) {
    Objects.requireNonNull(typeCode, "typeCode");
    if (!typeCode.isUnsigned()) {
      throw new PyDmCodecException(
          "PyObject", typeCode.describe() + " is not an unsigned integer code (UInteger1..8)");
    }
    int bits = 8 * bytes(typeCode);
    if (bits < 64 && (value < 0 || value >= (1L << bits))) {
      throw new PyDmCodecException(
          "PyObject", typeCode.describe() + " holds 0.." + ((1L << bits) - 1) + ", got " + value);
    }
    return switch (bits) {
      case 8 -> of(typeCode, (byte) value);
      case 16 -> of(typeCode, (short) value);
      case 32 -> of(typeCode, (int) value);
      default -> of(typeCode, value);
    };
  }

  /**
   * This record with id {@code id}.
   *
   * @param id the object's identity
   * @return a copy of this record carrying {@code id}
   */
  public PyObject withId(long id) {
    return new PyObject(typeCode, value, OptionalLong.of(id));
  }

  /**
   * This record without an id.
   *
   * @return a copy of this record with no id, or this record when it has none
   */
  public PyObject withoutId() {
    return id.isEmpty() ? this : new PyObject(typeCode, value, OptionalLong.empty());
  }

  /**
   * The value of an unsigned integer, zero-extended: 0..255 for {@code UInteger1}, and so on; for
   * {@code UInteger8} the 64 bits as a {@code long} (read it with {@link Long#toUnsignedString}).
   *
   * @return the number with its sign bit read as a value bit
   * @throws IllegalStateException when the code is not unsigned
   */
  public long unsignedValue() {
    if (!typeCode.isUnsigned()) {
      throw new IllegalStateException(typeCode.describe() + " is not an unsigned integer code");
    }
    long v = ((Number) value).longValue();
    int bits = 8 * bytes(typeCode);
    return bits == 64 ? v : v & ((1L << bits) - 1);
  }

  private static int bytes(PyTypeCode code) {
    return switch (code.representation()) {
      case I8 -> 1;
      case I16 -> 2;
      case I32 -> 4;
      default -> 8;
    };
  }

  private static Object check(PyTypeCode code, Object value) {
    switch (code.representation()) {
      case NO_DATA -> {
        if (value != null) {
          throw wrong(code, "no data (null)", value);
        }
        return null;
      }
      case OBJECT_SEQUENCE -> {
        if (!(value instanceof List)) {
          throw wrong(code, "a List of its elements", value);
        }
        return code == PyTypeCode.TUPLE
            ? PyTuple.copyOf((List<?>) value)
            : Collections.unmodifiableList(new ArrayList<>((List<?>) value));
      }
      case OBJECT_RECORD -> {
        return value;
      }
      case BOOL -> {
        if (value instanceof Boolean) {
          return value;
        }
        if (isIntegral(value)) {
          long v = ((Number) value).longValue();
          if (v == 0 || v == 1) {
            return value;
          }
        }
        throw wrong(code, "a Boolean, or a Byte, Short, Integer or Long 0 or 1", value);
      }
      case WEAK_INTEGER -> {
        if (isIntegral(value)) {
          return value;
        }
        throw wrong(code, "a Byte, Short, Integer or Long (i8..i64)", value);
      }
      case WEAK_REAL -> {
        if (value instanceof Float || value instanceof Double) {
          return value;
        }
        throw wrong(code, "a Float or Double (f32, f64)", value);
      }
      case I8 -> {
        return require(code, value, Byte.class, "a Byte (i8)");
      }
      case I16 -> {
        return require(code, value, Short.class, "a Short (i16)");
      }
      case I32 -> {
        return require(code, value, Integer.class, "an Integer (i32)");
      }
      case I64 -> {
        return require(code, value, Long.class, "a Long (i64)");
      }
      case F16_BITS -> {
        return require(code, value, PyHalf.class, "a PyHalf (f16 bits in an i16)");
      }
      case BF16_BITS -> {
        return require(code, value, PyBFloat16.class, "a PyBFloat16 (bf16 bits in an i16)");
      }
      case F32 -> {
        return require(code, value, Float.class, "a Float (f32)");
      }
      case F64 -> {
        return require(code, value, Double.class, "a Double (f64)");
      }
      default -> throw new PyDmUnsupportedTypeException("PyObject", code, "a PyObject");
    }
  }

  static boolean isIntegral(Object value) {
    return value instanceof Byte
        || value instanceof Short
        || value instanceof Integer
        || value instanceof Long;
  }

  private static Object require(PyTypeCode code, Object value, Class<?> type, String expected) {
    if (!type.isInstance(value)) {
      throw wrong(code, expected, value);
    }
    return value;
  }

  private static PyDmCodecException wrong(PyTypeCode code, String expected, Object value) {
    return new PyDmCodecException(
        "PyObject",
        code.describeWithArticle()
            + " record holds "
            + expected
            + ", got "
            + PyObjects.describe(value));
  }

  /** E.g. {@code Integer(5)}, {@code UInteger1(255)}, {@code None id=7}. */
  @Override
  public String toString() {
    String body;
    if (typeCode.representation() == PyTypeCode.Representation.NO_DATA) {
      body = typeCode.pyDmName();
    } else if (typeCode.isUnsigned()) {
      body = typeCode.pyDmName() + "(" + Long.toUnsignedString(unsignedValue()) + ")";
    } else {
      body = typeCode.pyDmName() + "(" + value + ")";
    }
    return id.isPresent() ? body + " id=" + id.getAsLong() : body;
  }
}
