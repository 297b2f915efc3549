package dev.ireestubs.processor.names;

import dev.ireestubs.abi.AbiType;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import javax.lang.model.SourceVersion;

/** Name matching for diagnostics and key binding: snake_case to camelCase, nearest names. */
public final class Names {
  private Names() {}

  /**
   * {@code path} inside {@code function}: what follows {@code "function: "} ({@code features.image}
   * of {@code predict: features.image}); null when the path is not under the function's name (or is
   * the name alone).
   */
  public static String insideFunction(String function, String path) {
    if (path.length() > function.length() + 1
        && path.startsWith(function)
        && path.startsWith(": ", function.length())) {
      return path.substring(function.length() + 2);
    }
    return null;
  }

  /**
   * The length of the name a value's path starts with, inside its function: up to the first {@code
   * .} (a component or key) or {@code [} (an element), the parameter the value is part of.
   */
  public static int leadingName(String path) {
    int end = 0;
    while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
      end++;
    }
    return end;
  }

  /** The type-style form of a name: {@code class_ids} becomes {@code ClassIds}. */
  public static String typeName(String name) {
    String camel = AbiType.Dict.camelCase(name);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (sb.length() == 0
          ? Character.isJavaIdentifierStart(c)
          : Character.isJavaIdentifierPart(c)) {
        sb.append(sb.length() == 0 ? Character.toUpperCase(c) : c);
      }
    }
    String s = sb.length() == 0 ? "Value" : sb.toString();
    return SourceVersion.isKeyword(s) ? s + "_" : s;
  }

  /** True when {@code name} can be a Java parameter or component name. */
  public static boolean isJavaName(String name) {
    return SourceVersion.isIdentifier(name) && !SourceVersion.isKeyword(name);
  }

  /** Names longer than this get no nearest-name hint (and cost no quadratic comparison). */
  static final int MAX_HINT_LENGTH = 1_000;

  /**
   * The edit distance between two strings: insertions, deletions, substitutions and swaps of two
   * adjacent characters each count one (optimal string alignment). Memory is linear in the shorter
   * string.
   */
  static int editDistance(String a, String b) {
    int n = a.length();
    int m = b.length();
    int[] previous = new int[m + 1];
    int[] current = new int[m + 1];
    int[] next = new int[m + 1];
    for (int j = 0; j <= m; j++) {
      current[j] = j;
    }
    for (int i = 1; i <= n; i++) {
      int[] before = previous;
      previous = current;
      current = next;
      next = before;
      current[0] = i;
      for (int j = 1; j <= m; j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(previous[j] + 1, current[j - 1] + 1), previous[j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, next[j - 2] + 1);
        }
        current[j] = v;
      }
    }
    return current[m];
  }

  /**
   * The candidate nearest to {@code name} (comparing each candidate, ignoring case, and its
   * camelCase form), when it is close enough to be a likely misspelling: at most about a third of
   * the longer name's length apart, and not a complete rewrite. Ties go to the earliest candidate.
   * Bounded: names over {@link #MAX_HINT_LENGTH} characters get no hint, and a candidate whose
   * length alone puts it no nearer than the best so far is not compared.
   */
  public static Optional<String> nearest(String name, Collection<String> candidates) {
    if (name.length() > MAX_HINT_LENGTH) {
      return Optional.empty();
    }
    String lower = name.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      if (c.length() > MAX_HINT_LENGTH) {
        continue;
      }
      String camel = AbiType.Dict.camelCase(c);
      int bound =
          Math.min(Math.abs(name.length() - c.length()), Math.abs(name.length() - camel.length()));
      if (bound >= bestDistance) {
        continue;
      }
      int d = Math.min(editDistance(lower, c.toLowerCase(Locale.ROOT)), editDistance(name, camel));
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    int longer = Math.max(name.length(), best.length());
    int shorter = Math.min(name.length(), best.length());
    int limit = Math.max(1, (longer + 1) / 3);
    return bestDistance <= limit && bestDistance < shorter ? Optional.of(best) : Optional.empty();
  }
}
