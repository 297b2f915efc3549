package dev.ireestubs.pydm;

/**
 * Python's {@code UnboundLocalError} returned by a PyDM function ({@code exception_result} {@value
 * #CODE}): a local variable read before it was assigned. An {@link IllegalStateException}; see
 * {@link PyExceptionCode#UNBOUND_LOCAL_ERROR}.
 */
public final class PyUnboundLocalError extends IllegalStateException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code UnboundLocalError}. */
  public static final int CODE = -10;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyUnboundLocalError(String function) {
    super(PyExceptionCode.UNBOUND_LOCAL_ERROR.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "UnboundLocalError";
  }

  @Override
  public String function() {
    return function;
  }
}
