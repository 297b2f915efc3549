package dev.ireestubs.fuzz;

import java.util.Objects;

/** The round-trip check of the fuzz targets, with a message that shows both sides. */
final class Roundtrips {

  private Roundtrips() {}

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
