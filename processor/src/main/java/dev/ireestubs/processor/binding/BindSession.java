package dev.ireestubs.processor.binding;

import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.declaration.JavaType;
import dev.ireestubs.processor.diagnostics.Reporter;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What binding one interface shares across its functions: the declaration (with its record
 * table), where diagnostics go, and the types met that did not resolve (the interface then waits
 * for a later round instead of being reported).
 */
final class BindSession {
  private final Declaration declaration;
  private final Reporter report;
  private final Set<String> unresolved = new LinkedHashSet<>();

  BindSession(Declaration declaration, Reporter report) {
    this.declaration = Objects.requireNonNull(declaration);
    this.report = Objects.requireNonNull(report);
  }

  Declaration declaration() {
    return declaration;
  }

  Reporter report() {
    return report;
  }

  /** Records that {@code type} did not resolve. */
  void unresolved(JavaType.Unresolved type) {
    unresolved.add(type.name());
  }

  /** The types met that did not resolve, in the order met. */
  Set<String> unresolvedTypes() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(unresolved));
  }
}
