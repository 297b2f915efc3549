package dev.ireestubs.derive;

import java.util.HashSet;
import java.util.Set;

/**
 * Hands out names that never collide within one scope: the first request for a name gets it, later
 * ones get {@code name2}, {@code name3}, ... ({@code input0_2} after a digit); reserved names are
 * never handed out as they are.
 */
final class NameAllocator {
  private final Set<String> taken = new HashSet<>();

  /** An allocator with no name taken. */
  NameAllocator() {}

  /**
   * Marks {@code names} as taken.
   *
   * @param names the names no later allocation may return
   * @return this allocator, for chaining
   */
  public NameAllocator reserve(Iterable<String> names) {
    names.forEach(taken::add);
    return this;
  }

  /**
   * Marks {@code names} as taken.
   *
   * @param names the names no later allocation may return
   * @return this allocator, for chaining
   */
  public NameAllocator reserve(String... names) {
    return reserve(Set.of(names));
  }

  /**
   * {@code candidate}, or the first of {@code candidate}, {@code candidate}... still free.
   *
   * @param candidate the name wanted
   * @return a name no earlier call returned or reserved, now taken
   */
  public String allocate(String candidate) {
    String stem =
        !candidate.isEmpty() && Character.isDigit(candidate.charAt(candidate.length() - 1))
            ? candidate + "_"
            : candidate;
    String name = candidate;
    for (int n = 2; taken.contains(name); n++) {
      name = stem + n;
    }
    taken.add(name);
    return name;
  }

  /**
   * Whether {@code name} is taken.
   *
   * @param name the name to look up
   * @return true when it was reserved or allocated
   */
  public boolean isTaken(String name) {
    return taken.contains(name);
  }
}
