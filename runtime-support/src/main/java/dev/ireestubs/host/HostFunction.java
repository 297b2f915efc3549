package dev.ireestubs.host;

import dev.ireestubs.vm.VmList;

/**
 * The body of a function in a {@link HostModule}: takes the VM argument list (already checked
 * against the function's signature) and returns the VM result list (checked after it returns).
 * Must be safe to call from several threads at once if the module is shared between threads.
 */
@FunctionalInterface
public interface HostFunction {

  /**
   * Runs the function.
   *
   * @param arguments one element per declared argument; do not keep it after returning
   * @return one element per raw result (the children of an inlined {@code sdict}/{@code slist})
   */
  VmList call(VmList arguments);
}
