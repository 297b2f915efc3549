package dev.ireestubs.invoke;

/**
 * The backend failed to run a function: the function itself reported an error, or (IREE runtime) a
 * non-OK status, whose code this carries.
 */
public class IreeInvocationException extends IreeException {
  private static final long serialVersionUID = 1L;

  /** IREE's status code, or -1 for a failure outside IREE's runtime. */
  private final int statusCode;

  /**
   * A failure with no status code (host modules): {@link #statusCode()} is -1.
   *
   * @param message the backend's own text, starting with the function's name
   * @param cause what the host function threw
   */
  public IreeInvocationException(String message, Throwable cause) {
    super(message, cause);
    this.statusCode = -1;
  }

  /**
   * A failure with an IREE status code ({@code iree_status_code_t}).
   *
   * @param message IREE's status text, starting with the function's name
   * @param statusCode the {@code iree_status_code_t} the runtime returned
   */
  public IreeInvocationException(String message, int statusCode) {
    super(message);
    this.statusCode = statusCode;
  }

  /**
   * The IREE status code, or -1 when the failure did not come from IREE's runtime.
   *
   * @return the status code, such as 3 for {@code INVALID_ARGUMENT}, or -1
   */
  public int statusCode() {
    return statusCode;
  }
}
