package dev.ireestubs.example.spark;

import dev.ireestubs.invoke.CallStatistics;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The call statistics every open backend of this JVM registered as an MXBean ({@code
 * dev.ireestubs:type=CallStatistics,...}): what JConsole, a JMX exporter or Spark's own metrics
 * system would read in each executor.
 */
public final class CallStatisticsBeans {
  private CallStatisticsBeans() {}

  /**
   * The statistics of the backends open in this JVM.
   *
   * @return one proxy per registered backend, in name order
   */
  public static List<CallStatistics> inThisJvm() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      List<CallStatistics> all = new ArrayList<>();
      server.queryNames(new ObjectName("dev.ireestubs:type=CallStatistics,*"), null).stream()
          .sorted()
          .forEach(name -> all.add(JMX.newMXBeanProxy(server, name, CallStatistics.class)));
      return all;
    } catch (MalformedObjectNameException e) {
      throw new IllegalStateException(e);
    }
  }
}
