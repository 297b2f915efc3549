package dev.ireestubs.processor.names;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.lang.model.SourceVersion;

/**
 * Allocates identifiers that are valid Java names and unique in their scope: a suggestion as it is
 * when free, else with the next number ({@code element}, {@code element2}, ...), so that thousands
 * of names stay linear to allocate and readable. Seeded with the names the scope must not take.
 */
public final class UniqueNames {

  private final Set<String> outer;
  private final Set<String> taken = new HashSet<>();
  private final Map<String, Integer> next = new HashMap<>();

  /** A scope where {@code reserved} are taken (copied). */
  public UniqueNames(Collection<String> reserved) {
    this(Set.of(), reserved);
  }

  private UniqueNames(Set<String> outer, Collection<String> reserved) {
    this.outer = outer;
    taken.addAll(reserved);
  }

  /**
   * A scope inside {@code outer}, whose names are taken: shared, not copied (a method's locals
   * inside the names of its stub).
   */
  public static UniqueNames inside(Set<String> outer) {
    return new UniqueNames(outer, Set.of());
  }

  /**
   * Takes {@code name} as it is (a parameter's name, which cannot change); true when it was free.
   */
  public boolean reserve(String name) {
    return !outer.contains(name) && taken.add(name);
  }

  /** {@code suggestion} made a valid name, or it with the next free number. */
  public String newName(String suggestion) {
    String base = identifier(suggestion);
    if (reserve(base)) {
      return base;
    }
    int n = next.getOrDefault(base, 2);
    while (!reserve(base + n)) {
      n++;
    }
    next.put(base, n + 1);
    return base + n;
  }

  /** {@code s} as a Java identifier: invalid characters become {@code _}, keywords get one. */
  static String identifier(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          sb.length() == 0 ? Character.isJavaIdentifierStart(c) : Character.isJavaIdentifierPart(c);
      if (!ok && sb.length() == 0 && Character.isJavaIdentifierPart(c)) {
        sb.append('_');
        ok = true;
      }
      sb.append(ok ? c : '_');
    }
    String name = sb.length() == 0 ? "value" : sb.toString();
    return SourceVersion.isKeyword(name) || name.equals("_") ? name + "_" : name;
  }
}
