package dev.ireestubs.pydm;

import dev.ireestubs.vm.VmValueType;
import java.util.Optional;

/**
 * The type codes of IREEPyDM object records: slot {@code [0]} of every record, an {@code i32}.
 *
 * <p>Source of the facts: IREE's "Lowering IREEPyDM to IREE" notes ({@code
 * llvm-external-projects/iree-dialects/docs/Dialect/IREEPyDM/LowerToIREE.md}) give the record
 * layout, the meaning of code 0 and the data each code carries; the numbers are those of the {@code
 * BuiltinTypeCode} enum in {@code iree-dialects/Dialect/IREEPyDM/IR/Dialect.h} of the same era (the
 * one whose names, {@code Integer1} .. {@code Complex8}, the notes use).
 *
 * <p>Two other numberings existed. The dialect's first version numbered its types alphabetically
 * ({@code Bool = 1 .. Type = 11}), which collides with this table (its {@code Bool} would read as
 * {@code None}) and cannot be told apart: modules of that era are not supported. Its last version
 * ({@code iree-dialects/Dialect/PyDM/IR/Constants.h}) kept {@code None .. Type = 1 .. 7} and {@code
 * Object = 0x100} but moved every numeric type to bit-packed codes {@code 0x40 .. 0x7f}; such a
 * code is reported by {@link #of} as unknown (naming that range), never read as another type.
 *
 * <h2>Data per code (slot {@code [1]})</h2>
 *
 * <table>
 *   <caption>Representation of each type code</caption>
 *   <tr><th>code</th><th>data</th><th>Java value</th></tr>
 *   <tr><td>0 not assigned</td><td>none</td><td>{@link PyObject#notAssigned()}</td></tr>
 *   <tr><td>1 None</td><td>none</td><td>{@code null}</td></tr>
 *   <tr><td>2 Tuple, 3 List</td><td>a {@code list<?>} of object records</td>
 *       <td>{@link PyTuple}; an unmodifiable {@code List}</td></tr>
 *   <tr><td>7 Type, 0x100 Object</td><td>an object record</td><td>{@link PyObject}</td></tr>
 *   <tr><td>8 Bool</td><td>an integer value, implementation defined (typically {@code i8})</td>
 *       <td>{@code Boolean}</td></tr>
 *   <tr><td>9 Integer</td><td>an integer value, implementation defined (typically {@code
 *       i32})</td><td>{@link PyObject} of a {@code Byte}..{@code Long}</td></tr>
 *   <tr><td>10 Real</td><td>a float value, implementation defined (typically {@code f32})</td>
 *       <td>{@link PyObject} of a {@code Float} or {@code Double}</td></tr>
 *   <tr><td>0x10..0x13 Integer1..Integer8</td><td>{@code i8 i16 i32 i64}</td>
 *       <td>{@code Byte Short Integer Long}</td></tr>
 *   <tr><td>0x14..0x17 UInteger1..UInteger8</td><td>{@code i8 i16 i32 i64} (the bit pattern)</td>
 *       <td>{@link PyObject} of a {@code Byte}..{@code Long}</td></tr>
 *   <tr><td>0x18 Float2, 0x1b BFloat2</td><td>{@code i16}, the bits of an IEEE half or a
 *       bfloat16</td><td>{@link PyHalf}, {@link PyBFloat16}</td></tr>
 *   <tr><td>0x19 Float4, 0x1a Float8</td><td>{@code f32}, {@code f64}</td>
 *       <td>{@code Float}, {@code Double}</td></tr>
 *   <tr><td>4 Str, 5 Bytes, 6 ExceptionResult, 0xb Complex, 0x1c Complex4, 0x1d Complex8</td>
 *       <td>TODO in the lowering notes</td><td>rejected with {@link
 *       PyDmUnsupportedTypeException}</td></tr>
 * </table>
 *
 * <p>Custom codes ({@code 0x101} and up, user-defined classes) carry data the notes do not describe
 * and are reported as unknown.
 */
public enum PyTypeCode {
  /** 0: "not assigned", distinct from {@code None}; no data. */
  NOT_ASSIGNED(0x0, "not assigned", Representation.NO_DATA),
  /** 1: {@code None}; no data. */
  NONE(0x1, "None", Representation.NO_DATA),
  /** 2: a tuple; data is a {@code list<?>} of object records. */
  TUPLE(0x2, "Tuple", Representation.OBJECT_SEQUENCE),
  /** 3: a list; data is a {@code list<?>} of object records. */
  LIST(0x3, "List", Representation.OBJECT_SEQUENCE),
  /** 4: a string; its data is TODO in the lowering (a union of i8/i16/i32 code point arrays). */
  STR(0x4, "Str", Representation.TODO),
  /** 5: bytes; its data is TODO in the lowering (a memory buffer of some kind). */
  BYTES(0x5, "Bytes", Representation.TODO),
  /** 6: an exception result as an object; its data is TODO in the lowering (a boxed exception). */
  EXCEPTION_RESULT(0x6, "ExceptionResult", Representation.TODO),
  /** 7: a type; data is an object record representing the type. */
  TYPE(0x7, "Type", Representation.OBJECT_RECORD),
  /** 8: a bool; data is an integer value of implementation-defined width (typically i8). */
  BOOL(0x8, "Bool", Representation.BOOL),
  /** 9: a weak-sized integer; data is an integer value of implementation-defined width. */
  INTEGER(0x9, "Integer", Representation.WEAK_INTEGER),
  /** 10: a weak-sized real; data is a float value of implementation-defined width. */
  REAL(0xa, "Real", Representation.WEAK_REAL),
  /** 11: a weak-sized complex; its data is TODO in the lowering. */
  COMPLEX(0xb, "Complex", Representation.TODO),
  /** 0x10: an 8-bit signed integer in an {@code i8}. */
  INTEGER1(0x10, "Integer1", Representation.I8),
  /** 0x11: a 16-bit signed integer in an {@code i16}. */
  INTEGER2(0x11, "Integer2", Representation.I16),
  /** 0x12: a 32-bit signed integer in an {@code i32}. */
  INTEGER4(0x12, "Integer4", Representation.I32),
  /** 0x13: a 64-bit signed integer in an {@code i64}. */
  INTEGER8(0x13, "Integer8", Representation.I64),
  /** 0x14: an 8-bit unsigned integer, its bits in an {@code i8}. */
  UINTEGER1(0x14, "UInteger1", Representation.I8),
  /** 0x15: a 16-bit unsigned integer, its bits in an {@code i16}. */
  UINTEGER2(0x15, "UInteger2", Representation.I16),
  /** 0x16: a 32-bit unsigned integer, its bits in an {@code i32}. */
  UINTEGER4(0x16, "UInteger4", Representation.I32),
  /** 0x17: a 64-bit unsigned integer, its bits in an {@code i64}. */
  UINTEGER8(0x17, "UInteger8", Representation.I64),
  /** 0x18: an IEEE binary16 float, its bits in an {@code i16}. */
  FLOAT2(0x18, "Float2", Representation.F16_BITS),
  /** 0x19: an IEEE binary32 float in an {@code f32}. */
  FLOAT4(0x19, "Float4", Representation.F32),
  /** 0x1a: an IEEE binary64 float in an {@code f64}. */
  FLOAT8(0x1a, "Float8", Representation.F64),
  /** 0x1b: a bfloat16, its bits in an {@code i16}. */
  BFLOAT2(0x1b, "BFloat2", Representation.BF16_BITS),
  /** 0x1c: a complex of two f32; its data is TODO in the lowering. */
  COMPLEX4(0x1c, "Complex4", Representation.TODO),
  /** 0x1d: a complex of two f64; its data is TODO in the lowering. */
  COMPLEX8(0x1d, "Complex8", Representation.TODO),
  /** 0x100: the generic object; data is an object record. */
  OBJECT(0x100, "Object", Representation.OBJECT_RECORD);

  /** What slot {@code [1]} of a record holds for a type code. */
  public enum Representation {
    /** No data: the record is {@code [code]}, or {@code [code, null, id]} when it has an id. */
    NO_DATA,
    /** A {@code list<?>} whose elements are object records. */
    OBJECT_SEQUENCE,
    /** One nested object record. */
    OBJECT_RECORD,
    /** An integer value 0 or 1 of any width (the width is implementation defined). */
    BOOL,
    /** An integer value of any width (implementation defined, typically {@code i32}). */
    WEAK_INTEGER,
    /** A float value, {@code f32} or {@code f64} (implementation defined, typically f32). */
    WEAK_REAL,
    /** An {@code i8} value. */
    I8,
    /** An {@code i16} value. */
    I16,
    /** An {@code i32} value. */
    I32,
    /** An {@code i64} value. */
    I64,
    /** An {@code i16} value holding the bits of an IEEE binary16 float. */
    F16_BITS,
    /** An {@code i16} value holding the bits of a bfloat16. */
    BF16_BITS,
    /** An {@code f32} value. */
    F32,
    /** An {@code f64} value. */
    F64,
    /** Not defined yet: the lowering notes leave the data of this code TODO. */
    TODO
  }

  private final int code;
  private final String pyName;
  private final Representation representation;

  PyTypeCode(int code, String pyName, Representation representation) {
    this.code = code;
    this.pyName = pyName;
    this.representation = representation;
  }

  /**
   * The numeric code, as slot {@code [0]} of a record holds it.
   *
   * @return the number that identifies the type in a record
   */
  public int code() {
    return code;
  }

  /**
   * The name the PyDM dialect gives the code: {@code None}, {@code Integer4}, {@code BFloat2}.
   *
   * @return the dialect's name for the type
   */
  public String pyDmName() {
    return pyName;
  }

  /**
   * What the record's data slot holds.
   *
   * @return the kind of data a record of this type carries
   */
  public Representation representation() {
    return representation;
  }

  /**
   * The one VM value type the data must have, for the sized numeric codes ({@code Integer1} ..
   * {@code BFloat2}); empty for codes whose data is a list, absent, of implementation-defined width
   * ({@code Bool}, {@code Integer}, {@code Real}) or TODO.
   *
   * @return the exact VM value type of the data, when the code fixes one
   */
  public Optional<VmValueType> valueType() {
    return switch (representation) {
      case I8 -> Optional.of(VmValueType.I8);
      case I16, F16_BITS, BF16_BITS -> Optional.of(VmValueType.I16);
      case I32 -> Optional.of(VmValueType.I32);
      case I64 -> Optional.of(VmValueType.I64);
      case F32 -> Optional.of(VmValueType.F32);
      case F64 -> Optional.of(VmValueType.F64);
      default -> Optional.empty();
    };
  }

  /**
   * False for the codes whose data the lowering leaves TODO (Str, Bytes, Complex...).
   *
   * @return true when iree-stubs can encode and decode the code's data
   */
  public boolean isSupported() {
    return representation != Representation.TODO;
  }

  /**
   * True for {@code UInteger1} .. {@code UInteger8}.
   *
   * @return true for the unsigned integer codes
   */
  public boolean isUnsigned() {
    return this == UINTEGER1 || this == UINTEGER2 || this == UINTEGER4 || this == UINTEGER8;
  }

  /**
   * The type code with numeric {@code code}; empty for codes this table does not define.
   *
   * @param code the number slot {@code [0]} of a record holds
   * @return the type code, or empty when the number is not in the table
   */
  public static Optional<PyTypeCode> fromCode(int code) {
    for (PyTypeCode c : values()) {
      if (c.code == code) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /**
   * The type code with numeric {@code code}.
   *
   * @param code the number slot {@code [0]} of a record holds
   * @return the type code
   * @throws PyDmCodecException for a code this table does not define, saying which range it is in
   *     (a custom class, the later bit-packed numeric codes, or nothing known)
   */
  public static PyTypeCode of(int code) {
    return fromCode(code).orElseThrow(() -> new PyDmCodecException("type code", unknown(code)));
  }

  /** Why {@code code} is not in the table, as a sentence fragment. */
  static String unknown(int code) {
    String hex = hex(code);
    if (code > OBJECT.code) {
      return "type code "
          + hex
          + " is a custom (user-defined) type, whose object records the"
          + " PyDM lowering notes do not describe";
    }
    if (code >= 0x40 && code <= 0x7f) {
      return "type code "
          + hex
          + " is not in this table; later PyDM compilers moved the numeric"
          + " types to bit-packed codes 0x40..0x7f, which this runtime does not read (it reads the"
          + " table of the lowering notes: Integer1 = 0x10 .. Complex8 = 0x1d)";
    }
    return "type code "
        + hex
        + " is not a PyDM built-in type code (0 not assigned, 0x1..0xb,"
        + " 0x10..0x1d, 0x100 Object)";
  }

  static String hex(int code) {
    return code < 0 ? Integer.toString(code) : "0x" + Integer.toHexString(code);
  }

  /**
   * The dialect name and the code, e.g. {@code Integer4 (0x12)}.
   *
   * @return the name and code, for messages
   */
  public String describe() {
    return pyName + " (" + hex(code) + ")";
  }

  /**
   * {@link #describe()} with its article, e.g. {@code an Integer4 (0x12)}, {@code a Bool (0x8)}.
   */
  String describeWithArticle() {
    return ("AEIO".indexOf(pyName.charAt(0)) >= 0 ? "an " : "a ") + describe();
  }
}
