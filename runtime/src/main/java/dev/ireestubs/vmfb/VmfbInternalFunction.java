package dev.ireestubs.vmfb;

import java.util.Objects;
import java.util.Optional;

/**
 * An entry of the {@code internal_functions} table, which modules had until 2021-09 ({@link
 * VmfbSchemaEra#SIGNATURES_WITHOUT_CALLING_CONVENTION_2019}, {@link
 * VmfbSchemaEra#INTERNAL_FUNCTIONS_2020}). Compilers of that time attached reflection to the
 * internal function implementing an export, e.g. {@code f}/{@code fv} on {@code simple_mul$sync}.
 *
 * @param ordinal the index in {@code internal_functions}
 * @param name {@code local_name}; empty when names were stripped
 * @param callingConvention the signature's calling convention (absent before 2020-09, or when the
 *     function has no signature)
 * @param attributes the signature's reflection attributes, in stored order
 */
public record VmfbInternalFunction(
    int ordinal,
    Optional<String> name,
    Optional<String> callingConvention,
    VmfbAttributes attributes) {

  /**
   * Refuses null components (an absent name or calling convention is an empty {@code Optional}).
   *
   * @param ordinal the index in {@code internal_functions}
   * @param name {@code local_name}; empty when names were stripped
   * @param callingConvention the signature's calling convention (absent before 2020-09, or when the
   *     function has no signature)
   * @param attributes the signature's reflection attributes, in stored order
   */
  public VmfbInternalFunction {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(callingConvention, "callingConvention");
    Objects.requireNonNull(attributes, "attributes");
  }
}
