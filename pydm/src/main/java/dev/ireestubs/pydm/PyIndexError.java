package dev.ireestubs.pydm;

/**
 * Python's {@code IndexError} returned by a PyDM function ({@code exception_result} {@value
 * #CODE}): an index out of a sequence's range. An {@link IndexOutOfBoundsException}; see {@link
 * PyExceptionCode#INDEX_ERROR}.
 */
public final class PyIndexError extends IndexOutOfBoundsException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code IndexError}. */
  public static final int CODE = -7;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyIndexError(String function) {
    super(PyExceptionCode.INDEX_ERROR.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "IndexError";
  }

  @Override
  public String function() {
    return function;
  }
}
