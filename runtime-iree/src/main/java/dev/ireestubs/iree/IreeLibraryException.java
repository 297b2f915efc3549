package dev.ireestubs.iree;

import dev.ireestubs.invoke.IreeException;

/**
 * The IREE runtime library cannot be used: no path was given, the file does not exist or does not
 * load as a shared library, or it lacks symbols of IREE's C API (the message names them). Nothing
 * was loaded into IREE when this is thrown.
 */
public final class IreeLibraryException extends IreeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with the given message.
   *
   * @param message what is wrong and how to fix it
   */
  public IreeLibraryException(String message) {
    super(message);
  }

  /**
   * An exception with the given message and cause.
   *
   * @param message what is wrong and how to fix it
   * @param cause the failure that made the library unusable, e.g. the linker's error
   */
  public IreeLibraryException(String message, Throwable cause) {
    super(message, cause);
  }
}
