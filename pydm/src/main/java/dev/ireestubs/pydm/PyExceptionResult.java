package dev.ireestubs.pydm;

import java.util.Objects;

/**
 * The {@code exception_result} every PyDM function returns, a signed {@code i32} (IREE's "Lowering
 * IREEPyDM to IREE" notes): 0 is normal termination; a negative code is one of the {@linkplain
 * PyExceptionCode predefined} primitive exceptions; a positive code is an index into the module's
 * exception table.
 */
public final class PyExceptionResult {

  /** Normal termination. */
  public static final int SUCCESS = 0;

  private PyExceptionResult() {}

  /**
   * Returns normally for 0, and throws the exception {@code code} stands for otherwise: the
   * predefined class for -1 .. -10 ({@link PyStopIteration} ...), a {@link PyRaisedException} for a
   * positive code, a {@link PyUnknownException} for any other negative code. Every exception thrown
   * is a {@link PyException}.
   *
   * @param function the function that returned the code, for the message ({@code module.f})
   * @param code the {@code exception_result} the function returned
   */
  public static void check(int code, String function) {
    if (code != SUCCESS) {
      throw exception(code, function).asRuntimeException();
    }
  }

  /**
   * The exception {@code code} stands for; see {@link #check}.
   *
   * @param code a non-zero {@code exception_result}
   * @param function the qualified name of the function that returned it, for the message
   * @return a new exception, not yet thrown
   * @throws IllegalArgumentException for 0, which is not an exception
   */
  public static PyException exception(int code, String function) {
    Objects.requireNonNull(function, "function");
    if (code == SUCCESS) {
      throw new IllegalArgumentException(
          "exception_result 0 is normal termination, not an exception");
    }
    if (code > 0) {
      return new PyRaisedException(function, code);
    }
    return PyExceptionCode.fromCode(code)
        .map(c -> (PyException) c.newException(function))
        .orElseGet(() -> new PyUnknownException(function, code));
  }
}
