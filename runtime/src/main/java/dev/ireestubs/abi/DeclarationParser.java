package dev.ireestubs.abi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code iree.abi.declaration} parser behind {@link Declaration#parse}. A hand-written scanner
 * over character offsets: every loop consumes at least one character, the only recursion is the
 * type parser's (bounded by {@link MlirTypes#MAX_DEPTH}), and every failure is an {@link
 * AbiParseException} naming the offset, what was expected and what was found.
 */
final class DeclarationParser {

  /** Characters that end a parameter name (besides whitespace). */
  private static final String NAME_STOPS = ",(){}[]<>\"";

  /** Characters that end an unquoted attribute name (besides whitespace). */
  private static final String KEY_STOPS = "=,(){}[]<>\"";

  private final String s;
  private final int n;
  private int pos;

  private DeclarationParser(String s) {
    this.s = s;
    this.n = s.length();
  }

  static Declaration parse(String text) {
    return new DeclarationParser(text).declaration();
  }

  private Declaration declaration() {
    pos = MlirText.skipSpaces(s, 0, n);
    boolean async;
    if (word("async")) {
      async = true;
    } else if (word("sync")) {
      async = false;
    } else {
      throw MlirText.error(
          pos, "expected 'sync' or 'async', found " + MlirText.describeWord(s, pos));
    }
    pos = MlirText.skipSpaces(s, pos, n);
    if (!word("func")) {
      throw MlirText.error(pos, "expected 'func', found " + MlirText.describeWord(s, pos));
    }
    pos = MlirText.skipSpaces(s, pos, n);
    expect('@', "'@' and the function name");
    int nameStart = pos;
    while (pos < n
        && s.charAt(pos) != '('
        && !MlirText.isSpace(s.charAt(pos))
        && s.charAt(pos) >= 0x20) {
      pos++;
    }
    if (pos == nameStart) {
      throw MlirText.error(
          pos, "expected the function name after '@', found " + MlirText.describe(s, pos));
    }
    String name = s.substring(nameStart, pos);
    pos = MlirText.skipSpaces(s, pos, n);
    expect('(', "'(' to open the arguments");
    List<Declaration.Parameter> arguments = parameters("argument");
    pos = MlirText.skipSpaces(s, pos, n);
    List<Declaration.Parameter> results = List.of();
    if (pos < n) {
      if (!s.startsWith("->", pos)) {
        throw MlirText.error(
            pos,
            "expected '->' and the results, or the end of the declaration, found "
                + MlirText.describe(s, pos));
      }
      pos = MlirText.skipSpaces(s, pos + 2, n);
      expect('(', "'(' to open the results");
      results = parameters("result");
      pos = MlirText.skipSpaces(s, pos, n);
      if (pos < n) {
        throw MlirText.error(
            pos,
            "expected the end of the declaration after the results, found "
                + MlirText.describe(s, pos));
      }
    }
    return new Declaration(async, name, arguments, results);
  }

  /** Consumes {@code w} when it is at {@code pos} and not followed by another word character. */
  private boolean word(String w) {
    if (!s.startsWith(w, pos)) {
      return false;
    }
    int end = pos + w.length();
    if (end < n) {
      char c = s.charAt(end);
      if (MlirText.isAsciiLetter(c) || MlirText.isDigit(c) || c == '_') {
        return false;
      }
    }
    pos = end;
    return true;
  }

  private void expect(char c, String what) {
    if (pos >= n || s.charAt(pos) != c) {
      throw MlirText.error(pos, "expected " + what + ", found " + MlirText.describe(s, pos));
    }
    pos++;
  }

  /** The parameters after an opening parenthesis, through the closing one. */
  private List<Declaration.Parameter> parameters(String what) {
    List<Declaration.Parameter> out = new ArrayList<>();
    pos = MlirText.skipSpaces(s, pos, n);
    if (pos < n && s.charAt(pos) == ')') {
      pos++;
      return out;
    }
    while (true) {
      pos = MlirText.skipSpaces(s, pos, n);
      out.add(parameter(what, out.size()));
      pos = MlirText.skipSpaces(s, pos, n);
      if (pos < n && s.charAt(pos) == ',') {
        pos++;
      } else if (pos < n && s.charAt(pos) == ')') {
        pos++;
        return out;
      } else {
        throw MlirText.error(
            pos,
            "expected ',' or ')' after "
                + what
                + " "
                + (out.size() - 1)
                + ", found "
                + MlirText.describe(s, pos));
      }
    }
  }

  private Declaration.Parameter parameter(String what, int index) {
    if (pos >= n || s.charAt(pos) != '%') {
      throw MlirText.error(
          pos,
          "expected '%' and the name of "
              + what
              + " "
              + index
              + ", found "
              + MlirText.describe(s, pos));
    }
    pos++;
    int nameStart = pos;
    while (pos < n && isNameChar(s.charAt(pos))) {
      pos++;
    }
    if (pos - nameStart == 1 && s.charAt(nameStart) == ':') {
      throw MlirText.error(
          nameStart, "expected the name of " + what + " " + index + " after '%', found ':'");
    }
    String name;
    if (pos - nameStart > 1
        && s.charAt(pos - 1) == ':'
        && pos < n
        && MlirText.isSpace(s.charAt(pos))) {
      // The usual "%name: type": the run took the separating colon.
      name = s.substring(nameStart, pos - 1);
    } else {
      name = s.substring(nameStart, pos);
      if (name.isEmpty()) {
        throw MlirText.error(
            pos,
            "expected the name of "
                + what
                + " "
                + index
                + " after '%', found "
                + MlirText.describe(s, pos));
      }
      pos = MlirText.skipSpaces(s, pos, n);
      if (pos >= n || s.charAt(pos) != ':') {
        throw MlirText.error(
            pos, "expected ':' and the type of %" + name + ", found " + MlirText.describe(s, pos));
      }
      pos++;
    }
    pos = MlirText.skipSpaces(s, pos, n);
    int typeStart = pos;
    int stop = MlirText.scanBalanced(s, typeStart, n, MlirTypes.TYPE_STOPS);
    int typeEnd = MlirText.trimEnd(s, typeStart, stop);
    if (typeEnd == typeStart) {
      throw MlirText.error(
          typeStart,
          "expected the type of %" + name + ", found " + MlirText.describe(s, typeStart));
    }
    AbiType type = MlirTypes.parse(s, typeStart, typeEnd, 1);
    pos = stop;
    String attributes = "";
    if (pos < n && s.charAt(pos) == '{') {
      int open = pos;
      int close = MlirText.scanBalanced(s, open + 1, n, "})]>");
      if (close >= n || s.charAt(close) != '}') {
        throw MlirText.error(
            close,
            "expected '}' to close the attributes of %"
                + name
                + " opened at offset "
                + open
                + ", found "
                + MlirText.describe(s, close));
      }
      int a = MlirText.skipSpaces(s, open + 1, close);
      int b = MlirText.trimEnd(s, a, close);
      attributeEntries(s, a, b);
      attributes = s.substring(a, b);
      pos = close + 1;
    }
    return new Declaration.Parameter(name, type, s.substring(typeStart, typeEnd), attributes);
  }

  private static boolean isNameChar(char c) {
    return !MlirText.isSpace(c) && c >= 0x20 && NAME_STOPS.indexOf(c) < 0;
  }

  /** Why {@code name} cannot be a parameter name, or null when it can. */
  static String checkParameterName(String name) {
    if (name.isEmpty()) {
      return "a parameter name must not be empty";
    }
    for (int i = 0; i < name.length(); i++) {
      if (!isNameChar(name.charAt(i))) {
        return "a parameter name must not contain whitespace, control characters or any of "
            + NAME_STOPS
            + ": '"
            + name
            + "'";
      }
    }
    return null;
  }

  /**
   * Checks the attribute dictionary body in {@code [start, end)} ({@code key = value, ...}) and
   * returns its entries as {@code {key, raw value text}}, the key unquoted, {@code unit} for a key
   * alone (a unit attribute, as MLIR writes it; IREE writes {@code key = unit}).
   *
   * <p>A key is a string literal or a run of characters other than whitespace, quotes, brackets,
   * {@code =} and {@code ,}: IREE's compiler writes attribute names as they are, unquoted, so a
   * name need not be an MLIR identifier.
   *
   * @throws AbiParseException with offsets into {@code s} for an entry that is not {@code key} or
   *     {@code key = value}, an empty entry, or a duplicate key
   */
  static List<String[]> attributeEntries(String s, int start, int end) {
    List<String[]> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    int p = MlirText.skipSpaces(s, start, end);
    if (p == end) {
      return out;
    }
    while (true) {
      int stop = MlirText.scanBalanced(s, p, end, ",");
      int a = MlirText.skipSpaces(s, p, stop);
      int b = MlirText.trimEnd(s, a, stop);
      if (a == b) {
        throw MlirText.error(a, "expected an attribute name, found " + MlirText.describe(s, a));
      }
      String key;
      int q;
      if (s.charAt(a) == '"') {
        q = MlirText.skipString(s, a, b);
        key =
            MlirText.unquote(s.substring(a, q))
                .orElseThrow(
                    () ->
                        MlirText.error(
                            a, "malformed escape in the attribute name " + s.substring(a, b)));
      } else {
        q = a;
        while (q < b && isKeyChar(s.charAt(q))) {
          q++;
        }
        key = s.substring(a, q);
        if (key.isEmpty()) {
          throw MlirText.error(
              a,
              "expected an attribute name (an identifier or a string), found "
                  + MlirText.describeWord(s, a));
        }
      }
      int r = MlirText.skipSpaces(s, q, b);
      String value;
      if (r == b) {
        value = "unit";
      } else if (s.charAt(r) == '=') {
        int v = MlirText.skipSpaces(s, r + 1, b);
        if (v == b) {
          throw MlirText.error(v, "expected a value for attribute " + key + " after '='");
        }
        value = s.substring(v, b);
      } else {
        throw MlirText.error(
            r,
            "expected '=' or ',' after attribute name "
                + key
                + ", found "
                + MlirText.describe(s, r));
      }
      if (seen.containsKey(key)) {
        throw MlirText.error(
            a, "duplicate attribute " + key + " (first at offset " + seen.get(key) + ")");
      }
      seen.put(key, a);
      out.add(new String[] {key, value});
      if (stop == end) {
        return out;
      }
      p = stop + 1;
    }
  }

  private static boolean isKeyChar(char c) {
    return !MlirText.isSpace(c) && c >= 0x20 && KEY_STOPS.indexOf(c) < 0;
  }
}
