package dev.ireestubs.vmfb;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a module requires of IREE's HAL module, and so which runtimes can load it. IREE 3.12's HAL
 * module (version 0.7) differs from 3.11's (0.6) in three imports only: {@code
 * hal.command_buffer.dispatch} and {@code .dispatch.indirect} take an {@code i64} function id as
 * their third argument instead of an {@code i32} export ordinal (3.11: {@code
 * 0rriiiiICiDCiirIID_v}, 3.12: {@code 0rrIiiiICiDCiirIID_v}), and {@code
 * hal.executable.lookup.function} ({@code rr_I}) is new; IREE refuses a module whose dependency
 * table asks for a newer HAL than the runtime's. So a module needs 3.12+ when it asks for HAL 0.7
 * or uses the new forms, needs 3.11 or earlier when it dispatches with the old form, and loads on
 * either when it does neither.
 *
 * @param importsHal whether the module imports any {@code hal.*} function
 * @param minimumVersion the dependency table's minimum version for {@code hal} (empty when the
 *     module has no such entry, e.g. layouts before 2022-08)
 * @param dispatchCallingConvention the calling convention of its {@code
 *     hal.command_buffer.dispatch} import, else of its {@code .dispatch.indirect} import (empty
 *     when it has neither, or the layout does not record calling conventions)
 * @param importsLookupFunction whether it imports {@code hal.executable.lookup.function} (HAL 0.7)
 */
public record HalRequirement(
    boolean importsHal,
    OptionalLong minimumVersion,
    Optional<String> dispatchCallingConvention,
    boolean importsLookupFunction) {

  /** The dispatch import whose calling convention tells the generations apart. */
  public static final String DISPATCH_IMPORT = "hal.command_buffer.dispatch";

  /** The indirect dispatch import, changed the same way. */
  public static final String DISPATCH_INDIRECT_IMPORT = "hal.command_buffer.dispatch.indirect";

  /** The import that HAL 0.7 added (cconv {@code rr_I}). */
  public static final String LOOKUP_FUNCTION_IMPORT = "hal.executable.lookup.function";

  /**
   * Refuses null components.
   *
   * @param importsHal whether the module imports any {@code hal.*} function
   * @param minimumVersion the dependency table's minimum version for {@code hal}
   * @param dispatchCallingConvention the calling convention of its dispatch import
   * @param importsLookupFunction whether it imports {@code hal.executable.lookup.function}
   */
  public HalRequirement {
    Objects.requireNonNull(minimumVersion, "minimumVersion");
    Objects.requireNonNull(dispatchCallingConvention, "dispatchCallingConvention");
  }

  /**
   * Reads the requirement from what a module declares.
   *
   * @param dependencies the module's dependency table
   * @param imports the module's imports
   * @return the requirement on {@code hal}
   */
  public static HalRequirement of(List<VmfbDependency> dependencies, List<VmfbImport> imports) {
    OptionalLong minimum = OptionalLong.empty();
    for (VmfbDependency d : dependencies) {
      if (d.name().equals("hal")) {
        minimum = OptionalLong.of(d.minimumVersion());
      }
    }
    boolean importsHal = false;
    boolean lookup = false;
    Optional<String> dispatch = Optional.empty();
    Optional<String> indirect = Optional.empty();
    boolean dispatches = false;
    for (VmfbImport i : imports) {
      importsHal |= i.moduleName().equals("hal");
      lookup |= i.name().equals(LOOKUP_FUNCTION_IMPORT);
      if (i.name().equals(DISPATCH_IMPORT)) {
        dispatch = i.callingConvention();
        dispatches = true;
      } else if (i.name().equals(DISPATCH_INDIRECT_IMPORT)) {
        indirect = i.callingConvention();
        dispatches = true;
      }
    }
    Optional<String> cconv = dispatch.isPresent() ? dispatch : indirect;
    if (dispatches && cconv.isEmpty()) {
      cconv = Optional.of("?"); // it dispatches, but the layout does not say how
    }
    return new HalRequirement(importsHal, minimum, cconv, lookup);
  }

  /**
   * The runtimes that can load the module; see the class comment.
   *
   * @return {@link RuntimeGeneration#IREE_3_12_AND_LATER} for HAL 0.7 or its new imports, {@link
   *     RuntimeGeneration#IREE_3_11_AND_EARLIER} for the old dispatch, {@link
   *     RuntimeGeneration#ANY} for neither, {@link RuntimeGeneration#UNKNOWN} for a HAL newer than
   *     0.7, a dispatch whose form is not recorded, or evidence that contradicts itself
   */
  public RuntimeGeneration generation() {
    long minimum = minimumVersion.orElse(0);
    if (minimum > RuntimeGeneration.IREE_3_12_AND_LATER.halVersion()) {
      return RuntimeGeneration.UNKNOWN;
    }
    RuntimeGeneration byDispatch =
        dispatchCallingConvention.map(HalRequirement::ofDispatch).orElse(RuntimeGeneration.ANY);
    boolean needsNew =
        minimum == RuntimeGeneration.IREE_3_12_AND_LATER.halVersion()
            || importsLookupFunction
            || byDispatch == RuntimeGeneration.IREE_3_12_AND_LATER;
    if (byDispatch == RuntimeGeneration.UNKNOWN
        || (needsNew && byDispatch == RuntimeGeneration.IREE_3_11_AND_EARLIER)) {
      return RuntimeGeneration.UNKNOWN;
    }
    return needsNew ? RuntimeGeneration.IREE_3_12_AND_LATER : byDispatch;
  }

  /**
   * E.g. {@code IREE 3.12+ (hal 0.7)}, {@code IREE ≤ 3.11 (hal 0.6)} or {@code any IREE runtime (no
   * generation-specific HAL imports)}: the generation and, when the module states it, the HAL
   * version it asks for.
   *
   * @return the requirement in words, as {@code inspect}, derived Javadoc and errors print it
   */
  public String describe() {
    RuntimeGeneration g = generation();
    String hal =
        minimumVersion.isPresent()
            ? "hal " + RuntimeGeneration.halVersionName(minimumVersion.getAsLong())
            : "";
    if (g == RuntimeGeneration.ANY) {
      return g.label()
          + " (no generation-specific HAL imports"
          + (hal.isEmpty() ? "" : "; asks for " + hal)
          + ")";
    }
    if (g == RuntimeGeneration.UNKNOWN) {
      return g.label()
          + " ("
          + (hal.isEmpty() ? "" : hal + ", ")
          + "dispatch "
          + dispatchCallingConvention.orElse("none")
          + ")";
    }
    return g.label() + (hal.isEmpty() ? "" : " (" + hal + ")");
  }

  /** The generation a dispatch calling convention belongs to: the type of its third argument. */
  private static RuntimeGeneration ofDispatch(String cconv) {
    // 0 r r i|I ...: the version marker, the command buffer, the executable, then the entry.
    if (cconv.length() < 4 || cconv.charAt(0) != '0') {
      return RuntimeGeneration.UNKNOWN;
    }
    return switch (cconv.charAt(3)) {
      case 'i' -> RuntimeGeneration.IREE_3_11_AND_EARLIER;
      case 'I' -> RuntimeGeneration.IREE_3_12_AND_LATER;
      default -> RuntimeGeneration.UNKNOWN;
    };
  }
}
