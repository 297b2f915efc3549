package dev.ireestubs.example.spark;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.iree.IreeLibrary;

/** Skips a test with a message when runtime-iree finds no IREE runtime library. */
final class RequireIree {
  private RequireIree() {}

  static void library() {
    boolean found = IreeLibrary.locate().isPresent();
    String message =
        "SKIPPED: no IREE runtime library found (runtime-iree/scripts/build-iree-runtime.sh installs"
            + " it at "
            + IreeLibrary.conventionalPath(IreeLibrary.IREE_VERSION)
            + "): the Spark tests on IREE's runtime do not run";
    if (!found) {
      System.out.println(message);
    }
    assumeTrue(found, message);
  }
}
