package dev.ireestubs.invoke;

/**
 * A result that does not match the function's declared results: wrong count, a value where a ref
 * was declared, a wrong shape or element type. The message names the function, the result path
 * ({@code predict: result.logits}), what was declared and what arrived.
 */
public class IreeResultException extends IreeException {
  private static final long serialVersionUID = 1L;

  private final String path;

  /**
   * @param path the function and result path, e.g. {@code predict: result.logits}
   * @param problem what was declared and what arrived
   */
  public IreeResultException(String path, String problem) {
    super(path + ": " + problem);
    this.path = path;
  }

  /** The function and result path. */
  public String path() {
    return path;
  }
}
