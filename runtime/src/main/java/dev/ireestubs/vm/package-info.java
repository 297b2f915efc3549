/**
 * The IREE VM's native types in Java: what generated stubs build and backends consume.
 *
 * <ul>
 *   <li>{@link dev.ireestubs.vm.VmValue}: a primitive value ({@code i8}, {@code i16}, {@code i32},
 *       {@code i64}, {@code f32}, {@code f64}) of a {@link dev.ireestubs.vm.VmValueType}, with the
 *       VM's conversions between widths;
 *   <li>{@link dev.ireestubs.vm.VmList}: a variant list or a typed list whose element type, a
 *       {@link dev.ireestubs.vm.VmTypeDef}, is one value type or one ref type; strings are lists of
 *       {@code i8} (UTF-8);
 *   <li>{@link dev.ireestubs.vm.VmRef}: the refs: {@link dev.ireestubs.vm.BufferView} (element type
 *       as its HAL code, shape, dense row-major bytes in native order), {@code VmList} and {@link
 *       dev.ireestubs.vm.OpaqueRef} (fences, devices, anything a backend hands out); n-d arrays of
 *       refs are the tuple described by {@link dev.ireestubs.vm.VmRefArray}.
 * </ul>
 *
 * <p><b>Resources.</b> Whatever may hold native memory implements {@link
 * dev.ireestubs.vm.VmResource} ({@link AutoCloseable}): {@code OpaqueRef} (its release action),
 * {@code VmList} (closing releases every resource it holds) and a native backend's own refs. The
 * implementations here keep their data in Java memory; a {@code BufferView} over a direct buffer is
 * not a resource. Its memory may be lent ({@link dev.ireestubs.vm.MemoryLease}): freed by its owner
 * (an array's {@code close()}, the end of the call a stub made a copy for) once no reader pins it,
 * else by the garbage collector; readers pin it ({@code BufferView.pin()}, or {@code hold()} for a
 * holder that records the lease itself, as an array made over the view does) while they use it, and
 * taking its raw bytes ({@code data()}) leaves it to the collector.
 *
 * <p><b>Thread safety.</b> Values, type defs and a buffer view's metadata are immutable and
 * thread-safe (a buffer view's bytes are as shared as the buffer it wraps). Lists are mutable and
 * not synchronized, like IREE's: one thread at a time. {@code OpaqueRef} is thread-safe.
 */
package dev.ireestubs.vm;
