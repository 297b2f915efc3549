package dev.ireestubs.iree;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The native state of one {@link IreeRuntime}, as the layers below the public types receive it: the
 * C API, IREE's instance and its host allocator, the instance's {@link Retention} (held by every
 * session and pool until their native parts are released) and the count of calls closes left on the
 * device. The runtime owns it; nothing here names a session, a pool or the runtime itself.
 *
 * @param api the loaded library's C API
 * @param instance {@code iree_runtime_instance_t*}
 * @param hostAllocator the instance's {@code iree_allocator_t}
 * @param retention releases the instance once its owner closed it and nothing holds it
 * @param stillOnDevice calls of closed sessions and pools the device has not finished
 */
record RuntimeNatives(
    Native api,
    MemorySegment instance,
    MemorySegment hostAllocator,
    Retention retention,
    AtomicInteger stillOnDevice) {

  /** {@code iree_vm_instance_t*} of the runtime instance. */
  MemorySegment vmInstance() {
    return api.parameters().instanceVmInstance(instance);
  }
}
