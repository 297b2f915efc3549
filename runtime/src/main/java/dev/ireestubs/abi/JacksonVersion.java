package dev.ireestubs.abi;

import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.core.json.PackageVersion;

/**
 * Checks, once, that the jackson-core {@link JsonTree} reads with is one it can use: 2.16 or later,
 * whose {@code StreamReadConstraints} has every limit {@link ParseLimits} sets. An application
 * whose dependency management pins an older Jackson (Spring Boot's before 3.3 does, and it decides
 * the version of jackson-core that comes with iree-stubs) would otherwise fail in {@link
 * JsonTree}'s set-up with a {@code NoClassDefFoundError} or {@code NoSuchMethodError} that names no
 * cause.
 *
 * <p>This class touches only jackson-core's {@code PackageVersion}, which its 2.x releases carry,
 * and loads without jackson-core at all; {@link AbiJson} asks it before it touches {@link
 * JsonTree}.
 */
final class JacksonVersion {

  /** The oldest minor version of jackson-core 2 that {@link JsonTree} works with. */
  static final int MINIMUM_MINOR = 16;

  /** What keeps {@link JsonTree} from working with the jackson-core found, or null. */
  static final String PROBLEM = problemFound();

  private JacksonVersion() {}

  /**
   * Returns when {@link JsonTree} can work with the jackson-core found.
   *
   * @throws IllegalStateException saying which was found (or that none was) and what to do
   */
  static void require() {
    if (PROBLEM != null) {
      throw new IllegalStateException(PROBLEM);
    }
  }

  private static String problemFound() {
    Version found;
    try {
      found = PackageVersion.VERSION;
    } catch (LinkageError e) {
      return needed()
          + ", and found none that says its version ("
          + e
          + "); add com.fasterxml.jackson.core:jackson-core 2."
          + MINIMUM_MINOR
          + " or later";
    }
    return problem(found.getMajorVersion(), found.getMinorVersion(), found.toString());
  }

  /** What keeps {@link JsonTree} from working with jackson-core {@code found}, or null. */
  static String problem(int major, int minor, String found) {
    if (major == 2 && minor >= MINIMUM_MINOR) {
      return null;
    }
    return needed()
        + ", and found jackson-core "
        + found
        + ", probably chosen by the build's dependency management (a BOM that pins Jackson, as"
        + " Spring Boot's before 3.3 does); manage com.fasterxml.jackson.core:jackson-core at 2."
        + MINIMUM_MINOR
        + " or later (with Spring Boot, the jackson-bom.version property)";
  }

  private static String needed() {
    return "iree-stubs reads reflection JSON with jackson-core 2." + MINIMUM_MINOR + " or later";
  }
}
