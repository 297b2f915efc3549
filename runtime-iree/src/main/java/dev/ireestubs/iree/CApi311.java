package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * The C API of IREE 3.11 and earlier (HAL module 0.6), read in IREE 3.11.0's headers: waits take a
 * {@code uint64_t} {@code iree_hal_wait_flags_t} and an {@code int} {@code iree_hal_wait_mode_t};
 * signals take no frontier; {@code IREE_HAL_SEMAPHORE_FLAG_HOST_INTERRUPT} is bit 2.
 */
final class CApi311 implements CApi {

  @Override
  public String describe() {
    return "IREE 3.11 and earlier (hal 0.6)";
  }

  @Override
  public long halVersion() {
    return 6;
  }

  /**
   * Gone in 3.12: the fence's wait source, and {@code iree_loop_*} (now {@code iree_vm_loop_*}).
   */
  @Override
  public List<String> markers() {
    return List.of("iree_hal_fence_await", "iree_loop_call");
  }

  /** {@code HOST_INTERRUPT (1 << 2) | EXPORTABLE_TIMEPOINTS (1 << 3)}. */
  @Override
  public long semaphoreFlagsDefault() {
    return (1L << 2) | (1L << 3);
  }

  @Override
  public MethodHandle semaphoreSignal(NativeSymbols symbols) {
    return symbols.bind(
        "iree_hal_semaphore_signal", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
  }

  @Override
  public MethodHandle fenceWait(NativeSymbols symbols) {
    return symbols.bind(
        "iree_hal_fence_wait",
        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, Layouts.TIMEOUT, JAVA_LONG));
  }

  @Override
  public MethodHandle deviceWaitSemaphores(NativeSymbols symbols) {
    return symbols.bind(
        "iree_hal_device_wait_semaphores",
        FunctionDescriptor.of(
            JAVA_LONG, JAVA_LONG, JAVA_INT, Layouts.SEMAPHORE_LIST, Layouts.TIMEOUT, JAVA_LONG));
  }
}
