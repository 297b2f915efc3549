package dev.ireestubs.pydm;

import dev.ireestubs.invoke.IreeValueException;

/**
 * A PyDM function returned a negative {@code exception_result} that is not one of the predefined
 * codes -1 .. -10: the module uses a code this runtime does not know (a newer compiler, or a
 * function that does not follow the PyDM convention). Reported, never swallowed; an {@link
 * IreeValueException} of side {@link IreeValueException.Side#RESULT RESULT} at the path {@code
 * function: exception_result}.
 */
public final class PyUnknownException extends IreeValueException implements PyException {
  private static final long serialVersionUID = 1L;

  /** The function that returned the code. */
  private final String function;

  /** The undefined {@code exception_result}. */
  private final int code;

  /**
   * An exception for an exception result whose code is not one this library knows.
   *
   * @param function the function that returned the code ({@code module.function})
   * @param code the {@code exception_result}, negative and not predefined
   * @throws IllegalArgumentException for 0, a positive or a predefined code
   */
  public PyUnknownException(String function, int code) {
    super(Side.RESULT, function + ": exception_result", problem(code));
    this.function = function;
    this.code = code;
  }

  private static String problem(int code) {
    if (code >= 0 || PyExceptionCode.fromCode(code).isPresent()) {
      throw new IllegalArgumentException(
          "code " + code + " is not an undefined negative exception_result");
    }
    PyExceptionCode[] all = PyExceptionCode.values();
    PyExceptionCode last = all[all.length - 1];
    return "the function raised an exception with code "
        + code
        + ", which is not a predefined"
        + " PyDM exception code (-1 "
        + all[0].pythonName()
        + " .. "
        + last.code()
        + " "
        + last.pythonName()
        + ")";
  }

  @Override
  public int code() {
    return code;
  }

  /** {@code Exception}: the code does not tell the class. */
  @Override
  public String pythonName() {
    return "Exception";
  }

  @Override
  public String function() {
    return function;
  }
}
