package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * The C API of the IREE 3.12 line and later (HAL module 0.7), read in the headers of {@code
 * iree-3.12.0rc20260822}: waits take a {@code uint32_t} {@code iree_async_wait_flags_t} (NONE 0,
 * YIELD 1, ACTIVE 2) and a {@code uint8_t} {@code iree_async_wait_mode_t}; {@code
 * iree_hal_semaphore_signal} takes a {@code const iree_async_frontier_t*} (NULL here: no
 * cross-device causality to track); {@code IREE_HAL_SEMAPHORE_FLAG_HOST_INTERRUPT} is bit 1. Every
 * other function iree-stubs calls kept its 3.11 signature, and every struct it lays out its 3.11
 * layout.
 */
final class CApi312 implements CApi {

  @Override
  public String describe() {
    return "IREE 3.12 and later (hal 0.7)";
  }

  @Override
  public long halVersion() {
    return 7;
  }

  /** New in 3.12: the async proactor pool every device runs on, and {@code iree_vm_loop_*}. */
  @Override
  public List<String> markers() {
    return List.of("iree_async_proactor_pool_create", "iree_vm_loop_call");
  }

  /** {@code HOST_INTERRUPT (1 << 1) | EXPORTABLE_TIMEPOINTS (1 << 3)}. */
  @Override
  public long semaphoreFlagsDefault() {
    return (1L << 1) | (1L << 3);
  }

  @Override
  public MethodHandle semaphoreSignal(NativeSymbols symbols) {
    MethodHandle h =
        symbols.bind(
            "iree_hal_semaphore_signal",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    return h == null ? null : MethodHandles.insertArguments(h, 2, MemorySegment.NULL);
  }

  @Override
  public MethodHandle fenceWait(NativeSymbols symbols) {
    MethodHandle h =
        symbols.bind(
            "iree_hal_fence_wait",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, Layouts.TIMEOUT, JAVA_INT));
    return h == null
        ? null
        : MethodHandles.explicitCastArguments(
            h, MethodType.methodType(long.class, long.class, MemorySegment.class, long.class));
  }

  @Override
  public MethodHandle deviceWaitSemaphores(NativeSymbols symbols) {
    MethodHandle h =
        symbols.bind(
            "iree_hal_device_wait_semaphores",
            FunctionDescriptor.of(
                JAVA_LONG,
                JAVA_LONG,
                JAVA_BYTE,
                Layouts.SEMAPHORE_LIST,
                Layouts.TIMEOUT,
                JAVA_INT));
    return h == null
        ? null
        : MethodHandles.explicitCastArguments(
            h,
            MethodType.methodType(
                long.class,
                long.class,
                int.class,
                MemorySegment.class,
                MemorySegment.class,
                long.class));
  }
}
