package dev.ireestubs.abi;

import java.util.Objects;

/**
 * Reflection text that does not parse: names the format, the position (a JSON path with line and
 * column, or a character offset) and what was expected.
 *
 * <p>Every parser in this package throws only this exception for bad input.
 */
public final class AbiParseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The format whose text failed to parse. */
  private final ReflectionFormat format;

  /** Where in the text the problem was found. */
  private final String position;

  /** What was expected and what was found. */
  private final String detail;

  /**
   * An exception for text of {@code format} that does not parse; the message names the format, the
   * position and the detail.
   *
   * @param format the format being parsed
   * @param position where: {@code $.a[0][2] (line 1, column 14)} or {@code offset 12}
   * @param detail what was expected and what was found
   */
  public AbiParseException(ReflectionFormat format, String position, String detail) {
    this(format, position, detail, null);
  }

  /**
   * As {@link #AbiParseException(ReflectionFormat, String, String)}, with a cause.
   *
   * @param format the reflection format whose text failed to parse
   * @param position where in the text, such as {@code offset 12}
   * @param detail what was expected and what was found
   * @param cause the failure underneath, such as a JSON parser's
   */
  public AbiParseException(
      ReflectionFormat format, String position, String detail, Throwable cause) {
    super(format.displayName() + " at " + position + ": " + detail, cause);
    this.format = Objects.requireNonNull(format);
    this.position = Objects.requireNonNull(position);
    this.detail = Objects.requireNonNull(detail);
  }

  /**
   * The format that failed to parse.
   *
   * @return the format whose text is malformed
   */
  public ReflectionFormat format() {
    return format;
  }

  /**
   * Where in the text.
   *
   * @return the place the problem was found, such as a character offset or a JSON path
   */
  public String position() {
    return position;
  }

  /**
   * What was expected and what was found.
   *
   * @return the problem on its own, without format or position
   */
  public String detail() {
    return detail;
  }
}
