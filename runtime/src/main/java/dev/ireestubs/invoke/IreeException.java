package dev.ireestubs.invoke;

/**
 * Base of the exceptions a call through iree-stubs throws: an argument or result that does not fit
 * its signature, a missing function, a signature mismatch at bind time, a failure in the backend.
 * (Parsing reflection throws {@code AbiParseException}, reading a {@code .vmfb} {@code
 * VmfbFormatException}, and using a closed backend {@link IllegalStateException}.) Unchecked: a
 * wrong shape or a missing function is a programming or deployment error, not something callers
 * recover from locally.
 */
public class IreeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with a message.
   *
   * @param message what went wrong, starting with the function's name
   */
  public IreeException(String message) {
    super(message);
  }

  /**
   * An exception with a message and a cause.
   *
   * @param message what went wrong, starting with the function's name
   * @param cause the failure underneath, kept for its stack trace
   */
  public IreeException(String message, Throwable cause) {
    super(message, cause);
  }
}
