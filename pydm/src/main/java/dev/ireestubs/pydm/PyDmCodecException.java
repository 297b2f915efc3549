package dev.ireestubs.pydm;

import java.util.Objects;

/**
 * An object record, or a Java value, that does not follow the PyDM object-record format: a record
 * that is not a variant list, a type code that is not an {@code i32} or not in the table, data of
 * the wrong VM type, a cycle, a Java type with no PyDM type. The message starts with the path of
 * the offending part ({@code result[1].data}) and says what was expected and what was found.
 *
 * <p>An {@link IllegalArgumentException}: the codec was given something it cannot represent. A
 * {@link PyDmFunction} reports the same problems as {@link dev.ireestubs.invoke.IreeValueException}
 * (of the argument or result side), with this as the cause.
 */
public class PyDmCodecException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Where the problem is inside the value. */
  private final String path;

  /** What was expected and what was found. */
  private final String problem;

  /**
   * An exception for a value at {@code path} that cannot be encoded or decoded.
   *
   * @param path where the problem is, e.g. {@code value[2].data}
   * @param problem what was expected and what was found
   */
  public PyDmCodecException(String path, String problem) {
    super(Objects.requireNonNull(path, "path") + ": " + Objects.requireNonNull(problem, "problem"));
    this.path = path;
    this.problem = problem;
  }

  /**
   * Where the problem is, e.g. {@code value[2].data}.
   *
   * @return the path inside the value, such as {@code value[2].data}
   */
  public String path() {
    return path;
  }

  /**
   * What was expected and what was found, without the path.
   *
   * @return the problem text on its own
   */
  public String problem() {
    return problem;
  }
}
