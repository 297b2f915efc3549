package dev.ireestubs.iree;

import static dev.ireestubs.iree.NativeSymbols.rethrow;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls for HAL semaphores and fences ({@code iree/hal/semaphore.h}, {@code fence.h}, {@code
 * device.h}'s multi-wait) and for making a status to fail a semaphore with ({@code
 * iree/base/status.h}): what asynchronous calls are built on (iree-runtime-c-api.md, section 5).
 * Handles travel as {@code long}s; callers pass valid ones.
 */
final class FenceCalls {

  /** Exported global holding the {@code hal.fence} ref type; valid once a session exists. */
  static final String FENCE_REGISTRATION = "iree_hal_fence_registration";

  // iree/hal/semaphore.h
  private final MethodHandle semaphoreCreate;
  private final MethodHandle semaphoreRelease;
  private final MethodHandle semaphoreSignal;
  private final MethodHandle semaphoreFail;
  private final MethodHandle semaphoreQuery;

  // iree/hal/fence.h
  private final MethodHandle fenceCreateAt;
  private final MethodHandle fenceRelease;
  private final MethodHandle fenceQuery;
  private final MethodHandle fenceWait;

  // iree/hal/device.h
  private final MethodHandle deviceWaitSemaphores;

  // iree/base/status.h
  private final MethodHandle statusAllocateCopy;

  private final MemorySegment fenceRegistration;
  private final long semaphoreFlagsDefault;

  /**
   * Binds the shared functions from {@code symbols} and the ones whose C signature differs between
   * generations through {@code api}.
   */
  FenceCalls(NativeSymbols symbols, CApi api) {
    semaphoreFlagsDefault = api.semaphoreFlagsDefault();
    semaphoreCreate =
        symbols.bind(
            "iree_hal_semaphore_create",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    semaphoreRelease =
        symbols.bind("iree_hal_semaphore_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    semaphoreSignal = api.semaphoreSignal(symbols);
    semaphoreFail =
        symbols.bind("iree_hal_semaphore_fail", FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_LONG));
    semaphoreQuery =
        symbols.bind(
            "iree_hal_semaphore_query", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
    fenceCreateAt =
        symbols.bind(
            "iree_hal_fence_create_at",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, Layouts.ALLOCATOR, ADDRESS));
    fenceRelease = symbols.bind("iree_hal_fence_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    fenceQuery = symbols.bind("iree_hal_fence_query", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    fenceWait = api.fenceWait(symbols);
    deviceWaitSemaphores = api.deviceWaitSemaphores(symbols);
    statusAllocateCopy =
        symbols.bind(
            "iree_status_allocate_copy",
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_INT, Layouts.STRING_VIEW, JAVA_INT, Layouts.STRING_VIEW));
    fenceRegistration = symbols.findData(FENCE_REGISTRATION);
  }

  /** {@code iree_hal_fence_registration}: the {@code hal.fence} ref type, once a session exists. */
  long fenceRefType() {
    return fenceRegistration.get(JAVA_LONG, 0);
  }

  // ----------------------------------------------------------------------------------------------
  // Semaphores

  /**
   * {@code iree_hal_semaphore_create} with the default flags ({@code
   * IREE_HAL_SEMAPHORE_FLAG_DEFAULT}, whose bits differ between API generations).
   */
  long semaphoreCreate(long device, long queueAffinity, long initialValue, MemorySegment out) {
    try {
      return (long)
          semaphoreCreate.invokeExact(
              device, queueAffinity, initialValue, semaphoreFlagsDefault, out);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void semaphoreRelease(long semaphore) {
    try {
      semaphoreRelease.invokeExact(semaphore);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long semaphoreSignal(long semaphore, long value) {
    try {
      return (long) semaphoreSignal.invokeExact(semaphore, value);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** Fails {@code semaphore} with {@code status}, which IREE takes ownership of. */
  void semaphoreFail(long semaphore, long status) {
    try {
      semaphoreFail.invokeExact(semaphore, status);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long semaphoreQuery(long semaphore, MemorySegment outValue) {
    try {
      return (long) semaphoreQuery.invokeExact(semaphore, outValue);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Fences

  long fenceCreateAt(long semaphore, long value, MemorySegment allocator, MemorySegment out) {
    try {
      return (long) fenceCreateAt.invokeExact(semaphore, value, allocator, out);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void fenceRelease(long fence) {
    try {
      fenceRelease.invokeExact(fence);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** OK when reached, {@code DEFERRED} (a code-only status) when not yet, else the failure. */
  long fenceQuery(long fence) {
    try {
      return (long) fenceQuery.invokeExact(fence);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** Waits for {@code fence}; {@code flags} 0 is the only value every generation reads alike. */
  long fenceWait(long fence, MemorySegment timeout, long flags) {
    try {
      return (long) fenceWait.invokeExact(fence, timeout, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Blocks until the semaphores in {@code list} satisfy {@code mode} (ALL 0, ANY 1), or {@code
   * timeout}; {@code flags} 0 is the only value every generation reads alike.
   */
  long deviceWaitSemaphores(
      long device, int mode, MemorySegment list, MemorySegment timeout, long flags) {
    try {
      return (long) deviceWaitSemaphores.invokeExact(device, mode, list, timeout, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Statuses

  /**
   * A new status of {@code code} carrying {@code message} (copied into the status), the caller's to
   * free or hand over; {@code file} names where it comes from in IREE's formatted text.
   */
  long statusAllocateCopy(int code, MemorySegment file, int line, MemorySegment message) {
    try {
      return (long) statusAllocateCopy.invokeExact(code, file, line, message);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }
}
