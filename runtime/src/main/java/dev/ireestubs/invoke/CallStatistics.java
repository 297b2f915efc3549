package dev.ireestubs.invoke;

import java.util.List;
import javax.management.MXBean;

/**
 * What one backend's calls cost since it was made: how many, how many failed, their total and
 * longest time, and the bytes of array data that went in and came out. Every backend iree-stubs
 * ships keeps them ({@code statistics()} on {@code HostModule}, {@code IreeSession}, {@code
 * IreeSessionPool}) and registers them with the platform MBean server, under {@code
 * dev.ireestubs:type=CallStatistics,backend=<backend>,id=<n>} ({@code n} numbers the backends of
 * the process from 1, so two backends of the same modules never clash), until the backend is closed
 * (or collected, unclosed). The optional {@code iree-stubs-micrometer} artifact publishes the same
 * figures as Micrometer meters.
 *
 * <p>A call counts once it has ended: a synchronous one when it returns or throws, an asynchronous
 * one when its signal fence is reached or fails. A call's time runs from when the backend takes it
 * (before it waits for a session's lock or a pool's free context) to its end. Failures are calls
 * that ended with an exception (arguments refused by the backend's checks included); results
 * refused by a stub after the backend returned them are not counted as failures. Each getter reads
 * a live counter: two getters read one after the other may see a call the other does not.
 */
@MXBean
public interface CallStatistics {

  /**
   * What kind of backend this is: {@code host} (a {@code HostModule}), {@code iree-session} or
   * {@code iree-pool}.
   *
   * @return the backend's kind, as the JFR event {@code dev.ireestubs.Call} names it
   */
  String getBackend();

  /**
   * The device the backend runs on: IREE's HAL driver ({@code local-sync}, {@code local-task}), or
   * {@code java} for a host module.
   *
   * @return the device's name
   */
  String getDevice();

  /**
   * The modules the backend has loaded, by name, in load order.
   *
   * @return the module names now loaded; unmodifiable
   */
  List<String> getModules();

  /**
   * How many calls ended, failed ones included.
   *
   * @return the number of calls since the backend was made
   */
  long getCalls();

  /**
   * How many calls ended with an exception.
   *
   * @return the number of failed calls since the backend was made
   */
  long getFailures();

  /**
   * The time of every call that ended, added up.
   *
   * @return nanoseconds
   */
  long getTotalTimeNanos();

  /**
   * The longest time a call took.
   *
   * @return nanoseconds; 0 before the first call
   */
  long getMaxTimeNanos();

  /**
   * The bytes of array data (buffer views, nested lists included) passed in as arguments.
   *
   * @return bytes, over every call that ended
   */
  long getBytesIn();

  /**
   * The bytes of array data returned as results.
   *
   * @return bytes, over every call that succeeded
   */
  long getBytesOut();
}
