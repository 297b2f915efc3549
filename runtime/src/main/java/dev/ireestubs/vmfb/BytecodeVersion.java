package dev.ireestubs.vmfb;

/**
 * A module's {@code bytecode_version}: stored as {@code (major << 16) | minor}. IREE's runtime
 * loads a module only when the major version equals its own and the minor version is not newer.
 *
 * <p>Observed values: 0.0 (2022-05) through 13.0 (late 2022), 14.0 (2023-02-24, signatures moved to
 * the module-level table), 15.0 (2023-03 .. 2026-01), 16.0 and 17.0 (2026).
 *
 * @param major bits 16..31
 * @param minor bits 0..15
 */
public record BytecodeVersion(int major, int minor) implements Comparable<BytecodeVersion> {

  /**
   * Checks that both parts fit the 16 bits each has in the stored form.
   *
   * @param major bits 16..31
   * @param minor bits 0..15
   */
  public BytecodeVersion {
    if (major < 0 || major > 0xFFFF || minor < 0 || minor > 0xFFFF) {
      throw new IllegalArgumentException(
          "bytecode version parts must be 0..65535, got " + major + "." + minor);
    }
  }

  /**
   * Splits a stored value, e.g. {@code 0x000F0000} is 15.0.
   *
   * @param packed the stored {@code bytecode_version}, major in the high 16 bits
   * @return the version with the two halves as its parts
   */
  public static BytecodeVersion fromPacked(int packed) {
    return new BytecodeVersion(packed >>> 16, packed & 0xFFFF);
  }

  /**
   * The stored form, {@code (major << 16) | minor}.
   *
   * @return the version packed as the module stores it
   */
  public int packed() {
    return (major << 16) | minor;
  }

  @Override
  public int compareTo(BytecodeVersion other) {
    int c = Integer.compare(major, other.major);
    return c != 0 ? c : Integer.compare(minor, other.minor);
  }

  /** {@code major.minor}, e.g. {@code 15.0}. */
  @Override
  public String toString() {
    return major + "." + minor;
  }
}
