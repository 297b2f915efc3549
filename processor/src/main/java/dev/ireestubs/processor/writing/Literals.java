package dev.ireestubs.processor.writing;

import dev.ireestubs.processor.printing.Code;
import java.util.ArrayList;
import java.util.List;

/**
 * String literals in generated code, of any length: a class file holds a string constant of at most
 * 65,535 bytes (modified UTF-8, up to three bytes a character), so a longer text (a key of 70,000
 * characters) is written as parts joined at run time. {@code String.join} keeps javac from folding
 * the parts back into one constant, as it would {@code "a" + "b"}.
 */
final class Literals {

  /** The longest literal written as one: at three bytes a character, well under the limit. */
  static final int MAX_PART = 20_000;

  private Literals() {}

  /** True when {@code text} is written as one literal. */
  static boolean fits(String text) {
    return text.length() <= MAX_PART;
  }

  /** {@code "text"}, or {@code String.join("", "part", "part")} for a long text. */
  static SignatureCode.Expr string(String text) {
    if (fits(text)) {
      return new SignatureCode.Expr(Code.of("$S", text), new SignatureCode.Cost(3, 2));
    }
    List<Code> parts = new ArrayList<>();
    for (int from = 0; from < text.length(); from += MAX_PART) {
      parts.add(Code.of("$S", text.substring(from, Math.min(text.length(), from + MAX_PART))));
    }
    return new SignatureCode.Expr(
        Code.of("String.join(\"\", $L)", Code.join(parts, ", ")),
        new SignatureCode.Cost(12 + 8 * parts.size(), 2 + 2 * parts.size()));
  }
}
