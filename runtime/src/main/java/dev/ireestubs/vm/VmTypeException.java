package dev.ireestubs.vm;

/**
 * A VM value or ref did not have the type an operation needs: a ref where a value was expected
 * (IREE's {@code variant at index N is not a value type}), a value of the wrong kind for a typed
 * list, a ref of the wrong type, or a conversion the VM does not make (integer to float or back).
 *
 * <p>The message names the index (where there is one), the expected and the actual type.
 */
public class VmTypeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with {@code message}.
   *
   * @param message what the VM type does not allow, and where
   */
  public VmTypeException(String message) {
    super(message);
  }
}
