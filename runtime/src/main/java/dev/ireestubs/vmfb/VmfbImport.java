package dev.ireestubs.vmfb;

import java.util.Objects;
import java.util.Optional;

/**
 * A function the module imports from another module ({@code imported_functions}): IREE resolves it
 * by name when the module is added to a context, and refuses the module when a required import has
 * no provider, e.g. {@code io_parameters.load} without a parameters module.
 *
 * @param name the fully-qualified name, e.g. {@code io_parameters.load} or {@code hal.fence.await}
 * @param callingConvention the expected calling convention, e.g. {@code 0rIrrrIiirrr_r} (read from
 *     modules of the 2023 layout; empty for older ones)
 * @param optional whether the module runs without it (flag {@code OPTIONAL}; IREE from 2023)
 */
public record VmfbImport(String name, Optional<String> callingConvention, boolean optional) {

  /**
   * Refuses null components (an absent calling convention is an empty {@code Optional}).
   *
   * @param name the fully-qualified name, e.g. {@code io_parameters.load} or {@code
   *     hal.fence.await}
   * @param callingConvention the expected calling convention, e.g. {@code 0rIrrrIiirrr_r} (read
   *     from modules of the 2023 layout; empty for older ones)
   * @param optional whether the module runs without it (flag {@code OPTIONAL}; IREE from 2023)
   */
  public VmfbImport {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(callingConvention, "callingConvention");
  }

  /**
   * The module part of the name: {@code io_parameters} for {@code io_parameters.load}.
   *
   * @return the text before the first dot of the name, or the whole name when it has no dot
   */
  public String moduleName() {
    int dot = name.indexOf('.');
    return dot < 0 ? name : name.substring(0, dot);
  }
}
