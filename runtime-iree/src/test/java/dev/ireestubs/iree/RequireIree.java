package dev.ireestubs.iree;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Integration tests run only when a runtime library is configured ({@code IREE_RUNTIME_LIBRARY}
 * or {@code -Diree.runtime.library}); otherwise they are skipped with a message. A configured
 * library that does not load fails them: that is a broken set-up, not a missing one.
 */
final class RequireIree {
  private RequireIree() {}

  static IreeLibrary library() {
    String property = System.getProperty(IreeLibrary.PROPERTY);
    String environment = System.getenv(IreeLibrary.ENVIRONMENT_VARIABLE);
    if ((property == null || property.isBlank())
        && (environment == null || environment.isBlank())) {
      String message =
          "SKIPPED: IREE_RUNTIME_LIBRARY is not set (nor -Diree.runtime.library): the"
              + " integration tests on IREE's runtime do not run; point it at a shared build of"
              + " IREE v3.11.0's runtime to run them";
      System.out.println(message);
      assumeTrue(false, message);
    }
    return IreeLibrary.load();
  }
}
