package dev.ireestubs.pydm;

import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The codec between IREEPyDM object records and Java values.
 *
 * <p>An object record is a variant list ({@code list<?>}) laid out as {@code [type code, data?,
 * id?]}: slot 0 an {@code i32} {@linkplain PyTypeCode type code}, slot 1 the data the code calls
 * for, slot 2 an optional {@code i64} id (facts from IREE's "Lowering IREEPyDM to IREE" notes). A
 * record without data is {@code [code]}; one without data but with an id is {@code [code, null,
 * id]}.
 *
 * <h2>Java values</h2>
 *
 * <table>
 *   <caption>What each Java value is written as, and what each record reads back as</caption>
 *   <tr><th>Java</th><th>record</th></tr>
 *   <tr><td>{@code null}</td><td>{@code [None]}</td></tr>
 *   <tr><td>{@code Boolean}</td><td>{@code [Bool, i8 0|1]}</td></tr>
 *   <tr><td>{@code Byte Short Integer Long}</td>
 *       <td>{@code [Integer1|2|4|8, i8|i16|i32|i64]}</td></tr>
 *   <tr><td>{@code Float Double}</td><td>{@code [Float4, f32]}, {@code [Float8, f64]}</td></tr>
 *   <tr><td>{@link PyHalf}, {@link PyBFloat16}</td><td>{@code [Float2, i16 bits]}, {@code
 *       [BFloat2, i16 bits]}</td></tr>
 *   <tr><td>{@link PyTuple}</td><td>{@code [Tuple, list<?> of records]}</td></tr>
 *   <tr><td>any other {@code List}</td><td>{@code [List, list<?> of records]}; read back as an
 *       unmodifiable list</td></tr>
 *   <tr><td>{@link PyObject}</td><td>exactly its code, data and id: the weak {@code Integer} and
 *       {@code Real}, the unsigned integers, {@code Type}, {@code Object}, "not assigned", and
 *       anything with an id</td></tr>
 * </table>
 *
 * <p>{@link #decode} returns the plain value whenever the plain value writes the same record back,
 * and a {@link PyObject} otherwise, so both round trips hold: {@code decode(encode(v))} equals
 * {@code v} for every value above (a {@code PyObject} that has a plain form comes back plain), and
 * {@code encode(decode(r))} equals {@code r} for every record in the form {@code encode} writes.
 * Two kinds of record are read but written in that form instead: a {@code Bool} whose data is a
 * wider integer than {@code i8} reads as a {@code Boolean} (the width is implementation defined;
 * IREE's lowering makes bools {@code i1}, which the VM widens), and a {@code None} whose data slot
 * holds an integer 0 (the placeholder IREE's lowering boxes, as it makes {@code None} an {@code
 * i32}) reads as {@code null}. Use {@link #decodeObject} to see a record's code and id whatever its
 * value.
 *
 * <h2>Errors</h2>
 *
 * <p>Every problem is a {@link PyDmCodecException} naming the path, what was expected and what was
 * found. A path names element {@code i} of a tuple or list {@code [i]} and a record's slots {@code
 * .code}, {@code .data} and {@code .id}, so {@code value[1].data} is the data of the second element
 * of {@code value}, and {@code value.data.code} the type code of the record an {@code Object}
 * record holds. The problems: a record that is not a variant list or has 0 or more than 3 slots, a
 * type code that is not an {@code i32} or not in the table, data of the wrong VM type, an id that
 * is not an {@code i64}, a record or list that contains itself, nesting deeper than {@value
 * #MAX_DEPTH}, a Java value with no PyDM type. The type codes whose data is TODO ({@code Str},
 * {@code Bytes}, {@code ExceptionResult}, {@code Complex}, {@code Complex4}, {@code Complex8}), and
 * {@code String}s and byte arrays on the way in, are a {@link PyDmUnsupportedTypeException}.
 *
 * <p>Stateless and thread-safe; the lists it writes are new and owned by the caller.
 */
public final class PyObjects {

  /** Records and lists nested deeper than this are refused. */
  public static final int MAX_DEPTH = 64;

  private static final String ROOT = "value";

  private PyObjects() {}

  // ---------------------------------------------------------------------------------------------
  // Encoding

  /**
   * The object record of {@code value}; see the class description for the forms accepted.
   *
   * @param value null, a boolean, a number, a {@link PyHalf}, a {@link PyBFloat16}, a list, a
   *     {@link PyTuple} or a {@link PyObject}
   * @return a new {@code list<?>} of the type code, the data and, for a {@link PyObject} with one,
   *     the id
   * @throws PyDmCodecException when {@code value} (or a nested value) has no PyDM form
   */
  public static VmList encode(Object value) {
    return encode(value, ROOT);
  }

  /**
   * {@link #encode(Object)}, naming {@code path} in errors.
   *
   * @param value the Java value to encode
   * @param path where the value is, for messages ({@code m.f: arg0})
   * @return a new object record of {@code value}
   */
  public static VmList encode(Object value, String path) {
    Objects.requireNonNull(path, "path");
    return new Encoder().record(value, path, 0);
  }

  /**
   * The raw sequence form of an unboxed PyDM list or tuple: a {@code list<?>} holding one object
   * record per element (what the data slot of a {@code List} or {@code Tuple} record holds, and
   * what a function taking an unboxed list receives).
   *
   * @param elements the elements, each encoded as {@link #encode(Object)} does
   * @param path where the list is, for messages
   * @return a new {@code list<?>} of one object record per element
   */
  public static VmList encodeElements(List<?> elements, String path) {
    Objects.requireNonNull(elements, "elements");
    Objects.requireNonNull(path, "path");
    Encoder e = new Encoder();
    return e.sequence(elements, path, 0);
  }

  private static final class Encoder {
    private final Set<Object> open = Collections.newSetFromMap(new IdentityHashMap<>());

    VmList record(Object value, String path, int depth) {
      checkDepth(path, depth);
      if (value == null) {
        return build(PyTypeCode.NONE, NO_DATA, OptionalLong.empty());
      }
      if (value instanceof PyObject o) {
        return enter(o, path, () -> build(o.typeCode(), data(o, path, depth), o.id()));
      }
      if (value instanceof Boolean b) {
        return build(PyTypeCode.BOOL, VmValue.i8((byte) (b ? 1 : 0)), NO_ID);
      }
      if (value instanceof Byte b) {
        return build(PyTypeCode.INTEGER1, VmValue.i8(b), NO_ID);
      }
      if (value instanceof Short s) {
        return build(PyTypeCode.INTEGER2, VmValue.i16(s), NO_ID);
      }
      if (value instanceof Integer i) {
        return build(PyTypeCode.INTEGER4, VmValue.i32(i), NO_ID);
      }
      if (value instanceof Long l) {
        return build(PyTypeCode.INTEGER8, VmValue.i64(l), NO_ID);
      }
      if (value instanceof Float f) {
        return build(PyTypeCode.FLOAT4, VmValue.f32(f), NO_ID);
      }
      if (value instanceof Double d) {
        return build(PyTypeCode.FLOAT8, VmValue.f64(d), NO_ID);
      }
      if (value instanceof PyHalf pyHalf) {
        return build(PyTypeCode.FLOAT2, VmValue.i16(pyHalf.bits()), NO_ID);
      }
      if (value instanceof PyBFloat16 pyBFloat16) {
        return build(PyTypeCode.BFLOAT2, VmValue.i16(pyBFloat16.bits()), NO_ID);
      }
      if (value instanceof List) {
        PyTypeCode code = value instanceof PyTuple ? PyTypeCode.TUPLE : PyTypeCode.LIST;
        return enter(value, path, () -> build(code, sequence((List<?>) value, path, depth), NO_ID));
      }
      if (value instanceof CharSequence || value instanceof Character) {
        throw new PyDmUnsupportedTypeException(path, PyTypeCode.STR, describe(value));
      }
      if (value instanceof byte[] || value instanceof ByteBuffer) {
        throw new PyDmUnsupportedTypeException(path, PyTypeCode.BYTES, describe(value));
      }
      throw new PyDmCodecException(
          path,
          "no PyDM type for "
              + describe(value)
              + "; expected null, a Boolean, Byte, Short,"
              + " Integer, Long, Float, Double, PyHalf, PyBFloat16, PyTuple, List or PyObject");
    }

    VmList sequence(List<?> elements, String path, int depth) {
      checkDepth(path, depth);
      VmList list = VmList.variant(elements.size());
      int i = 0;
      for (Object element : elements) {
        list.push(record(element, path + "[" + i + "]", depth + 1));
        i++;
      }
      return list;
    }

    /** The data slot of {@code o}: a value, a list, or {@link #NO_DATA}. */
    private Object data(PyObject o, String path, int depth) {
      Object v = o.value();
      return switch (o.typeCode().representation()) {
        case NO_DATA -> NO_DATA;
        case OBJECT_SEQUENCE -> sequence((List<?>) v, path, depth);
        case OBJECT_RECORD -> record(v, path + ".data", depth + 1);
        case F16_BITS -> VmValue.i16(((PyHalf) v).bits());
        case BF16_BITS -> VmValue.i16(((PyBFloat16) v).bits());
        default -> value(v);
      };
    }

    private VmList enter(Object value, String path, java.util.function.Supplier<VmList> body) {
      if (!open.add(value)) {
        throw new PyDmCodecException(
            path, "the value contains itself; cyclic objects have no object-record form here");
      }
      try {
        return body.get();
      } finally {
        open.remove(value);
      }
    }
  }

  /** A VM value for a Boolean, an integral or a floating Java number (already validated). */
  private static VmValue value(Object v) {
    if (v instanceof Boolean b) {
      return VmValue.i8((byte) (b ? 1 : 0));
    }
    if (v instanceof Byte b) {
      return VmValue.i8(b);
    }
    if (v instanceof Short s) {
      return VmValue.i16(s);
    }
    if (v instanceof Integer i) {
      return VmValue.i32(i);
    }
    if (v instanceof Long l) {
      return VmValue.i64(l);
    }
    if (v instanceof Float f) {
      return VmValue.f32(f);
    }
    return VmValue.f64((Double) v);
  }

  private static final Object NO_DATA = new Object();
  private static final OptionalLong NO_ID = OptionalLong.empty();

  private static VmList build(PyTypeCode code, Object data, OptionalLong id) {
    VmList record = VmList.variant(3);
    record.push(VmValue.i32(code.code()));
    if (data != NO_DATA) {
      record.push(data);
    } else if (id.isPresent()) {
      record.push(null);
    }
    if (id.isPresent()) {
      record.push(VmValue.i64(id.getAsLong()));
    }
    return record;
  }

  // ---------------------------------------------------------------------------------------------
  // Decoding

  /**
   * The Java value of the object record {@code record}: the plain value when it writes the same
   * record back, else a {@link PyObject}; see the class description.
   *
   * @param record an object record: a {@code list<?>} of type code, data and optional id
   * @return the plain Java value, or a {@link PyObject} when only that keeps the record intact
   * @throws PyDmCodecException when the record (or a nested one) is malformed
   * @throws PyDmUnsupportedTypeException for a type code whose data is TODO
   */
  public static Object decode(VmList record) {
    return decode(record, ROOT);
  }

  /**
   * {@link #decode(VmList)}, naming {@code path} in errors.
   *
   * @param record an object record
   * @param path where the record is, for messages ({@code m.f: result})
   * @return the value {@link #decode(VmList)} returns
   */
  public static Object decode(VmList record, String path) {
    Objects.requireNonNull(path, "path");
    return new Decoder().record(record, path, 0, false);
  }

  /**
   * The record {@code record} as a {@link PyObject}, whatever its value: its code, data and id
   * (nested values are decoded as {@link #decode} does).
   *
   * @param record an object record
   * @return the record's type code, value and id
   */
  public static PyObject decodeObject(VmList record) {
    return decodeObject(record, ROOT);
  }

  /**
   * {@link #decodeObject(VmList)}, naming {@code path} in errors.
   *
   * @param record an object record
   * @param path where the record is, for messages
   * @return the record's type code, value and id
   */
  public static PyObject decodeObject(VmList record, String path) {
    Objects.requireNonNull(path, "path");
    return (PyObject) new Decoder().record(record, path, 0, true);
  }

  /**
   * The elements of an unboxed PyDM list or tuple: a {@code list<?>} of object records (the data
   * slot of a {@code List} or {@code Tuple} record), each decoded as {@link #decode} does.
   *
   * @param elements a {@code list<?>} of object records
   * @param path where the list is, for messages
   * @return an unmodifiable list (elements may be {@code null}, Python's {@code None})
   */
  public static List<Object> decodeElements(VmList elements, String path) {
    Objects.requireNonNull(path, "path");
    return new Decoder().sequence(elements, path, 0);
  }

  private static final class Decoder {
    private final Set<VmList> open = Collections.newSetFromMap(new IdentityHashMap<>());

    Object record(VmList record, String path, int depth, boolean full) {
      checkDepth(path, depth);
      if (record == null) {
        throw new PyDmCodecException(path, "expected an object record (a list<?>), got null");
      }
      if (!open.add(record)) {
        throw new PyDmCodecException(
            path, "the record contains itself; cyclic objects have no Java value form here");
      }
      try {
        return decodeOpen(record, path, depth, full);
      } finally {
        open.remove(record);
      }
    }

    private Object decodeOpen(VmList record, String path, int depth, boolean full) {
      if (record.isClosed()) {
        throw new PyDmCodecException(path, "the object record is a closed list");
      }
      if (!record.elementType().isVariant()) {
        throw new PyDmCodecException(
            path,
            "an object record is a variant list (list<?>), got a list<"
                + record.elementType()
                + "> "
                + record);
      }
      int size = record.size();
      if (size < 1 || size > 3) {
        throw new PyDmCodecException(
            path,
            "an object record has 1 to 3 slots ([type code, data?, id?]), got "
                + size
                + ": "
                + record);
      }
      Object codeSlot = record.get(0);
      if (!(codeSlot instanceof VmValue vmValue) || vmValue.type() != VmValueType.I32) {
        throw new PyDmCodecException(
            path + ".code", "the type code is an i32 value, got " + describeSlot(codeSlot));
      }
      int codeValue = vmValue.asI32();
      PyTypeCode code =
          PyTypeCode.fromCode(codeValue)
              .orElseThrow(
                  () -> new PyDmCodecException(path + ".code", PyTypeCode.unknown(codeValue)));
      if (!code.isSupported()) {
        throw new PyDmUnsupportedTypeException(path, code, "a record");
      }
      OptionalLong id = OptionalLong.empty();
      if (size == 3) {
        Object idSlot = record.get(2);
        if (!(idSlot instanceof VmValue idValue) || idValue.type() != VmValueType.I64) {
          throw new PyDmCodecException(
              path + ".id", "the id is an i64 value, got " + describeSlot(idSlot));
        }
        id = OptionalLong.of(idValue.asI64());
      }
      boolean hasData = size >= 2;
      Object data = hasData ? record.get(1) : null;
      Object value = data(code, hasData, data, path, depth);
      if (!full && id.isEmpty() && hasPlainForm(code, value)) {
        return code == PyTypeCode.TUPLE ? PyTuple.copyOf((List<?>) value) : value;
      }
      return new PyObject(code, value, id);
    }

    /** The Java form of a record's data (slot [1]); null for NO_DATA. */
    private Object data(PyTypeCode code, boolean hasData, Object data, String path, int depth) {
      String at = path + ".data";
      PyTypeCode.Representation r = code.representation();
      if (r == PyTypeCode.Representation.NO_DATA) {
        boolean placeholder =
            code == PyTypeCode.NONE
                && data instanceof VmValue vmValue
                && vmValue.isInteger()
                && vmValue.rawBits() == 0;
        if (data != null && !placeholder) {
          throw new PyDmCodecException(
              at,
              code.describeWithArticle()
                  + " record has no data (the slot is absent or null"
                  + (code == PyTypeCode.NONE ? ", or the lowering's integer 0 placeholder" : "")
                  + "), got "
                  + describeSlot(data));
        }
        return null;
      }
      if (!hasData || data == null) {
        throw new PyDmCodecException(
            at,
            code.describeWithArticle()
                + " record carries its data in slot [1] ("
                + expected(code)
                + "), got "
                + (hasData ? "null" : "a record of size 1"));
      }
      switch (r) {
        case OBJECT_SEQUENCE -> {
          if (!(data instanceof VmList list)) {
            throw wrongData(code, at, data);
          }
          return sequence(list, path, depth);
        }
        case OBJECT_RECORD -> {
          if (!(data instanceof VmList list)) {
            throw wrongData(code, at, data);
          }
          return record(list, path + ".data", depth + 1, false);
        }
        default -> {}
      }
      if (!(data instanceof VmValue v)) {
        throw wrongData(code, at, data);
      }

      switch (r) {
        case BOOL -> {
          if (!v.isInteger() || (v.rawBits() != 0 && v.rawBits() != 1)) {
            throw wrongData(code, at, data);
          }
          return v.rawBits() == 1;
        }
        case WEAK_INTEGER, WEAK_REAL -> {
          if (r == PyTypeCode.Representation.WEAK_INTEGER ? !v.isInteger() : !v.isFloat()) {
            throw wrongData(code, at, data);
          }
          return v.boxed();
        }
        default -> {
          if (v.type() != code.valueType().orElseThrow()) {
            throw wrongData(code, at, data);
          }
          if (r == PyTypeCode.Representation.F16_BITS) {
            return new PyHalf(v.asI16());
          }
          if (r == PyTypeCode.Representation.BF16_BITS) {
            return new PyBFloat16(v.asI16());
          }
          return v.boxed();
        }
      }
    }

    List<Object> sequence(VmList elements, String path, int depth) {
      checkDepth(path, depth);
      if (elements == null) {
        throw new PyDmCodecException(path, "expected a list<?> of object records, got null");
      }
      if (elements.isClosed() || !elements.elementType().isVariant()) {
        throw new PyDmCodecException(
            path, "expected a list<?> of object records, got " + describeSlot(elements));
      }
      if (!open.add(elements)) {
        throw new PyDmCodecException(
            path, "the list contains itself; cyclic objects have no Java value form here");
      }
      try {
        List<Object> out = new ArrayList<>(elements.size());
        for (int i = 0; i < elements.size(); i++) {
          String at = path + "[" + i + "]";
          Object e = elements.get(i);
          if (!(e instanceof VmList vmList)) {
            throw new PyDmCodecException(
                at,
                "a list or tuple element is an object record (a list<?>), got " + describeSlot(e));
          }
          out.add(record(vmList, at, depth + 1, false));
        }
        return Collections.unmodifiableList(out);
      } finally {
        open.remove(elements);
      }
    }
  }

  /** True when the plain Java value {@code value} encodes back to a record of {@code code}. */
  private static boolean hasPlainForm(PyTypeCode code, Object value) {
    return switch (code) {
      case NONE, TUPLE, LIST -> true;
      case BOOL -> value instanceof Boolean;
      case INTEGER1, INTEGER2, INTEGER4, INTEGER8, FLOAT2, FLOAT4, FLOAT8, BFLOAT2 -> true;
      default -> false;
        // not assigned, Type, Object, weak and unsigned numbers
    };
  }

  private static String expected(PyTypeCode code) {
    return switch (code.representation()) {
      case OBJECT_SEQUENCE -> "a list<?> of object records";
      case OBJECT_RECORD -> "a nested object record";
      case BOOL -> "an integer value 0 or 1";
      case WEAK_INTEGER -> "an integer value (i8..i64)";
      case WEAK_REAL -> "a float value (f32 or f64)";
      case F16_BITS -> "an i16 value holding IEEE half bits";
      case BF16_BITS -> "an i16 value holding bfloat16 bits";
      default -> "an " + code.valueType().orElseThrow() + " value";
    };
  }

  private static PyDmCodecException wrongData(PyTypeCode code, String path, Object data) {
    return new PyDmCodecException(
        path,
        code.describeWithArticle()
            + " record's data is "
            + expected(code)
            + ", got "
            + describeSlot(data));
  }

  private static void checkDepth(String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw new PyDmCodecException(path, "nested more than " + MAX_DEPTH + " deep");
    }
  }

  /** A VM slot for messages: {@code null}, {@code i32 5}, {@code a list<?> of size 2 [...]}. */
  static String describeSlot(Object slot) {
    if (slot == null) {
      return "null";
    }
    if (slot instanceof VmValue) {
      return slot.toString();
    }
    if (slot instanceof VmList l) {
      if (l.isClosed()) {
        return "a closed list";
      }
      String text = l.toString();
      if (text.length() > 80) {
        text = text.substring(0, 77) + "...";
      }
      return "a list<" + l.elementType() + "> of size " + l.size() + " " + text;
    }
    if (slot instanceof VmRef vmRef) {
      return "a " + vmRef.refTypeName() + " ref";
    }
    return describe(slot);
  }

  /** A Java value for messages: {@code a java.lang.String "abc"}. */
  static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    String text = String.valueOf(value);
    if (value instanceof byte[] array) {
      text = array.length + " bytes";
    }
    if (text.length() > 60) {
      text = text.substring(0, 57) + "...";
    }
    if (value instanceof CharSequence) {
      text = '"' + text + '"';
    }
    return dev.ireestubs.abi.JavaMapping.aTypeName(value) + " (" + text + ")";
  }
}
