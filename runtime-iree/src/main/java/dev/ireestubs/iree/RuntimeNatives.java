package dev.ireestubs.iree;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The native state of one {@link IreeRuntime}, as the layers below the public types receive it: the
 * C API, IREE's instance and its host allocator, the instance's {@link Retention} (held by every
 * session and pool until their native parts are released) and the count of calls closes left on the
 * device. The runtime owns it; nothing here names a session, a pool or the runtime itself. One
 * object per runtime: refs of a runtime are recognised by it ({@link NativeRef}).
 */
final class RuntimeNatives {

  private final Native api;
  private final MemorySegment instance;
  private final MemorySegment hostAllocator;
  private final Retention retention;
  private final AtomicInteger stillOnDevice = new AtomicInteger();

  /**
   * @param api the loaded library's C API
   * @param instance {@code iree_runtime_instance_t*}
   * @param hostAllocator the instance's {@code iree_allocator_t}
   * @param retention releases the instance once its owner closed it and nothing holds it
   */
  RuntimeNatives(
      Native api, MemorySegment instance, MemorySegment hostAllocator, Retention retention) {
    this.api = api;
    this.instance = instance;
    this.hostAllocator = hostAllocator;
    this.retention = retention;
  }

  Native api() {
    return api;
  }

  /** {@code iree_runtime_instance_t*}. */
  MemorySegment instance() {
    return instance;
  }

  /** The instance's {@code iree_allocator_t}. */
  MemorySegment hostAllocator() {
    return hostAllocator;
  }

  /** What every session and pool holds until its native parts are released. */
  Retention retention() {
    return retention;
  }

  /** Calls of closed sessions and pools the device has not finished. */
  AtomicInteger stillOnDevice() {
    return stillOnDevice;
  }

  /** {@code iree_vm_instance_t*} of the runtime instance. */
  MemorySegment vmInstance() {
    return api.parameters().instanceVmInstance(instance);
  }
}
