package dev.ireestubs.abi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Lexical helpers shared by the {@code iree.abi.declaration} and MLIR type parsers: bracket- and
 * quote-aware scanning, string literals, and error construction with character offsets.
 *
 * <p>Nothing here recurses; every loop advances at least one character per step.
 */
final class MlirText {

  static final ReflectionFormat FORMAT = ReflectionFormat.DECLARATION;

  private MlirText() {}

  /** A parse error at a character offset. */
  static AbiParseException error(int offset, String detail) {
    return new AbiParseException(FORMAT, "offset " + offset, detail);
  }

  /** The character at {@code i} for a message: {@code ','}, or "the end of the text". */
  static String describe(String s, int i) {
    if (i >= s.length()) {
      return "the end of the text";
    }
    char c = s.charAt(i);
    if (c < 0x20 || c == 0x7f) {
      return String.format("character U+%04X", (int) c);
    }
    return "'" + c + "'";
  }

  /**
   * What starts at {@code i} for a message: the run of up to 24 characters before the next
   * whitespace or punctuation, quoted; or {@link #describe}'s text when that run is empty.
   */
  static String describeWord(String s, int i) {
    int j = i;
    while (j < s.length() && j - i < 24 && isWordChar(s.charAt(j))) {
      j++;
    }
    if (j == i) {
      return describe(s, i);
    }
    String word = s.substring(i, j);
    return "'" + word + (j < s.length() && isWordChar(s.charAt(j)) ? "...'" : "'");
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '$' || c == '-';
  }

  static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }

  static int skipSpaces(String s, int i, int end) {
    while (i < end && isSpace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  /** {@code s} without leading and trailing {@linkplain #isSpace spaces}. */
  static String strip(String s) {
    int a = skipSpaces(s, 0, s.length());
    return s.substring(a, trimEnd(s, a, s.length()));
  }

  /** The offset just after the last non-space character of {@code [start, end)}. */
  static int trimEnd(String s, int start, int end) {
    while (end > start && isSpace(s.charAt(end - 1))) {
      end--;
    }
    return end;
  }

  /**
   * The offset just after the string literal whose opening quote is at {@code quote}; a backslash
   * escapes the next character.
   *
   * @throws AbiParseException at {@code end} when the literal is not closed before it
   */
  static int skipString(String s, int quote, int end) {
    int i = quote + 1;
    while (i < end) {
      char c = s.charAt(i);
      if (c == '\\') {
        i += 2;
      } else if (c == '"') {
        return i + 1;
      } else {
        i++;
      }
    }
    throw error(
        end,
        "expected '\"' to close the string opened at offset "
            + quote
            + ", found "
            + describe(s, end));
  }

  /** True when the {@code '>'} at {@code i} is the head of an arrow {@code ->}, not a bracket. */
  private static boolean isArrowHead(String s, int i) {
    return i > 0 && s.charAt(i - 1) == '-';
  }

  private static char closerOf(char opener) {
    return switch (opener) {
      case '(' -> ')';
      case '[' -> ']';
      case '{' -> '}';
      default -> '>';
    };
  }

  /**
   * Scans {@code [from, end)} keeping track of <code>( [ &#123; &lt;</code> and string literals,
   * and returns the offset of the first character at bracket depth 0 that is in {@code stops}, or
   * {@code end} when there is none. The {@code >} of an arrow {@code ->} is not a bracket. The scan
   * uses an explicit stack (no recursion), so any nesting depth is safe.
   *
   * @throws AbiParseException for a closing bracket that does not match the open one, a closing
   *     bracket at depth 0 that is not a stop, a bracket or string still open at {@code end}
   */
  static int scanBalanced(String s, int from, int end, String stops) {
    char[] openers = new char[8];
    int[] offsets = new int[8];
    int depth = 0;
    int i = from;
    while (i < end) {
      char c = s.charAt(i);
      if (c == '"') {
        i = skipString(s, i, end);
        continue;
      }
      boolean arrow = c == '>' && isArrowHead(s, i);
      if (depth == 0 && stops.indexOf(c) >= 0 && !arrow) {
        return i;
      }
      if (c == '(' || c == '[' || c == '{' || c == '<') {
        if (depth == openers.length) {
          openers = Arrays.copyOf(openers, depth * 2);
          offsets = Arrays.copyOf(offsets, depth * 2);
        }
        openers[depth] = c;
        offsets[depth] = i;
        depth++;
      } else if ((c == ')' || c == ']' || c == '}' || c == '>') && !arrow) {
        if (depth == 0) {
          throw error(i, "unexpected " + describe(s, i) + " with nothing open to close");
        }
        char expected = closerOf(openers[depth - 1]);
        if (c != expected) {
          throw error(
              i,
              "expected '"
                  + expected
                  + "' to close '"
                  + openers[depth - 1]
                  + "' opened at offset "
                  + offsets[depth - 1]
                  + ", found "
                  + describe(s, i));
        }
        depth--;
      }
      i++;
    }
    if (depth > 0) {
      throw error(
          end,
          "expected '"
              + closerOf(openers[depth - 1])
              + "' to close '"
              + openers[depth - 1]
              + "' opened at offset "
              + offsets[depth - 1]
              + ", found "
              + describe(s, end));
    }
    return end;
  }

  static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * The value of an MLIR string literal (quotes included in {@code literal}): escapes {@code \\},
   * {@code \"}, {@code \n}, {@code \t} and two-hex-digit bytes {@code \XX} (bytes decoded as
   * UTF-8). Empty when {@code literal} is not exactly one well-formed literal.
   */
  static Optional<String> unquote(String literal) {
    int n = literal.length();
    if (n < 2 || literal.charAt(0) != '"' || literal.charAt(n - 1) != '"') {
      return Optional.empty();
    }
    StringBuilder out = new StringBuilder();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int i = 1;
    while (i < n - 1) {
      char c = literal.charAt(i);
      if (c == '"') {
        return Optional.empty();
      }
      if (c != '\\') {
        flush(bytes, out);
        out.append(c);
        i++;
        continue;
      }
      if (i + 1 >= n - 1) {
        return Optional.empty();
      }
      char e = literal.charAt(i + 1);
      if (e == '\\' || e == '"') {
        flush(bytes, out);
        out.append(e);
        i += 2;
      } else if (e == 'n') {
        flush(bytes, out);
        out.append('\n');
        i += 2;
      } else if (e == 't') {
        flush(bytes, out);
        out.append('\t');
        i += 2;
      } else if (i + 2 < n - 1 && hex(e) >= 0 && hex(literal.charAt(i + 2)) >= 0) {
        bytes.write(hex(e) * 16 + hex(literal.charAt(i + 2)));
        i += 3;
      } else {
        return Optional.empty();
      }
    }
    flush(bytes, out);
    return Optional.of(out.toString());
  }

  private static void flush(ByteArrayOutputStream bytes, StringBuilder out) {
    if (bytes.size() > 0) {
      out.append(new String(bytes.toByteArray(), StandardCharsets.UTF_8));
      bytes.reset();
    }
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
