package dev.ireestubs.derive;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.lang.model.SourceVersion;

/**
 * Turns names from module metadata (export names, {@code sdict} keys, {@code named} arguments,
 * declaration parameter names, the module name) into Java identifiers, and writes Java literals and
 * comments that stay one token or one line whatever the metadata holds.
 */
public final class JavaNames {
  private JavaNames() {}

  /**
   * Names a record component may not have (JLS 8.10.1: they would clash with {@code Object}'s
   * no-argument methods).
   */
  public static final Set<String> FORBIDDEN_COMPONENT_NAMES =
      Set.of(
          "clone", "finalize", "getClass", "hashCode", "notify", "notifyAll", "toString", "wait");

  /** Names of {@code Object}'s methods: a method of the interface should not take one. */
  public static final Set<String> OBJECT_METHOD_NAMES =
      Set.of(
          "clone",
          "equals",
          "finalize",
          "getClass",
          "hashCode",
          "notify",
          "notifyAll",
          "toString",
          "wait");

  /**
   * True when {@code name} can be a Java method, parameter or component name as it is.
   *
   * @param name any text
   * @return true for an identifier that is not a keyword or a literal name
   */
  public static boolean isJavaName(String name) {
    return SourceVersion.isIdentifier(name) && !SourceVersion.isKeyword(name);
  }

  /**
   * A method, parameter or component name for {@code raw}: {@code raw} itself when it is already a
   * Java name without {@code $}; otherwise its words (split at {@code $}, {@code _} and every
   * character that cannot be in an identifier) joined in camelCase ({@code main$async} becomes
   * {@code mainAsync}, {@code simple_mul$async} {@code simpleMulAsync}, {@code serving_default:0}
   * {@code servingDefault0}), with {@code _} before a leading digit, {@code fallback} when nothing
   * is left, and {@code _} after a keyword. Collisions are the {@link NameAllocator}'s job.
   *
   * @param raw the name as the module spells it
   * @param fallback the name to use when {@code raw} gives nothing usable
   * @return a valid Java identifier
   */
  public static String memberName(String raw, String fallback) {
    if (isJavaName(raw) && raw.indexOf('$') < 0) {
      return raw;
    }
    List<String> words = words(raw);
    StringBuilder sb = new StringBuilder();
    for (String w : words) {
      if (sb.length() == 0) {
        sb.append(w);
      } else {
        sb.append(upperFirst(w));
      }
    }
    String s = sb.length() == 0 ? fallback : sb.toString();
    if (!Character.isJavaIdentifierStart(s.codePointAt(0))) {
      s = "_" + s;
    }
    return SourceVersion.isKeyword(s) ? s + "_" : s;
  }

  /**
   * A type name for {@code raw}: its words (as {@link #memberName}) each capitalised and joined,
   * {@code sdxl_compiled_pipeline} becoming {@code SdxlCompiledPipeline}; {@code fallback} before a
   * leading digit or when nothing is left.
   *
   * @param raw the name as the module spells it
   * @param fallback the prefix or name to use when {@code raw} gives nothing usable
   * @return a valid Java type name in PascalCase
   */
  public static String typeName(String raw, String fallback) {
    StringBuilder sb = new StringBuilder();
    for (String w : words(raw)) {
      sb.append(upperFirst(w));
    }
    if (sb.length() == 0) {
      return fallback;
    }
    String s = sb.toString();
    return Character.isJavaIdentifierStart(s.codePointAt(0)) ? s : fallback + s;
  }

  /**
   * The words of {@code raw}: its runs of identifier characters other than {@code $} and {@code _}.
   */
  private static List<String> words(String raw) {
    List<String> words = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < raw.length(); ) {
      int cp = raw.codePointAt(i);
      i += Character.charCount(cp);
      boolean part =
          Character.isJavaIdentifierPart(cp)
              && !Character.isIdentifierIgnorable(cp)
              && cp != '$'
              && cp != '_';
      if (part) {
        current.appendCodePoint(cp);
      } else if (current.length() > 0) {
        words.add(current.toString());
        current.setLength(0);
      }
    }
    if (current.length() > 0) {
      words.add(current.toString());
    }
    return words;
  }

  private static String upperFirst(String w) {
    int first = w.codePointAt(0);
    return new StringBuilder()
        .appendCodePoint(Character.toUpperCase(first))
        .append(w, Character.charCount(first), w.length())
        .toString();
  }

  /**
   * A Java string literal of {@code s}, in ASCII: quotes, backslashes and control characters are
   * escaped (never as {@code \}{@code u000a}, which javac would turn into a real line break), other
   * non-ASCII characters as Unicode escapes.
   *
   * @param s any text
   * @return the literal, quotes included, that evaluates to {@code s}
   */
  public static String stringLiteral(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || c == 0x7F) {
            sb.append(String.format("\\%03o", (int) c));
          } else if (c > 0x7F) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  /**
   * {@code s} made safe for a {@code //} comment: control characters become spaces (a line break
   * would end the comment) and backslashes are doubled (so no {@code \}{@code u} escape in the
   * metadata can become a line break either).
   *
   * @param s any text, such as a module's metadata
   * @return the text to put after {@code //}
   */
  public static String commentText(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7F || c == '\u2028' || c == '\u2029' || c == '\u0085') {
        sb.append(' ');
      } else if (c == '\\') {
        sb.append("\\\\");
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * A method or parameter name in Java's convention for {@code raw}: its words (as {@link
   * #memberName}) in lower camelCase, the first word lower-cased ({@code simple_mul} becomes {@code
   * simpleMul}, {@code Predict} {@code predict}, {@code MLP_forward} {@code mlpForward}, {@code
   * main$async} {@code mainAsync}); {@code fallback} when nothing is left, {@code _} before a
   * leading digit and after a keyword. The same {@code raw} always gives the same name.
   *
   * @param raw the name as the module spells it
   * @param fallback the name to use when {@code raw} gives nothing usable
   * @return a valid Java identifier in lower camelCase
   */
  public static String camelName(String raw, String fallback) {
    List<String> words = words(raw);
    StringBuilder sb = new StringBuilder();
    for (String w : words) {
      if (sb.length() == 0) {
        sb.append(lowerFirstWord(w));
      } else {
        sb.append(upperFirst(w));
      }
    }
    String s = sb.length() == 0 ? fallback : sb.toString();
    if (!Character.isJavaIdentifierStart(s.codePointAt(0))) {
      s = "_" + s;
    }
    return isReserved(s) ? s + "_" : s;
  }

  /** {@code MLP} as {@code mlp}, {@code Predict} as {@code predict}, {@code add} as it is. */
  private static String lowerFirstWord(String w) {
    if (w.codePoints().noneMatch(Character::isLowerCase)) {
      return w.toLowerCase(java.util.Locale.ROOT);
    }
    int first = w.codePointAt(0);
    return new StringBuilder()
        .appendCodePoint(Character.toLowerCase(first))
        .append(w, Character.charCount(first), w.length())
        .toString();
  }

  /** A keyword, a literal ({@code true}...), or {@code _}: not usable as a name. */
  private static boolean isReserved(String s) {
    return SourceVersion.isKeyword(s) || s.equals("_");
  }

  /**
   * {@code s} made safe for Javadoc and printed as it reads: HTML's special characters, {@code @}
   * (a tag at a line's start), {@code /} (so no {@code *}{@code /} ends the comment), backslashes
   * (so no Unicode escape is read) and every non-ASCII character become character references;
   * control characters become spaces.
   *
   * @param s any text
   * @return the text to put in a Javadoc comment
   */
  public static String javadocText(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (cp < 0x20 || cp == 0x7F) {
        sb.append(' ');
      } else if (cp > 0x7E || "&<>@/\\{}".indexOf(cp) >= 0) {
        sb.append("&#").append(cp).append(';');
      } else {
        sb.appendCodePoint(cp);
      }
    }
    return sb.toString();
  }

  /**
   * {@code s} as Javadoc code: <code>&#123;@code s&#125;</code> when it reads as it is there
   * (ASCII, braces balanced, no comment end, no backslash), else {@link #javadocText} in {@code
   * <code>}.
   *
   * @param s any text, such as a type or a name
   * @return Javadoc markup that shows {@code s} in code font
   */
  public static String javadocCode(String s) {
    int depth = 0;
    boolean plain = !s.contains("*/") && !s.isEmpty();
    for (int i = 0; plain && i < s.length(); i++) {
      char c = s.charAt(i);
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      plain = c >= 0x20 && c < 0x7F && c != '\\' && depth >= 0;
    }
    return plain && depth == 0 ? "{@code " + s + "}" : "<code>" + javadocText(s) + "</code>";
  }
}
