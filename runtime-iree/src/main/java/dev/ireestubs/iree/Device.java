package dev.ireestubs.iree;

/**
 * Which of IREE's CPU devices a session runs on: the HAL driver passed to {@code
 * iree_runtime_instance_try_create_default_device}. The runtime library must include the driver.
 */
public enum Device {
  /** {@code local-sync}: runs work on the calling thread, synchronously. The default. */
  LOCAL_SYNC("local-sync"),
  /** {@code local-task}: runs work on IREE's own pool of worker threads. */
  LOCAL_TASK("local-task");

  private final String driverName;

  Device(String driverName) {
    this.driverName = driverName;
  }

  /**
   * The HAL driver name, e.g. {@code local-sync}.
   *
   * @return the driver name IREE creates the device with
   */
  public String driverName() {
    return driverName;
  }

  /** The driver name. */
  @Override
  public String toString() {
    return driverName;
  }
}
