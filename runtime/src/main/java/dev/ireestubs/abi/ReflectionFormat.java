package dev.ireestubs.abi;

/** The reflection formats IREE has emitted, each parsed into a {@link FunctionSignature}. */
public enum ReflectionFormat {
  /** The {@code iree.abi} JSON, {@code {"a":[...],"r":[...],"v":1}} (2021-06 .. 2023). */
  IREE_ABI_JSON("iree.abi JSON"),
  /** The {@code iree.abi.declaration} text of every compiler since 2023-12. */
  DECLARATION("iree.abi.declaration"),
  /**
   * The types a function's bytecode states: the element types and dims it asserts of each argument
   * ({@code hal.buffer_view.assert}) and gives each result ({@code hal.buffer_view.create}), and
   * which refs are fences (see {@link BytecodeTypes}).
   */
  BYTECODE("bytecode"),
  /** The calling-convention string every export carries, e.g. {@code 0rr_r}. */
  CALLING_CONVENTION("calling convention"),
  /** The deprecated V0 raw function signature, reflection key {@code f} (2019 .. 2021-06). */
  V0_RAW("V0 raw signature (f)"),
  /** The deprecated V0 structured index path signature, reflection key {@code sip}. */
  V0_SIP("V0 SIP signature (sip)");

  private final String displayName;

  ReflectionFormat(String displayName) {
    this.displayName = displayName;
  }

  /**
   * How error messages name the format.
   *
   * @return the format's name, such as {@code iree.abi JSON}
   */
  public String displayName() {
    return displayName;
  }

  @Override
  public String toString() {
    return displayName;
  }
}
