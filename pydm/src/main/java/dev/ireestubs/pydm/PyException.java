package dev.ireestubs.pydm;

import java.util.Optional;

/**
 * What every exception mapped from a PyDM {@code exception_result} has in common: the code, the
 * Python exception it names, and the function that returned it.
 *
 * <p>Each predefined code has its own class, extending the Java exception closest in meaning (so
 * {@code catch (NoSuchElementException e)} catches a {@code StopIteration}); Java classes cannot
 * also share a base class, so this interface is what they share. A {@code catch} clause needs a
 * class, so catch all of them with {@code catch (RuntimeException e)} and test {@code e instanceof
 * PyException}:
 *
 * <table>
 *   <caption>Exception classes by exception_result</caption>
 *   <tr><th>code</th><th>Python</th><th>class</th><th>Java base</th></tr>
 *   <tr><td>-1</td><td>StopIteration</td><td>{@link PyStopIteration}</td>
 *       <td>{@link java.util.NoSuchElementException}</td></tr>
 *   <tr><td>-2</td><td>StopAsyncIteration</td><td>{@link PyStopAsyncIteration}</td>
 *       <td>{@link java.util.NoSuchElementException}</td></tr>
 *   <tr><td>-3</td><td>RuntimeError</td><td>{@link PyRuntimeError}</td>
 *       <td>{@link dev.ireestubs.invoke.IreeInvocationException}</td></tr>
 *   <tr><td>-4</td><td>ValueError</td><td>{@link PyValueError}</td>
 *       <td>{@link IllegalArgumentException}</td></tr>
 *   <tr><td>-5</td><td>NotImplementedError</td><td>{@link PyNotImplementedError}</td>
 *       <td>{@link UnsupportedOperationException}</td></tr>
 *   <tr><td>-6</td><td>KeyError</td><td>{@link PyKeyError}</td>
 *       <td>{@link java.util.NoSuchElementException}</td></tr>
 *   <tr><td>-7</td><td>IndexError</td><td>{@link PyIndexError}</td>
 *       <td>{@link IndexOutOfBoundsException}</td></tr>
 *   <tr><td>-8</td><td>AttributeError</td><td>{@link PyAttributeError}</td>
 *       <td>{@link UnsupportedOperationException}</td></tr>
 *   <tr><td>-9</td><td>TypeError</td><td>{@link PyTypeError}</td>
 *       <td>{@link IllegalArgumentException}</td></tr>
 *   <tr><td>-10</td><td>UnboundLocalError</td><td>{@link PyUnboundLocalError}</td>
 *       <td>{@link IllegalStateException}</td></tr>
 *   <tr><td>&gt; 0</td><td>an entry of the exception table</td><td>{@link PyRaisedException}</td>
 *       <td>{@link dev.ireestubs.invoke.IreeInvocationException}</td></tr>
 *   <tr><td>other &lt; 0</td><td>not defined</td><td>{@link PyUnknownException}</td>
 *       <td>{@link dev.ireestubs.invoke.IreeValueException} (result)</td></tr>
 * </table>
 *
 * <p>See {@link PyExceptionCode} for why each base was chosen.
 */
public sealed interface PyException
    permits PyStopIteration,
        PyStopAsyncIteration,
        PyRuntimeError,
        PyValueError,
        PyNotImplementedError,
        PyKeyError,
        PyIndexError,
        PyAttributeError,
        PyTypeError,
        PyUnboundLocalError,
        PyRaisedException,
        PyUnknownException {

  /**
   * The {@code exception_result} the function returned (never 0).
   *
   * @return the negative predefined code, the positive exception-table index, or another code
   */
  int code();

  /**
   * The Python exception the code names: {@code StopIteration} .. {@code UnboundLocalError} for the
   * predefined codes; {@code Exception} for an exception-table index or an undefined code, whose
   * class the code alone does not tell.
   *
   * @return the Python class name, such as {@code IndexError}
   */
  String pythonName();

  /**
   * The function that returned the code, as the caller named it ({@code module.function}).
   *
   * @return the qualified name of the function that raised
   */
  String function();

  /**
   * The predefined code, for codes -1 .. -10.
   *
   * @return the predefined code, or empty for a table index or an undefined code
   */
  default Optional<PyExceptionCode> predefined() {
    return PyExceptionCode.fromCode(code());
  }

  /**
   * This exception as the {@link RuntimeException} it is, to throw or chain it.
   *
   * @return this same object, typed as the unchecked exception every implementation is
   */
  default RuntimeException asRuntimeException() {
    return (RuntimeException) this;
  }
}
