package dev.ireestubs.vmfb;

import java.util.Objects;

/**
 * An entry of a module's dependency table ({@code dependencies}, IREE from 2022-08): a module it
 * needs registered before it, at a minimum version. IREE refuses to load the module when a required
 * dependency is missing or older ({@code required module 'hal' version mismatch; have 6 but require
 * 7}).
 *
 * @param name the module depended on, e.g. {@code hal}
 * @param minimumVersion the lowest version that satisfies it ({@code minimum_version}; IREE's HAL
 *     module is version 6 up to IREE 3.11 and 7 from 3.12)
 * @param optional whether the module loads without it (flag {@code OPTIONAL})
 */
public record VmfbDependency(String name, long minimumVersion, boolean optional) {

  /**
   * Refuses a null name.
   *
   * @param name the module depended on, e.g. {@code hal}
   * @param minimumVersion the lowest version that satisfies it ({@code minimum_version})
   * @param optional whether the module loads without it (flag {@code OPTIONAL})
   */
  public VmfbDependency {
    Objects.requireNonNull(name, "name");
  }
}
