package dev.ireestubs.iree;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vmfb.RuntimeGeneration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The real modules of {@code ../shared/iree-reflection} as the running runtime's generation needs
 * them: a test names the IREE 3.11 module (e.g. {@code vmfb/..._bc17.vmfb}); on a 3.12-line runtime
 * it gets the module's twin in 3.12's format ({@code hal07/..._hal07.vmfb}, ported from it: see
 * that folder's README), and where there is none the test is skipped, saying which generation the
 * module needs. Files that are no modules (parameters, inputs) are what {@link SharedData} gives.
 */
final class Corpus {
  private Corpus() {}

  private static final String TWIN_FOLDER = "hal07/";
  private static final String SUFFIX_3_11 = "_bc17.vmfb";
  private static final String SUFFIX_3_12 = "_hal07.vmfb";

  /** The generation of the runtime the tests run on; 3.11's when none is found or it is unknown. */
  static RuntimeGeneration runtimeGeneration() {
    return RequireIree.library()
        .map(IreeLibrary::generation)
        .filter(g -> g == RuntimeGeneration.IREE_3_12_AND_LATER)
        .orElse(RuntimeGeneration.IREE_3_11_AND_EARLIER);
  }

  /** Whether the tests run on a 3.12-line runtime. */
  static boolean onCurrentGeneration() {
    return runtimeGeneration() == RuntimeGeneration.IREE_3_12_AND_LATER;
  }

  /**
   * The file {@code name} of ../shared/iree-reflection, or, for a 3.11 module on a 3.12-line
   * runtime, its {@code hal07} twin; skips the calling test when the folder or the twin is missing.
   */
  static Path require(String name) {
    if (!name.endsWith(".vmfb") || !onCurrentGeneration()) {
      return SharedData.require(name);
    }
    Optional<String> twin = twinOf(name);
    Path dir = SharedData.requireDirectory();
    if (twin.isEmpty() || !Files.exists(dir.resolve(twin.get()))) {
      String message =
          "SKIPPED on "
              + RequireIree.library().flatMap(IreeLibrary::release).orElse("this runtime")
              + " ("
              + RuntimeGeneration.IREE_3_12_AND_LATER.label()
              + "): "
              + name
              + " was compiled for "
              + RuntimeGeneration.IREE_3_11_AND_EARLIER.label()
              + " (hal 0.6) and has no twin in 3.12's format in ../shared/iree-reflection/"
              + TWIN_FOLDER;
      assumeTrue(false, message);
    }
    return dir.resolve(twin.get());
  }

  /** {@code vmfb/X_bc17.vmfb} or {@code models/X_bc17.vmfb} to {@code hal07/X_hal07.vmfb}. */
  static Optional<String> twinOf(String name) {
    if (!name.endsWith(SUFFIX_3_11) || name.startsWith(TWIN_FOLDER)) {
      return Optional.empty();
    }
    String file = name.substring(name.lastIndexOf('/') + 1);
    return Optional.of(
        TWIN_FOLDER + file.substring(0, file.length() - SUFFIX_3_11.length()) + SUFFIX_3_12);
  }
}
