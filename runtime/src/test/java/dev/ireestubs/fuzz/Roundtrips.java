package dev.ireestubs.fuzz;

import java.util.Objects;
import java.util.function.Function;

/** The round-trip check of the fuzz targets, with a message that shows both sides. */
final class Roundtrips {

  private Roundtrips() {}

  /**
   * Prints {@code value}, parses the text back and prints again: the value read back must equal
   * {@code value} and the second text the first. Each of the three steps is {@linkplain
   * FuzzContract#bounded bounded} by the size of the input {@code value} was read from.
   */
  static <T> void check(
      String format,
      long inputBytes,
      T value,
      Function<T, String> print,
      Function<String, T> parse) {
    String printed = FuzzContract.bounded(format + ": print", inputBytes, () -> print.apply(value));
    T again =
        FuzzContract.bounded(
            format + ": parse the printed text", inputBytes, () -> parse.apply(printed));
    requireEqual(value, again, printed);
    String reprinted =
        FuzzContract.bounded(format + ": print again", inputBytes, () -> print.apply(again));
    requireEqual(printed, reprinted, printed);
  }

  /**
   * Fails unless {@code expected} equals {@code actual}.
   *
   * @param printed the printed text the second value was read from, for the message
   */
  static void requireEqual(Object expected, Object actual, String printed) {
    if (!Objects.equals(expected, actual)) {
      throw new AssertionError(
          "round trip changed the value\n  before: "
              + cut(expected)
              + "\n  after:  "
              + cut(actual)
              + "\n  printed: "
              + cut(printed));
    }
  }

  private static String cut(Object o) {
    String s = String.valueOf(o);
    return s.length() <= 2000 ? s : s.substring(0, 2000) + "... (" + s.length() + " characters)";
  }
}
