package dev.ireestubs.vmfb;

/**
 * Which IREE runtimes can load a module, told by the version of IREE's HAL module it was compiled
 * against. IREE 3.12 changed the HAL module from version 0.6 to 0.7 incompatibly ({@code
 * hal.command_buffer.dispatch} takes an {@code i64} function id instead of an {@code i32} export
 * ordinal): a module of one generation does not load on a runtime of the other.
 */
public enum RuntimeGeneration {
  /**
   * The module imports nothing from {@code hal} that differs between HAL 0.6 and 0.7 (and does not
   * ask for 0.7): a 3.11 and a 3.12 runtime both load it.
   */
  ANY("any IREE runtime", -1),
  /** HAL module 0.6 (and earlier): IREE 3.11 and the releases before it. */
  IREE_3_11_AND_EARLIER("IREE ≤ 3.11", 6),
  /** HAL module 0.7: IREE 3.12 and later (3.13, 3.14 share it). */
  IREE_3_12_AND_LATER("IREE 3.12+", 7),
  /**
   * The module asks for a HAL newer than 0.7, dispatches in a form its layout does not record, or
   * its dependency table and imports disagree; as a runtime's generation: a release this code does
   * not know.
   */
  UNKNOWN("an unknown IREE runtime generation", -1);

  private final String label;
  private final long halVersion;

  RuntimeGeneration(String label, long halVersion) {
    this.label = label;
    this.halVersion = halVersion;
  }

  /**
   * The generation whose runtimes register this version of the HAL module.
   *
   * @param halVersion the HAL module's version as IREE numbers it (6 for 0.6, 7 for 0.7)
   * @return {@link #IREE_3_11_AND_EARLIER} up to 6, {@link #IREE_3_12_AND_LATER} for 7, else {@link
   *     #UNKNOWN}
   */
  public static RuntimeGeneration ofHalVersion(long halVersion) {
    if (halVersion >= 0 && halVersion <= IREE_3_11_AND_EARLIER.halVersion) {
      return IREE_3_11_AND_EARLIER;
    }
    return halVersion == IREE_3_12_AND_LATER.halVersion ? IREE_3_12_AND_LATER : UNKNOWN;
  }

  /**
   * E.g. {@code IREE ≤ 3.11} or {@code IREE 3.12+}, as messages and {@code inspect} print it.
   *
   * @return the releases of this generation, in words
   */
  public String label() {
    return label;
  }

  /**
   * The HAL module version of this generation's runtimes (6 or 7), or -1 for {@link #ANY} and
   * {@link #UNKNOWN}.
   *
   * @return the version as IREE numbers it, or -1
   */
  public long halVersion() {
    return halVersion;
  }

  /**
   * Whether a module of this generation loads on a runtime of {@code runtime}'s: the same
   * generation, or a module that needs no HAL, or either side unknown (then IREE decides).
   *
   * @param runtime the generation of the loaded runtime
   * @return false only when both are known HAL generations and differ
   */
  public boolean loadsOn(RuntimeGeneration runtime) {
    if (this == ANY || this == UNKNOWN || runtime == ANY || runtime == UNKNOWN) {
      return true;
    }
    return this == runtime;
  }

  /**
   * A HAL module version as IREE's sources name it: {@code 0.6} for 6, {@code 1.2} for 0x10002.
   *
   * @param version the version number ({@code major << 16 | minor})
   * @return major.minor
   */
  public static String halVersionName(long version) {
    return (version >>> 16) + "." + (version & 0xFFFF);
  }
}
