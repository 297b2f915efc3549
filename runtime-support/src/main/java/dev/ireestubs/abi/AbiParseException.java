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

  private final ReflectionFormat format;
  private final String position;
  private final String detail;

  /**
   * @param format the format being parsed
   * @param position where: {@code $.a[0][2] (line 1, column 14)} or {@code offset 12}
   * @param detail what was expected and what was found
   */
  public AbiParseException(ReflectionFormat format, String position, String detail) {
    this(format, position, detail, null);
  }

  /** As {@link #AbiParseException(ReflectionFormat, String, String)}, with a cause. */
  public AbiParseException(
      ReflectionFormat format, String position, String detail, Throwable cause) {
    super(format.displayName() + " at " + position + ": " + detail, cause);
    this.format = Objects.requireNonNull(format);
    this.position = Objects.requireNonNull(position);
    this.detail = Objects.requireNonNull(detail);
  }

  /** The format that failed to parse. */
  public ReflectionFormat format() {
    return format;
  }

  /** Where in the text. */
  public String position() {
    return position;
  }

  /** What was expected and what was found. */
  public String detail() {
    return detail;
  }
}
