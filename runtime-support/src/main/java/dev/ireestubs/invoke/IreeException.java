package dev.ireestubs.invoke;

/**
 * Base of every exception iree-stubs throws at run time. Unchecked: a wrong shape or a missing
 * function is a programming or deployment error, not something callers recover from locally.
 */
public class IreeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An exception with a message. */
  public IreeException(String message) {
    super(message);
  }

  /** An exception with a message and a cause. */
  public IreeException(String message, Throwable cause) {
    super(message, cause);
  }
}
