package dev.ireestubs.pydm;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.VmKind;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallCodec;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.IreeSignatureMismatchException;
import dev.ireestubs.vm.VmList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
 * <p>It has the one shape of every dynamic invoker ({@link DynamicFunction}), with the PyDM codec
 * behind it; PyDM functions have no argument names, so named arguments are refused. A result list
 * that fails to decode, or whose {@code exception_result} raises, is closed before the exception
 * leaves.
 *
 * <p>Immutable; thread-safe when its backend is.
 */
public final class PyDmFunction implements DynamicFunction {

  private final BackendFunction function;
  private final String name;
  private final PyDmCodec codec;
  private final VmKind valueKind;

  private PyDmFunction(BackendFunction function, List<VmKind> argumentKinds, VmKind valueKind) {
    this.function = function;
    this.name = function.qualifiedName();
    this.codec = new PyDmCodec(argumentKinds);
    this.valueKind = valueKind;
  }

  /**
   * {@code function}, which must follow the PyDM convention: a fixed calling convention whose
   * results are an {@code i} (the {@code exception_result}) then one value, such as {@code 0rr_ir}
   * or {@code 0ii_ii}.
   *
   * @param function the backend function to call
   * @return the PyDM function
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

  @Override
  public BackendFunction function() {
    return function;
  }

  @Override
  public CallCodec codec() {
    return codec;
  }

  /**
   * How each argument travels.
   *
   * @return one kind per argument: {@link VmKind#REF} for an object record, else unboxed
   */
  public List<VmKind> argumentKinds() {
    return codec.argumentKinds();
  }

  /**
   * How the value result travels.
   *
   * @return {@link VmKind#REF} for an object record, else the kind of the unboxed value
   */
  public VmKind valueKind() {
    return valueKind;
  }

  /**
   * Calls the function.
   *
   * @param arguments one Java value per argument (see {@link PyDm#encodeArgument}); a null array
   *     stands for one null argument
   * @return the decoded value (see {@link PyDm#decodeResult})
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) when the count or an argument
   *     does not fit
   * @throws dev.ireestubs.invoke.IreeValueException (a result) when the results are malformed
   * @throws RuntimeException a {@link PyException} when the function returns a non-zero {@code
   *     exception_result}: {@link PyStopIteration}, {@link PyValueError}, ..., {@link
   *     PyRaisedException}, {@link PyUnknownException}
   */
  @Override
  public Object call(Object... arguments) {
    return call(positional(arguments), Map.of());
  }

  /**
   * Calls the function with positional arguments; PyDM functions have no argument names.
   *
   * @param positional one Java value per argument (see {@link PyDm#encodeArgument})
   * @param named must be empty
   * @return the decoded value (see {@link PyDm#decodeResult})
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) when an argument is named, or the
   *     count or an argument does not fit
   * @throws RuntimeException the {@link PyException} of a non-zero {@code exception_result}
   */
  @Override
  public Object call(List<?> positional, Map<String, ?> named) {
    VmList args = codec.encodeArguments(name, positional, named);
    return codec.decodeResults(name, function.invoke(args));
  }

  /**
   * Calls the function and checks the {@code exception_result}, but returns the value slot as the
   * VM holds it (see {@link PyDm#checkResult}): for results {@link #call} would misread, such as an
   * unboxed list (a {@code list<?>} of records, read with {@link PyObjects#decodeElements}).
   *
   * @param arguments one Java value per argument
   * @return the value slot: a {@code VmValue}, a {@code VmList} or another ref
   * @throws RuntimeException the {@link PyException} of a non-zero {@code exception_result}; the
   *     result list is then closed
   */
  public Object callRaw(Object... arguments) {
    VmList args = codec.encodeArguments(name, positional(arguments), Map.of());
    return codec.checkResults(name, function.invoke(args));
  }

  private static List<?> positional(Object[] arguments) {
    return arguments == null ? Collections.singletonList(null) : Arrays.asList(arguments);
  }

  @Override
  public String toString() {
    return name + " (PyDM, " + function.callingConvention() + ")";
  }
}
