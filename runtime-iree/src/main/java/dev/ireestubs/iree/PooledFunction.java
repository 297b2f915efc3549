package dev.ireestubs.iree;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.Map;

/**
 * An exported function of an {@link IreeSessionPool}: the same function in each of its sessions
 * (one {@link IreeFunction} per session, looked up in each), called on whichever session is free.
 * Its name, calling convention, reflection and bytecode types are the first session's, which are
 * every session's (they loaded the same module).
 */
final class PooledFunction implements BackendFunction {

  private final IreeSessionPool pool;
  private final IreeFunction[] bySession;

  PooledFunction(IreeSessionPool pool, IreeFunction[] bySession) {
    this.pool = pool;
    this.bySession = bySession.clone();
  }

  /** The function in session {@code index} of the pool. */
  IreeFunction on(int index) {
    return bySession[index];
  }

  @Override
  public String qualifiedName() {
    return bySession[0].qualifiedName();
  }

  @Override
  public String callingConvention() {
    return bySession[0].callingConvention();
  }

  @Override
  public Map<String, String> reflection() {
    return bySession[0].reflection();
  }

  @Override
  public BytecodeTypes bytecodeTypes() {
    return bySession[0].bytecodeTypes();
  }

  /**
   * Calls the function on a free session of the pool (waiting for one, in turn); see {@link
   * IreeFunction#invoke} for what it returns and throws, and {@link IreeSessionPool} for the wait.
   */
  @Override
  public VmList invoke(VmList arguments) {
    return pool.invoke(this, arguments);
  }

  /**
   * Submits a call on a free session of the pool, which the call holds only while it is submitted;
   * see {@link IreeFunction#invokeAsync}.
   */
  @Override
  public AsyncCall invokeAsync(VmList arguments, Fence wait) {
    return pool.invokeAsync(this, arguments, wait);
  }

  /** E.g. {@code module.add 0rr_r (pool of 4)}. */
  @Override
  public String toString() {
    return bySession[0] + " (pool of " + bySession.length + ")";
  }
}
