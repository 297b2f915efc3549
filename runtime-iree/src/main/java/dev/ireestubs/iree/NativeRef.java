package dev.ireestubs.iree;

import java.lang.foreign.MemorySegment;

/**
 * The payload of an {@link dev.ireestubs.vm.OpaqueRef} this backend hands out for a result ref it
 * does not convert (a {@code hal.fence}, {@code hal.buffer}, ...): one retained {@code
 * iree_vm_ref_t}, released when the opaque ref is closed. Passing the opaque ref back into a call
 * of the same runtime passes the native ref itself.
 *
 * @param runtime the natives of the runtime whose library made the ref
 * @param ref the 16-byte {@code iree_vm_ref_t}, owned (retained once)
 */
record NativeRef(RuntimeNatives runtime, MemorySegment ref) {}
