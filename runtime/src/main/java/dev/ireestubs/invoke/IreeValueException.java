package dev.ireestubs.invoke;

import java.util.Objects;

/**
 * A value that does not fit the function's signature, on its way in ({@link Side#ARGUMENT}: wrong
 * arity, a missing or extra key, a wrong shape or element type, a null) or out ({@link
 * Side#RESULT}: a wrong count, a value where a ref was declared, a wrong shape or element type).
 * The message is {@code path: problem}: the function and the value's path ({@code predict:
 * features.image}, {@code batch: rows[2]}, {@code predict: result.logits}), what the signature
 * declares and what was given.
 *
 * <p>Catch this class; {@link #side()} says which way the value travelled. Subclasses add what a
 * calling convention knows of its own failures (IREEPyDM's {@code PyUnknownException}, a result).
 */
public class IreeValueException extends IreeException {
  private static final long serialVersionUID = 1L;

  /** Which way the value travelled. */
  public enum Side {
    /** Into the function: an argument the caller passed (fix the call). */
    ARGUMENT,
    /**
     * Out of the function: a result the module returned (the module does not match its reflection).
     */
    RESULT
  }

  /** Which way the failing value travelled. */
  private final Side side;

  /** The function and the value's path, which start the message. */
  private final String path;

  /** What was expected and what was given. */
  private final String problem;

  /**
   * For subclasses of a calling convention's own; create instances with {@link #of}.
   *
   * @param side which way the value travelled
   * @param path the function and the value's path, e.g. {@code predict: features.image}
   * @param problem what was expected and what was given
   */
  protected IreeValueException(Side side, String path, String problem) {
    super(path + ": " + problem);
    this.side = Objects.requireNonNull(side, "side");
    this.path = path;
    this.problem = problem;
  }

  /**
   * The exception for a value at {@code path} that does not fit its declaration.
   *
   * @param side which way the value travelled
   * @param path the function and the value's path, e.g. {@code predict: features.image}
   * @param problem what was expected and what was given
   * @return the exception, for the caller to throw
   */
  public static IreeValueException of(Side side, String path, String problem) {
    return new IreeValueException(side, path, problem);
  }

  /**
   * Which way the value travelled: an argument or a result.
   *
   * @return {@link Side#ARGUMENT} for a value passed in, {@link Side#RESULT} for one returned
   */
  public Side side() {
    return side;
  }

  /**
   * The function and the value's path, e.g. {@code predict: features.image}.
   *
   * @return the path that starts the message, such as {@code predict: features.image}
   */
  public String path() {
    return path;
  }

  /**
   * What was expected and what was given: the message after the path.
   *
   * @return the text after the path: what was expected and what was given
   */
  public String problem() {
    return problem;
  }

  /**
   * This exception with {@code path} in place of its path (same side, problem, cause and stack
   * trace), for code that knows better where a value sits, such as the index of a list element.
   *
   * @param path the function and the value's path
   * @return a new exception of this class (an {@code IreeValueException} for a subclass's)
   */
  public IreeValueException withPath(String path) {
    IreeValueException e = of(side, path, problem);
    e.setStackTrace(getStackTrace());
    for (Throwable s : getSuppressed()) {
      e.addSuppressed(s);
    }
    if (getCause() != null) {
      e.initCause(getCause());
    }
    return e;
  }
}
