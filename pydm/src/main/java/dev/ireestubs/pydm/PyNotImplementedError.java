package dev.ireestubs.pydm;

/**
 * Python's {@code NotImplementedError} returned by a PyDM function ({@code exception_result}
 * {@value #CODE}): an operation the function does not implement. A {@link
 * UnsupportedOperationException}; see {@link PyExceptionCode#NOT_IMPLEMENTED_ERROR}.
 */
public final class PyNotImplementedError extends UnsupportedOperationException
    implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code NotImplementedError}. */
  public static final int CODE = -5;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyNotImplementedError(String function) {
    super(PyExceptionCode.NOT_IMPLEMENTED_ERROR.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "NotImplementedError";
  }

  @Override
  public String function() {
    return function;
  }
}
