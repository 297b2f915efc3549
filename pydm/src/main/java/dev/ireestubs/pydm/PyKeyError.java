package dev.ireestubs.pydm;

import java.util.NoSuchElementException;

/**
 * Python's {@code KeyError} returned by a PyDM function ({@code exception_result} {@value #CODE}):
 * a key that is not in a mapping. A {@link NoSuchElementException}; see {@link
 * PyExceptionCode#KEY_ERROR}.
 */
public final class PyKeyError extends NoSuchElementException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code KeyError}. */
  public static final int CODE = -6;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyKeyError(String function) {
    super(PyExceptionCode.KEY_ERROR.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "KeyError";
  }

  @Override
  public String function() {
    return function;
  }
}
