package dev.ireestubs.invoke;

/**
 * The function a stub binds to does not have the signature the stub was compiled against: the model
 * changed since the code was compiled. Thrown when the stub is created, never mid-call.
 */
public class IreeSignatureMismatchException extends IreeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with the given message.
   *
   * @param message names the function and both signatures
   */
  public IreeSignatureMismatchException(String message) {
    super(message);
  }
}
