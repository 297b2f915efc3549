package dev.ireestubs.host;

import dev.ireestubs.vm.VmList;

/**
 * The body of a function in a {@link HostModule}: takes the VM argument list (already checked
 * against the function's signature) and returns the VM result list (checked after it returns). Must
 * be safe to call from several threads at once if the module is shared between threads.
 *
 * <p><b>Arguments are valid for the call; copy what you keep.</b> An array argument's memory is
 * lent for the call only (see {@link dev.ireestubs.invoke.BackendFunction}): a stub frees the copy
 * it made of a Java array once the call is over. Read a {@link dev.ireestubs.vm.BufferView}
 * argument through {@link dev.ireestubs.vm.BufferView#pin()} (or an array made with {@code
 * NdArray.fromBufferView}, which pins it until closed); returning the argument view itself as a
 * result is fine. A view kept after returning throws {@link IllegalStateException} when used once
 * its memory was freed; the raw bytes of {@link dev.ireestubs.vm.BufferView#data()} stay valid
 * however long they are kept, because taking them leaves the memory to the garbage collector
 * (slower for the caller).
 *
 * <p><b>Results.</b> A result view of an array the function made ({@code out.asBufferView()}) keeps
 * that array's memory until the array is closed, which the function cannot do while the caller
 * reads it; so, unlike a value function's (see {@link DynamicHostFunction}), such memory is left to
 * the garbage collector, unless the function passes it on: {@link
 * dev.ireestubs.ndarray.NdArray#handOver() out.handOver()} after putting the view in the result
 * list gives it to the caller, whose close of the result array frees it.
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
