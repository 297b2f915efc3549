package dev.ireestubs.invoke;

/**
 * An argument that does not fit the function's signature: an {@link IreeValueException} of side
 * {@link IreeValueException.Side#ARGUMENT}.
 *
 * @deprecated catch {@link IreeValueException} (and check {@link #side()} if it matters); this
 *     name remains, and is what is thrown, only so that code written against it keeps compiling and
 *     catching. It will be removed.
 */
@Deprecated
public class IreeArgumentException extends IreeValueException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception for an argument at {@code path} that does not fit its declaration.
   *
   * @param path the function and argument path, e.g. {@code predict: features.image}
   * @param problem what was expected and what was given
   */
  public IreeArgumentException(String path, String problem) {
    super(Side.ARGUMENT, path, problem);
  }
}
