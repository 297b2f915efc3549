package dev.ireestubs.vmfb;

/**
 * Which revision of IREE's {@code BytecodeModuleDef} schema a module was written with. The schema
 * has no explicit field ids, so every insertion renumbered later fields; these are the layouts that
 * matter for reflection, oldest first. Dates are those of the IREE commits that introduced them.
 *
 * <p>The file identifier is {@code BMOD} until 2021-05-05 and {@code IREE} afterwards ({@link
 * VmfbModule#fileIdentifier()}); it does not change the layout.
 */
public enum VmfbSchemaEra {
  /**
   * 2019-12-19 .. 2020-09-10: exports and {@code internal_functions}; signatures hold argument and
   * result type lists and reflection attributes but no calling convention.
   */
  SIGNATURES_WITHOUT_CALLING_CONVENTION_2019(
      "2019-12", "internal_functions, signatures without calling convention"),
  /**
   * 2020-09-10 .. 2021-09-16: as before, with a calling convention in every signature. Compilers of
   * this era put reflection on the internal function that implements an export (e.g. on {@code
   * simple_mul$sync} for the export {@code simple_mul}).
   */
  INTERNAL_FUNCTIONS_2020("2020-09", "internal_functions, calling conventions"),
  /** 2021-09-16 .. 2022-05-16: the {@code internal_functions} table is gone. */
  NO_INTERNAL_FUNCTIONS_2021("2021-09", "no internal_functions, no bytecode_version"),
  /**
   * 2022-05-16 .. 2022-06-28: {@code bytecode_version} added. From 2022-06-27 signatures drop their
   * argument and result type lists; the reader tells the two apart per signature.
   */
  BYTECODE_VERSION_2022("2022-05", "bytecode_version"),
  /** 2022-06-28 .. 2022-08-08: module-level attributes; {@code AttrDef}. */
  MODULE_ATTRIBUTES_2022("2022-06", "module attrs"),
  /** 2022-08-08 .. 2023-02-24: module version and dependencies; signatures still on exports. */
  DEPENDENCIES_2022("2022-08", "version and dependencies, signature on each export"),
  /**
   * 2023-02-24 onwards (bytecode 14+, still current in 2026): signatures in the module-level {@code
   * function_signatures} table, indexed by each export's {@code internal_ordinal}.
   */
  FUNCTION_SIGNATURES_2023("2023-02", "function_signatures table");

  private final String since;
  private final String summary;

  VmfbSchemaEra(String since, String summary) {
    this.since = since;
    this.summary = summary;
  }

  /**
   * The year and month the layout appeared, e.g. {@code 2023-02}.
   *
   * @return the month, as {@code yyyy-mm}, of the first IREE build that wrote this layout
   */
  public String since() {
    return since;
  }

  /**
   * A short description, e.g. {@code function_signatures table}.
   *
   * @return what sets this layout apart from the one before
   */
  public String summary() {
    return summary;
  }

  /**
   * E.g. {@code 2023-02+ (function_signatures table)}.
   *
   * @return the month and the summary, as the inspector prints the era
   */
  public String displayName() {
    return since + "+ (" + summary + ")";
  }
}
