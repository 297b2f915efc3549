package dev.ireestubs.abi;

import java.util.Locale;

/**
 * The limits every reflection parser in this package enforces, so that hostile or broken input is
 * refused early with an {@link AbiParseException} naming the limit, instead of costing time or
 * memory out of proportion to its size.
 *
 * <p>Within the limits, every parser takes time and memory linear in the length of its input. The
 * limits are far above anything IREE's compilers write: real {@code iree.abi} objects are a few
 * hundred characters long, nest at most a handful of levels and have keys of a few dozen
 * characters.
 *
 * <table>
 *   <caption>Limits and the formats they apply to</caption>
 *   <tr><th>limit</th><th>value</th><th>applies to</th></tr>
 *   <tr><td>{@link #MAX_TEXT_LENGTH}</td><td>8,388,608 characters</td><td>one text of any
 *       format: a JSON function or module, a declaration, a calling convention, a V0 or SIP
 *       signature</td></tr>
 *   <tr><td>{@link #MAX_DEPTH}</td><td>64 levels</td><td>JSON arrays and objects, MLIR types,
 *       V0 spans</td></tr>
 *   <tr><td>{@link #MAX_NAME_LENGTH}</td><td>4,096 characters</td><td>JSON object keys (function
 *       names of a module), {@code sdict} keys, {@code named} argument names</td></tr>
 *   <tr><td>{@link #MAX_STRING_LENGTH}</td><td>65,536 characters</td><td>any other JSON
 *       string</td></tr>
 *   <tr><td>{@link #MAX_NUMBER_LENGTH}</td><td>64 characters</td><td>a JSON number</td></tr>
 *   <tr><td>{@link #MAX_FUNCTIONS}</td><td>65,536</td><td>functions in one JSON module
 *       file</td></tr>
 * </table>
 *
 * <p>The message of such an error names the constant and its value, e.g. {@code iree.abi JSON at
 * offset 0: the text is 9,000,000 characters long, more than ParseLimits.MAX_TEXT_LENGTH =
 * 8,388,608}.
 */
public final class ParseLimits {

  /** The longest text any parser accepts, in characters (8 MiB). */
  public static final int MAX_TEXT_LENGTH = 8 * 1024 * 1024;

  /**
   * The deepest nesting any parser follows: of JSON arrays and objects (counting the function
   * object itself), of MLIR types, and of V0 spans.
   */
  public static final int MAX_DEPTH = 64;

  /**
   * The longest name, in characters: an {@code sdict} key, a {@code named} argument's name, or a
   * JSON object key (such as a function name in a module file).
   */
  public static final int MAX_NAME_LENGTH = 4096;

  /** The longest JSON string value, in characters. */
  public static final int MAX_STRING_LENGTH = 65_536;

  /** The longest JSON number literal, in characters. */
  public static final int MAX_NUMBER_LENGTH = 64;

  /** The most functions one JSON module file may describe. */
  public static final int MAX_FUNCTIONS = 65_536;

  private ParseLimits() {}

  /**
   * The sentence for a value over a limit: {@code <what> is <actual> <unit>, more than
   * ParseLimits.<name> = <limit>}.
   */
  static String exceeded(String what, long actual, String unit, String name, long limit) {
    return what
        + " is "
        + grouped(actual)
        + (unit.isEmpty() ? "" : " " + unit)
        + ", more than ParseLimits."
        + name
        + " = "
        + grouped(limit);
  }

  /**
   * Throws when {@code text} is longer than {@link #MAX_TEXT_LENGTH}; every parser calls this
   * first.
   */
  static void checkTextLength(ReflectionFormat format, String text) {
    if (text.length() > MAX_TEXT_LENGTH) {
      throw new AbiParseException(
          format,
          "offset 0",
          exceeded(
              "the text", text.length(), "characters long", "MAX_TEXT_LENGTH", MAX_TEXT_LENGTH));
    }
  }

  /** The sentence for {@code what} longer than the limit {@code name}: {@code ... characters}. */
  static String tooLong(String what, String name, long limit) {
    return what + " is longer than ParseLimits." + name + " = " + grouped(limit) + " characters";
  }

  /** The sentence for nesting deeper than {@link #MAX_DEPTH}. */
  static String tooDeep(String what) {
    return what + " nested more than ParseLimits.MAX_DEPTH = " + MAX_DEPTH + " levels deep";
  }

  private static String grouped(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
