package dev.ireestubs.pydm;

import dev.ireestubs.abi.VmKind;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.util.Objects;

/**
 * The PyDM calling convention, for generated stubs and {@link PyDmFunction}.
 *
 * <p>IREE lowers a PyDM function {@code (args) -> (!iree_pydm.exception_result, T)} to a VM
 * function returning two results: first the {@code exception_result} as an {@code i32}, then the
 * value (IREE's PyDM-to-IREE lowering tests show {@code return %exc, %value : i32, i32}). Values
 * travel unboxed or boxed: an {@code object} (and a free variable cell) is an object record, a
 * {@code list<?>}; {@code bool} is an {@code i1}, which the VM widens to {@code i32}; {@code None}
 * is an {@code i32} (a placeholder 0); integers and reals are values of their width (the weak
 * {@code int} and {@code float} of an implementation-defined width); an unboxed list or tuple is a
 * {@code list<?>} of object records. On an exception the value slot holds a placeholder (zero or an
 * empty list) and is not read.
 *
 * <p>Every method reports problems as the invoke layer does: {@link IreeValueException} of side
 * ARGUMENT for arguments, {@link IreeValueException} of side RESULT for results, with the path
 * ({@code m.f: result[1]}) and what was expected and found; codec problems keep their {@link
 * PyDmCodecException} as the cause.
 */
public final class PyDm {

  /** A PyDM function returns two VM results: the {@code exception_result} and the value. */
  public static final int RESULT_COUNT = 2;

  private PyDm() {}

  /**
   * Checks the {@code exception_result} (result 0) and returns the value slot (result 1) as the VM
   * holds it: a {@link VmValue}, a {@link VmList} or another ref.
   *
   * @param function the function's name for messages and exceptions ({@code module.function})
   * @param results the result list the function returned
   * @return the value slot, unconverted
   * @throws dev.ireestubs.invoke.IreeValueException (a result) when there are not two results or
   *     result 0 is not an {@code i32}
   * @throws RuntimeException the {@link PyException} the code stands for (see {@link
   *     PyExceptionResult#check})
   */
  public static Object checkResult(VmList results, String function) {
    Objects.requireNonNull(function, "function");
    if (results == null || results.isClosed() || results.size() != RESULT_COUNT) {
      throw IreeValueException.of(
          IreeValueException.Side.RESULT,
          function + ": results",
          "a PyDM function returns "
              + RESULT_COUNT
              + " results (the i32 exception_result, then"
              + " the value), got "
              + (results == null
                  ? "no list"
                  : results.isClosed() ? "a closed list" : results.size() + ": " + results));
    }
    Object codeSlot = results.get(0);
    if (!(codeSlot instanceof VmValue vmValue) || !isI32OrNarrower(vmValue)) {
      throw IreeValueException.of(
          IreeValueException.Side.RESULT,
          function + ": exception_result",
          "expected an i32 value, got " + PyObjects.describeSlot(codeSlot));
    }
    PyExceptionResult.check(vmValue.asI32(), function);
    return results.get(1);
  }

  /**
   * Checks the {@code exception_result} and decodes the value: an unboxed value as its boxed Java
   * form ({@code i32} as {@code Integer}, {@code f64} as {@code Double}...), an object record as
   * {@link PyObjects#decode} does. A {@code list<?>} is always read as an object record: for a
   * function returning an unboxed list or tuple (a {@code list<?>} of records, no type code), use
   * {@link #checkResult} and {@link PyObjects#decodeElements}.
   *
   * @param results the result list the function returned
   * @param function the function's name for messages and exceptions ({@code module.function})
   * @return the value as a Java object, or null for Python's {@code None} in a record
   * @throws dev.ireestubs.invoke.IreeValueException (a result) when the results or the value are
   *     malformed
   * @throws RuntimeException the {@link PyException} for a non-zero {@code exception_result}
   */
  public static Object decodeResult(VmList results, String function) {
    Object slot = checkResult(results, function);
    return decodeValue(slot, function + ": result");
  }

  /**
   * The Java form of one VM slot of a PyDM value: a {@link VmValue} as {@code Byte}, {@code Short},
   * {@code Integer}, {@code Long}, {@code Float} or {@code Double}; an object record through {@link
   * PyObjects#decode}.
   *
   * @param slot the value slot of a result list
   * @param path where the value is, for messages ({@code m.f: result})
   * @return the boxed number or the decoded record
   * @throws dev.ireestubs.invoke.IreeValueException (a result) for anything else (null, another
   *     ref) or a malformed record
   */
  public static Object decodeValue(Object slot, String path) {
    Objects.requireNonNull(path, "path");
    if (slot instanceof VmValue vmValue) {
      return vmValue.boxed();
    }
    if (slot instanceof VmList vmList) {
      try {
        return PyObjects.decode(vmList, path);
      } catch (PyDmCodecException e) {
        IreeValueException r =
            IreeValueException.of(IreeValueException.Side.RESULT, e.path(), e.problem());
        r.initCause(e);
        throw r;
      }
    }
    throw IreeValueException.of(
        IreeValueException.Side.RESULT,
        path,
        "expected an unboxed value or an object record (list<?>), got "
            + PyObjects.describeSlot(slot));
  }

  /**
   * The VM slot for argument {@code value} of calling-convention kind {@code kind}:
   *
   * <ul>
   *   <li>{@code r}: a {@link VmRef} as it is (a record or unboxed list built by hand), else the
   *       object record of {@code value} ({@link PyObjects#encode});
   *   <li>{@code i}: a {@code Boolean} (1 or 0), {@code Byte}, {@code Short} or {@code Integer};
   *   <li>{@code I}: a {@code Byte}, {@code Short}, {@code Integer} or {@code Long};
   *   <li>{@code f}: a {@code Float}; {@code F}: a {@code Float} or {@code Double}.
   * </ul>
   *
   * <p>For the value kinds a {@link PyObject} without an id stands for its value (an unsigned or
   * weak-sized number).
   *
   * @param value the Java argument
   * @param kind the calling-convention kind of the argument's slot
   * @param path where the argument is, for messages ({@code m.f: arg0})
   * @return a {@link VmValue} for a value kind, a ref for {@code r}
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) when the value does not fit the
   *     kind
   */
  public static Object encodeArgument(Object value, VmKind kind, String path) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(path, "path");
    if (kind == VmKind.REF) {
      if (value instanceof VmRef) {
        return value;
      }
      try {
        return PyObjects.encode(value, path);
      } catch (PyDmCodecException e) {
        IreeValueException a =
            IreeValueException.of(IreeValueException.Side.ARGUMENT, e.path(), e.problem());
        a.initCause(e);
        throw a;
      }
    }
    Object v = value;
    if (v instanceof PyObject) {
      PyObject o = (PyObject) v;
      if (o.id().isPresent()) {
        throw IreeValueException.of(
            IreeValueException.Side.ARGUMENT,
            path,
            "an unboxed " + kindName(kind) + " argument has no id slot, got " + o);
      }
      v = o.value();
    }
    switch (kind) {
      case I32 -> {
        if (v instanceof Boolean) {
          return VmValue.i32((Boolean) v ? 1 : 0);
        }
        if (v instanceof Byte || v instanceof Short || v instanceof Integer) {
          return VmValue.i32(((Number) v).intValue());
        }
      }
      case I64 -> {
        if (PyObject.isIntegral(v)) {
          return VmValue.i64(((Number) v).longValue());
        }
      }
      case F32 -> {
        if (v instanceof Float) {
          return VmValue.f32((Float) v);
        }
      }
      default -> {
        if (v instanceof Float || v instanceof Double) {
          return VmValue.f64(((Number) v).doubleValue());
        }
      }
    }
    throw IreeValueException.of(
        IreeValueException.Side.ARGUMENT,
        path,
        "an unboxed "
            + kindName(kind)
            + " argument takes "
            + accepted(kind)
            + ", got "
            + PyObjects.describe(value));
  }

  /**
   * {@code value} (a decoded result) as a {@code type}: itself when it is one; the value of a
   * {@link PyObject} without an id when that is one (a weak-sized or unsigned number); a {@code
   * Boolean} from an integer 0 or 1 (an unboxed {@code bool} travels as an {@code i32}); {@code
   * null} (Python's {@code None}) as {@code null}.
   *
   * @param <T> the Java type the caller needs
   * @param value the decoded result
   * @param type the class of {@code T}, a boxed type for primitives
   * @param path where the value is, for messages
   * @return the value converted to {@code type}, or null for {@code None}
   * @throws dev.ireestubs.invoke.IreeValueException (a result) naming {@code path}, the type
   *     expected and the value found
   */
  public static <T> T expect(Object value, Class<T> type, String path) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(path, "path");
    if (value == null || type.isInstance(value)) {
      return type.cast(value);
    }
    if (value instanceof PyObject pyObject
        && pyObject.id().isEmpty()
        && type.isInstance(pyObject.value())) {
      return type.cast(pyObject.value());
    }
    if (type == Boolean.class && PyObject.isIntegral(value)) {
      long v = ((Number) value).longValue();
      if (v == 0 || v == 1) {
        return type.cast(v == 1);
      }
    }
    throw IreeValueException.of(
        IreeValueException.Side.RESULT,
        path,
        "expected "
            + dev.ireestubs.abi.JavaMapping.aTypeName(type)
            + ", got "
            + PyObjects.describe(value));
  }

  /**
   * {@code value} as a {@code type} as {@link #expect} converts it, but never null: for results a
   * stub returns as a Java primitive, where Python's {@code None} has no value.
   *
   * @param <T> the Java type the caller needs
   * @param value the decoded result
   * @param type the class of {@code T}, a boxed type for primitives
   * @param path where the value is, for messages
   * @return the value converted to {@code type}, never null
   * @throws dev.ireestubs.invoke.IreeValueException (a result) naming {@code path} when the value
   *     is None or not a {@code type}
   */
  public static <T> T expectValue(Object value, Class<T> type, String path) {
    if (value == null) {
      throw IreeValueException.of(
          IreeValueException.Side.RESULT,
          path,
          "expected "
              + dev.ireestubs.abi.JavaMapping.aTypeName(type)
              + ", got None, which the Java return type cannot hold");
    }
    return expect(value, type, path);
  }

  private static boolean isI32OrNarrower(VmValue v) {
    return v.type() == VmValueType.I32 || v.type() == VmValueType.I16 || v.type() == VmValueType.I8;
  }

  private static String kindName(VmKind kind) {
    return switch (kind) {
      case I32 -> "i32";
      case I64 -> "i64";
      case F32 -> "f32";
      default -> "f64";
    };
  }

  private static String accepted(VmKind kind) {
    return switch (kind) {
      case I32 -> "a Boolean, Byte, Short or Integer";
      case I64 -> "a Byte, Short, Integer or Long";
      case F32 -> "a Float";
      default -> "a Float or Double";
    };
  }
}
