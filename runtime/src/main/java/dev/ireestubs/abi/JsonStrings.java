package dev.ireestubs.abi;

import java.util.Locale;

/** JSON string literals, for the JSON printer and for messages that quote text. */
final class JsonStrings {

  private JsonStrings() {}

  /** At most this many characters of a string are quoted in an error message. */
  static final int EXCERPT_LENGTH = 120;

  /**
   * A JSON string literal of {@code s} for a message: quoted, cut after {@link #EXCERPT_LENGTH}
   * characters (and the length said) when longer.
   */
  static String excerpt(String s) {
    if (s.length() <= EXCERPT_LENGTH) {
      return isPlain(s) ? "\"" + s + "\"" : quote(s);
    }
    return quote(s.substring(0, EXCERPT_LENGTH))
        + "... ("
        + String.format(Locale.ROOT, "%,d", s.length())
        + " characters)";
  }

  /** True when {@code s} needs no escape in a JSON string. */
  private static boolean isPlain(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /** A JSON string literal. */
  static String quote(String s) {
    if (isPlain(s)) {
      return "\"" + s + "\"";
    }
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c >= 0x20) {
        sb.append(c);
      } else {
        sb.append(controlEscape(c));
      }
    }
    return sb.append('"').toString();
  }

  /** The JSON escape of a control character: a two-character one where JSON has it, else six. */
  private static String controlEscape(char c) {
    return CONTROL_ESCAPES[c];
  }

  private static final String[] CONTROL_ESCAPES = new String[0x20];

  static {
    for (char c = 0; c < 0x20; c++) {
      CONTROL_ESCAPES[c] = String.format("\\u%04x", (int) c);
    }
    CONTROL_ESCAPES['\n'] = "\\n";
    CONTROL_ESCAPES['\r'] = "\\r";
    CONTROL_ESCAPES['\t'] = "\\t";
    CONTROL_ESCAPES['\b'] = "\\b";
    CONTROL_ESCAPES['\f'] = "\\f";
  }
}
