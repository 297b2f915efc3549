package dev.ireestubs.pydm;

import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.VmKind;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeSignatureMismatchException;
import dev.ireestubs.vm.VmList;
import java.util.List;
import java.util.Objects;

/**
 * A function that follows the PyDM calling convention (see {@link PyDm}), called with Java values:
 * arguments are marshalled by the function's calling convention (an {@code r} slot takes an object
 * record, {@code i I f F} unboxed values), the {@code exception_result} is checked, and the value
 * is decoded.
 *
 * <pre>{@code
 * PyDmFunction next = PyDmFunction.of(backend.function("module.next_item"));
 * try {
 *   Object item = next.call(iterator);      // a decoded value: Integer, PyTuple, List, PyObject...
 * } catch (NoSuchElementException e) {      // PyStopIteration for exception_result -1
 *   ...
 * }
 * }</pre>
 *
 * <p>Immutable; thread-safe when its backend is.
 */
public final class PyDmFunction {

  private final BackendFunction function;
  private final String name;
  private final List<VmKind> argumentKinds;
  private final VmKind valueKind;

  private PyDmFunction(BackendFunction function, List<VmKind> argumentKinds, VmKind valueKind) {
    this.function = function;
    this.name = function.qualifiedName();
    this.argumentKinds = List.copyOf(argumentKinds);
    this.valueKind = valueKind;
  }

  /**
   * {@code function}, which must follow the PyDM convention: a fixed calling convention whose
   * results are an {@code i} (the {@code exception_result}) then one value, such as {@code 0rr_ir}
   * or {@code 0ii_ii}.
   *
   * @throws IreeSignatureMismatchException when the calling convention is missing, malformed,
   *     variadic, or its results are not {@code i} and one more
   */
  public static PyDmFunction of(BackendFunction function) {
    Objects.requireNonNull(function, "function");
    String cconv = function.callingConvention();
    String name = function.qualifiedName();
    if (cconv == null || cconv.isEmpty()) {
      throw notPyDm(name, "it has no calling convention");
    }
    CallingConvention parsed;
    try {
      parsed = CallingConvention.parse(cconv);
    } catch (AbiParseException e) {
      throw notPyDm(
          name, "its calling convention " + cconv + " does not parse (" + e.getMessage() + ")");
    }
    if (parsed.isVariadic()) {
      throw notPyDm(name, "its calling convention " + cconv + " is variadic");
    }
    List<VmKind> results = parsed.resultKinds();
    if (results.size() != PyDm.RESULT_COUNT || results.get(0) != VmKind.I32) {
      throw notPyDm(
          name,
          "its results (calling convention "
              + cconv
              + ") are not the i32 exception_result"
              + " followed by one value, as in 0r_ir");
    }
    return new PyDmFunction(function, parsed.argumentKinds(), results.get(1));
  }

  private static IreeSignatureMismatchException notPyDm(String name, String why) {
    return new IreeSignatureMismatchException(
        name + " does not follow the PyDM calling convention: " + why);
  }

  /** The backend function this calls. */
  public BackendFunction function() {
    return function;
  }

  /** How each argument travels: {@link VmKind#REF} for an object record, else unboxed. */
  public List<VmKind> argumentKinds() {
    return argumentKinds;
  }

  /** How the value result travels: {@link VmKind#REF} for an object record, else unboxed. */
  public VmKind valueKind() {
    return valueKind;
  }

  /**
   * Calls the function.
   *
   * @param arguments one Java value per argument; see {@link PyDm#encodeArgument}
   * @return the decoded value (see {@link PyDm#decodeResult})
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) when the count or an argument does not fit
   * @throws dev.ireestubs.invoke.IreeValueException (a result) when the results are malformed
   * @throws RuntimeException a {@link PyException} when the function returns a non-zero {@code
   *     exception_result}: {@link PyStopIteration}, {@link PyValueError}, ..., {@link
   *     PyRaisedException}, {@link PyUnknownException}
   */
  public Object call(Object... arguments) {
    VmList args = encodeArguments(arguments == null ? new Object[] {null} : arguments);
    VmList results = function.invoke(args);
    return PyDm.decodeResult(results, name);
  }

  /**
   * Calls the function and checks the {@code exception_result}, but returns the value slot as the
   * VM holds it (see {@link PyDm#checkResult}): for results {@link #call} would misread, such as an
   * unboxed list (a {@code list<?>} of records, read with {@link PyObjects#decodeElements}).
   */
  public Object callRaw(Object... arguments) {
    VmList args = encodeArguments(arguments == null ? new Object[] {null} : arguments);
    return PyDm.checkResult(function.invoke(args), name);
  }

  private VmList encodeArguments(Object[] arguments) {
    if (arguments.length != argumentKinds.size()) {
      throw IreeValueException.of(IreeValueException.Side.ARGUMENT, 
          name,
          "expected "
              + argumentKinds.size()
              + (argumentKinds.size() == 1 ? " argument" : " arguments")
              + " but got "
              + arguments.length);
    }
    VmList list = VmList.variant(arguments.length);
    for (int i = 0; i < arguments.length; i++) {
      list.push(PyDm.encodeArgument(arguments[i], argumentKinds.get(i), name + ": arg" + i));
    }
    return list;
  }

  @Override
  public String toString() {
    return name + " (PyDM, " + function.callingConvention() + ")";
  }
}
