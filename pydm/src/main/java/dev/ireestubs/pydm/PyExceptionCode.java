package dev.ireestubs.pydm;

import dev.ireestubs.invoke.IreeInvocationException;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;

/**
 * The predefined negative {@code exception_result} codes of PyDM: primitive exceptions without
 * detail. The codes and names are those of IREE's "Lowering IREEPyDM to IREE" notes (section
 * "Pre-defined exception codes"), which the lowering's {@code ExceptionCode} enum also uses.
 *
 * <p>Each maps to a Java exception class extending the JDK exception closest in meaning, so
 * idiomatic Java handlers work:
 *
 * <ul>
 *   <li>{@code StopIteration}, {@code StopAsyncIteration}: {@link NoSuchElementException}, what
 *       {@code Iterator.next()} throws when an iterator is exhausted;
 *   <li>{@code RuntimeError}, the lowering's catch-all failure: {@link IreeInvocationException},
 *       which already means "the function itself reported an error";
 *   <li>{@code ValueError}: {@link IllegalArgumentException}, a value of the right type but
 *       unsuitable;
 *   <li>{@code NotImplementedError}: {@link UnsupportedOperationException};
 *   <li>{@code KeyError}: {@link NoSuchElementException}, a lookup of an element (a key) that does
 *       not exist;
 *   <li>{@code IndexError}: {@link IndexOutOfBoundsException};
 *   <li>{@code AttributeError}: {@link UnsupportedOperationException}: the object does not support
 *       the attribute asked for (a missing method, a read-only attribute assigned);
 *   <li>{@code TypeError}: {@link IllegalArgumentException}, which JDK APIs throw for an argument
 *       of an inappropriate type ({@code Method.invoke}, {@code Array.get}); not {@link
 *       ClassCastException}, which reports a failed cast in the caller's own code;
 *   <li>{@code UnboundLocalError}: {@link IllegalStateException}: a local read before it was
 *       assigned is a fault of the function's state, not of its arguments.
 * </ul>
 *
 * <p>The list has no arithmetic exception ({@code ZeroDivisionError} and others are not
 * predefined), so none maps to {@link ArithmeticException}.
 */
@SuppressWarnings("ImmutableEnumChecker") // the factories are constructor references: stateless
public enum PyExceptionCode {
  /** -1: exhaustion of an iterator. */
  STOP_ITERATION(-1, "StopIteration", NoSuchElementException.class, PyStopIteration::new),
  /** -2: exhaustion of an async iterator. */
  STOP_ASYNC_ITERATION(
      -2, "StopAsyncIteration", NoSuchElementException.class, PyStopAsyncIteration::new),
  /** -3: the general catch-all failure. */
  RUNTIME_ERROR(-3, "RuntimeError", IreeInvocationException.class, PyRuntimeError::new),
  /** -4. */
  VALUE_ERROR(-4, "ValueError", IllegalArgumentException.class, PyValueError::new),
  /** -5. */
  NOT_IMPLEMENTED_ERROR(
      -5, "NotImplementedError", UnsupportedOperationException.class, PyNotImplementedError::new),
  /** -6. */
  KEY_ERROR(-6, "KeyError", NoSuchElementException.class, PyKeyError::new),
  /** -7. */
  INDEX_ERROR(-7, "IndexError", IndexOutOfBoundsException.class, PyIndexError::new),
  /** -8. */
  ATTRIBUTE_ERROR(-8, "AttributeError", UnsupportedOperationException.class, PyAttributeError::new),
  /** -9. */
  TYPE_ERROR(-9, "TypeError", IllegalArgumentException.class, PyTypeError::new),
  /** -10. */
  UNBOUND_LOCAL_ERROR(
      -10, "UnboundLocalError", IllegalStateException.class, PyUnboundLocalError::new);

  private final int code;
  private final String pythonName;
  private final Class<? extends RuntimeException> javaBase;
  private final Function<String, RuntimeException> factory;

  PyExceptionCode(
      int code,
      String pythonName,
      Class<? extends RuntimeException> javaBase,
      Function<String, RuntimeException> factory) {
    this.code = code;
    this.pythonName = pythonName;
    this.javaBase = javaBase;
    this.factory = factory;
  }

  /**
   * The {@code exception_result} value, -1 .. -10.
   *
   * @return the negative number the function returns for this exception
   */
  public int code() {
    return code;
  }

  /**
   * The Python exception's name, e.g. {@code StopIteration}.
   *
   * @return the Python class name
   */
  public String pythonName() {
    return pythonName;
  }

  /**
   * The JDK exception class the Java exception for this code extends.
   *
   * @return the JDK class, such as {@link java.util.NoSuchElementException} for {@code
   *     StopIteration}
   */
  public Class<? extends RuntimeException> javaBase() {
    return javaBase;
  }

  /**
   * A new exception for this code, returned by {@code function}: a {@link RuntimeException} that is
   * a {@link PyException}.
   *
   * @param function the qualified name of the function that returned the code
   * @return a new exception of the class this code maps to, not yet thrown
   */
  public RuntimeException newException(String function) {
    return factory.apply(function);
  }

  /**
   * The predefined code {@code code}; empty for 0, positive and undefined negative codes.
   *
   * @param code an {@code exception_result}
   * @return the predefined code with that number, if there is one
   */
  public static Optional<PyExceptionCode> fromCode(int code) {
    if (code >= -values().length && code <= -1) {
      return Optional.of(values()[-code - 1]);
    }
    return Optional.empty();
  }

  /** The message of the exception for a predefined code. */
  String message(String function) {
    return function + " raised " + pythonName + " (PyDM exception_result " + code + ")";
  }
}
