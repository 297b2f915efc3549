package dev.ireestubs.pydm;

import dev.ireestubs.invoke.IreeInvocationException;

/**
 * Python's {@code RuntimeError} returned by a PyDM function ({@code exception_result} {@value
 * #CODE}), the lowering's general catch-all failure. An {@link IreeInvocationException} (the
 * function itself reported an error), so it is also an {@link dev.ireestubs.invoke.IreeException};
 * see {@link PyExceptionCode#RUNTIME_ERROR}.
 */
public final class PyRuntimeError extends IreeInvocationException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code RuntimeError}. */
  public static final int CODE = -3;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyRuntimeError(String function) {
    super(PyExceptionCode.RUNTIME_ERROR.message(function), (Throwable) null);
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "RuntimeError";
  }

  @Override
  public String function() {
    return function;
  }
}
