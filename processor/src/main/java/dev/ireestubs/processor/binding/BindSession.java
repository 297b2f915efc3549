package dev.ireestubs.processor.binding;

import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.diagnostics.Reporter;
import java.util.Objects;

/**
 * What binding one interface shares across its functions: the declaration (with its record table)
 * and where diagnostics go.
 */
final class BindSession {
  private final Declaration declaration;
  private final Reporter report;

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
}
