package dev.ireestubs.abi;

import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.core.json.PackageVersion;

/**
 * Checks, once, that the jackson-core {@link JsonTree} reads with is one it can use: 2.16 or later,
 * whose {@code StreamReadConstraints} has every limit {@link ParseLimits} sets. An application whose
 * dependency management pins an older Jackson (Spring Boot's before 3.3 does, and it decides the
 * version of jackson-core that comes with iree-stubs) would otherwise fail inside {@link JsonTree}'s
 * set-up with a {@code NoClassDefFoundError} or {@code NoSuchMethodError} that names no cause.
 *
 * <p>This class uses only what every jackson-core 2.x has, so that it loads whatever the version;
 * {@link JsonTree} keeps what needs 2.16 out of its own initialization.
 */
final class JacksonVersion {

  /** The oldest minor version of jackson-core 2 that {@link JsonTree} works with. */
  static final int MINIMUM_MINOR = 16;

  /** What is wrong with the jackson-core on the class path, or null. */
  private static final String PROBLEM = problemOnClassPath();

  private JacksonVersion() {}

  /**
   * Returns when the jackson-core on the class path is one {@link JsonTree} works with.
   *
   * @throws IllegalStateException naming the version found and how to choose another
   */
  static void require() {
    if (PROBLEM != null) {
      throw new IllegalStateException(PROBLEM);
    }
  }

  private static String problemOnClassPath() {
    Version found;
    try {
      found = PackageVersion.VERSION;
    } catch (LinkageError e) {
      return "iree-stubs reads reflection JSON with jackson-core 2."
          + MINIMUM_MINOR
          + " or later, and none is on the class path ("
          + e
          + "); add com.fasterxml.jackson.core:jackson-core";
    }
    return problem(found.getMajorVersion(), found.getMinorVersion(), found.toString());
  }

  /** What is wrong with jackson-core {@code found} (its major and minor version), or null. */
  static String problem(int major, int minor, String found) {
    if (major == 2 && minor >= MINIMUM_MINOR) {
      return null;
    }
    return "iree-stubs reads reflection JSON with jackson-core 2."
        + MINIMUM_MINOR
        + " or later, and the class path has jackson-core "
        + found
        + ", probably chosen by the build's dependency management (a BOM that pins Jackson, as"
        + " Spring Boot's before 3.3 does); manage com.fasterxml.jackson.core:jackson-core at 2."
        + MINIMUM_MINOR
        + " or later (with Spring Boot, the jackson-bom.version property)";
  }
}
