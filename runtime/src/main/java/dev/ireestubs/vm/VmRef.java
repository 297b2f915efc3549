package dev.ireestubs.vm;

/**
 * A VM reference object: what travels in a {@code r} slot of a calling convention. Buffer views,
 * lists and opaque objects (fences, devices, anything a backend hands out) are refs.
 */
public interface VmRef {
  /**
   * The VM type name of this ref, as IREE names it: {@code hal.buffer_view}, {@code vm.list},
   * {@code hal.fence}...
   *
   * @return the type name, without the {@code !} MLIR puts before it
   */
  String refTypeName();
}
