package dev.ireestubs.pydm;

/**
 * Python's {@code AttributeError} returned by a PyDM function ({@code exception_result} {@value
 * #CODE}): an attribute reference or assignment that failed. A {@link
 * UnsupportedOperationException}; see {@link PyExceptionCode#ATTRIBUTE_ERROR}.
 */
public final class PyAttributeError extends UnsupportedOperationException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code AttributeError}. */
  public static final int CODE = -8;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyAttributeError(String function) {
    super(PyExceptionCode.ATTRIBUTE_ERROR.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "AttributeError";
  }

  @Override
  public String function() {
    return function;
  }
}
