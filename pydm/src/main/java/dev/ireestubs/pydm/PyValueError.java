package dev.ireestubs.pydm;

/**
 * Python's {@code ValueError} returned by a PyDM function ({@code exception_result} {@value
 * #CODE}): a value of the right type but unsuitable. An {@link IllegalArgumentException}; see
 * {@link PyExceptionCode#VALUE_ERROR}.
 */
public final class PyValueError extends IllegalArgumentException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code ValueError}. */
  public static final int CODE = -4;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyValueError(String function) {
    super(PyExceptionCode.VALUE_ERROR.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "ValueError";
  }

  @Override
  public String function() {
    return function;
  }
}
