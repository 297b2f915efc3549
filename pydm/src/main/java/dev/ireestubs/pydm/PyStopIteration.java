package dev.ireestubs.pydm;

import java.util.NoSuchElementException;

/**
 * Python's {@code StopIteration} returned by a PyDM function ({@code exception_result} {@value
 * #CODE}): exhaustion of an iterator. A {@link NoSuchElementException}; see {@link
 * PyExceptionCode#STOP_ITERATION}.
 */
public final class PyStopIteration extends NoSuchElementException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code StopIteration}. */
  public static final int CODE = -1;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyStopIteration(String function) {
    super(PyExceptionCode.STOP_ITERATION.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "StopIteration";
  }

  @Override
  public String function() {
    return function;
  }
}
