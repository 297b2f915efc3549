package dev.ireestubs.pydm;

import java.util.NoSuchElementException;

/**
 * Python's {@code StopAsyncIteration} returned by a PyDM function ({@code exception_result} {@value
 * #CODE}): exhaustion of an async iterator. A {@link NoSuchElementException}; see {@link
 * PyExceptionCode#STOP_ASYNC_ITERATION}.
 */
public final class PyStopAsyncIteration extends NoSuchElementException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The {@code exception_result} of {@code StopAsyncIteration}. */
  public static final int CODE = -2;

  /** The function that returned the code. */
  private final String function;

  /**
   * The exception for {@code function} ({@code module.function}) returning {@value #CODE}.
   *
   * @param function the qualified name of the function that raised
   */
  public PyStopAsyncIteration(String function) {
    super(PyExceptionCode.STOP_ASYNC_ITERATION.message(function));
    this.function = function;
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public String pythonName() {
    return "StopAsyncIteration";
  }

  @Override
  public String function() {
    return function;
  }
}
