package dev.ireestubs.invoke;

/**
 * A result that does not fit the function's declared results: an {@link IreeValueException} of
 * side {@link IreeValueException.Side#RESULT}.
 *
 * @deprecated catch {@link IreeValueException} (and check {@link #side()} if it matters); this
 *     name remains, and is what is thrown, only so that code written against it keeps compiling and
 *     catching. It will be removed.
 */
@Deprecated
public class IreeResultException extends IreeValueException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception for a result at {@code path} that does not fit its declaration.
   *
   * @param path the function and result path, e.g. {@code predict: result.logits}
   * @param problem what was declared and what arrived
   */
  public IreeResultException(String path, String problem) {
    super(Side.RESULT, path, problem);
  }
}
