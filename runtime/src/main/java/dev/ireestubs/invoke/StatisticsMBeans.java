package dev.ireestubs.invoke;

import java.lang.management.ManagementFactory;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers backends' {@link CallStatistics} with the platform MBean server under {@value #DOMAIN},
 * one name per backend ({@code type=CallStatistics,backend=<kind>,id=<n>}, {@code n} counting
 * registrations in this process from 1), and removes each when its backend is closed or, never
 * closed, garbage collected.
 *
 * <p>Only {@link CallRecorder} uses this class, and only when {@link CallRecorder#JMX_AVAILABLE}:
 * loading it on a run time without {@code java.management} (a jlinked image) would fail, since its
 * code names JMX's classes.
 */
final class StatisticsMBeans {

  static final String DOMAIN = "dev.ireestubs";

  private static final AtomicLong IDS = new AtomicLong();

  private StatisticsMBeans() {}

  /** One registered MXBean: {@link #unregister()} removes it, once. */
  static final class Registration {
    private final String name;
    private final Cleaner.Cleanable cleanable;

    Registration(String name, Cleaner.Cleanable cleanable) {
      this.name = name;
      this.cleanable = cleanable;
    }

    String name() {
      return name;
    }

    void unregister() {
      cleanable.clean(); // runs the removal at most once, whoever comes first
    }
  }

  /**
   * Registers {@code statistics}, removed when {@code owner} becomes unreachable or the returned
   * registration is unregistered; null when the server refuses (logged).
   */
  static Registration register(CallStatistics statistics, String backend, Object owner) {
    try {
      // The kinds are plain words (host, iree-session, iree-pool): no quoting needed.
      ObjectName name =
          new ObjectName(
              DOMAIN + ":type=CallStatistics,backend=" + backend + ",id=" + IDS.incrementAndGet());
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      server.registerMBean(statistics, name);
      return new Registration(name.toString(), Cleaners.CLEANER.register(owner, new Removal(name)));
    } catch (JMException | RuntimeException e) {
      System.getLogger(CallRecorder.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "iree-stubs: the call statistics of a "
                  + backend
                  + " backend are not registered"
                  + " as an MXBean: "
                  + e);
      return null;
    }
  }

  /** Removes one name; must not refer to the backend it watches. */
  private record Removal(ObjectName name) implements Runnable {
    @Override
    public void run() {
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
      } catch (InstanceNotFoundException e) {
        // removed by someone else: nothing to do
      } catch (JMException | RuntimeException e) {
        System.getLogger(CallRecorder.class.getName())
            .log(System.Logger.Level.WARNING, "iree-stubs: cannot unregister " + name + ": " + e);
      }
    }
  }

  /** The one cleaner thread, started at the first registration. */
  private static final class Cleaners {
    static final Cleaner CLEANER = Cleaner.create();
  }
}
