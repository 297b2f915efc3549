package dev.ireestubs.pydm;

/**
 * Python's {@code TypeError} returned by a PyDM function ({@code exception_result} {@value #CODE}):
 * an operation applied to a value of an inappropriate type. An {@link IllegalArgumentException};
 * see {@link PyExceptionCode#TYPE_ERROR}.
 */
public final class PyTypeError extends IllegalArgumentException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code TypeError}. */
  public static final int CODE = -9;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyTypeError(String function) {
    super(PyExceptionCode.TYPE_ERROR.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "TypeError";
  }

  @Override
  public String function() {
    return function;
  }
}
