package dev.ireestubs.invoke;

/**
 * An argument that does not match the function's signature: wrong arity, a missing or extra key,
 * a wrong shape or element type, a null. The message names the function, the argument path
 * ({@code predict: features.image}), what was expected and what was given.
 */
public class IreeArgumentException extends IreeException {
  private static final long serialVersionUID = 1L;

  private final String path;

  /**
   * @param path the function and argument path, e.g. {@code predict: features.image}
   * @param problem what was expected and what was given
   */
  public IreeArgumentException(String path, String problem) {
    super(path + ": " + problem);
    this.path = path;
  }

  /** The function and argument path, e.g. {@code predict: features.image}. */
  public String path() {
    return path;
  }
}
