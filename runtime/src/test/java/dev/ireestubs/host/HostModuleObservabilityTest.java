package dev.ireestubs.host;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.VmList;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host module reports its calls as every backend does: statistics readable in code and through
 * the platform MBean server (registered under {@code dev.ireestubs}, unregistered on close or when
 * the module is collected), and one JFR event {@code dev.ireestubs.Call} per call, read back here
 * from a recording.
 */
class HostModuleObservabilityTest {

  private static final FunctionSignature SCALE =
      AbiJson.parseFunction(
          "{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}");

  @TempDir Path dir;

  /**
   * {@code name.scale}: doubles 4 floats (16 bytes each way); a first element of -1 makes it throw,
   * of 1000 makes it sleep 30 ms first. {@code name.scale$async} does the same when {@code gate}
   * completes.
   */
  private static HostModule module(String name, CompletableFuture<Void> gate) {
    return HostModule.builder(name)
        .valueFunction("scale", SCALE, args -> doubled((FloatArray) args.get(0)))
        .asyncValueFunction(
            "scale$async",
            SCALE,
            args -> {
              FloatArray x = (FloatArray) args.get(0);
              return gate.thenApply(ready -> doubled(x));
            })
        .build();
  }

  private static FloatArray doubled(FloatArray x) {
    if (x.getFlat(0) == -1) {
      throw new IllegalStateException("the body refuses -1");
    }
    if (x.getFlat(0) == 1000) {
      sleep(30);
    }
    float[] out = x.toArray();
    for (int i = 0; i < out.length; i++) {
      out[i] *= 2;
    }
    return FloatArray.of(out, 4);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static VmList args(float first) {
    return VmList.of(FloatArray.of(new float[] {first, 2, 3, 4}, 4).asBufferView());
  }

  @Test
  void statisticsCountCallsFailuresTimeAndBytes() {
    try (HostModule m = module("stats", CompletableFuture.completedFuture(null))) {
      var scale = m.function("stats.scale");
      scale.invoke(args(1)).close();
      scale.invoke(args(1000)).close(); // 30 ms
      assertThrows(IreeInvocationException.class, () -> scale.invoke(args(-1)));
      assertThrows(IreeValueException.class, () -> scale.invoke(VmList.of()));

      CallStatistics s = m.statistics();
      assertThat(s.getBackend()).isEqualTo("host");
      assertThat(s.getDevice()).isEqualTo("java");
      assertThat(s.getModules()).containsExactly("stats");
      assertThat(s.getCalls()).isEqualTo(4);
      assertThat(s.getFailures()).isEqualTo(2);
      assertThat(s.getBytesIn()).isEqualTo(3 * 16); // the refused call had no array
      assertThat(s.getBytesOut()).isEqualTo(2 * 16);
      assertThat(s.getMaxTimeNanos()).isAtLeast(TimeUnit.MILLISECONDS.toNanos(30));
      assertThat(s.getTotalTimeNanos()).isAtLeast(s.getMaxTimeNanos());
    }
  }

  @Test
  void anAsynchronousCallCountsWhenItsStageCompletes() {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    try (HostModule m = module("later", gate)) {
      var call = m.function("later.scale$async").invokeAsync(args(1), null);
      assertThat(m.statistics().getCalls()).isEqualTo(0);
      sleep(20);
      gate.complete(null);
      call.results().join().close();
      assertThat(m.statistics().getCalls()).isEqualTo(1);
      assertThat(m.statistics().getBytesOut()).isEqualTo(16);
      assertThat(m.statistics().getMaxTimeNanos()).isAtLeast(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  @Test
  void theStatisticsAreAnMXBeanUnderDevIreestubsUntilTheModuleCloses() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    HostModule first = module("same", CompletableFuture.completedFuture(null));
    HostModule second = module("same", CompletableFuture.completedFuture(null));
    Set<ObjectName> before = server.queryNames(new ObjectName("dev.ireestubs:*"), null);
    ObjectName firstName = nameOf(server, first);
    ObjectName secondName = nameOf(server, second);
    assertThat(firstName).isNotEqualTo(secondName); // same modules, no clash
    assertThat(firstName.getKeyProperty("type")).isEqualTo("CallStatistics");
    assertThat(firstName.getKeyProperty("backend")).isEqualTo("host");
    assertThat(before).containsAtLeast(firstName, secondName);

    first.function("same.scale").invoke(args(1)).close();
    assertThat(server.getAttribute(firstName, "Calls")).isEqualTo(1L);
    assertThat(server.getAttribute(secondName, "Calls")).isEqualTo(0L);
    assertThat(server.getAttribute(firstName, "BytesIn")).isEqualTo(16L);
    assertThat((String[]) server.getAttribute(firstName, "Modules"))
        .asList()
        .containsExactly("same");
    CallStatistics proxy = JMX.newMXBeanProxy(server, firstName, CallStatistics.class);
    assertThat(proxy.getBytesOut()).isEqualTo(16);

    first.close();
    assertThat(server.isRegistered(firstName)).isFalse();
    assertThat(server.isRegistered(secondName)).isTrue();
    second.close();
    second.close(); // twice: nothing more
    assertThat(server.isRegistered(secondName)).isFalse();
  }

  @Test
  void aModuleNeverClosedIsUnregisteredOnceCollected() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = registeredAndDropped(server);
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (server.isRegistered(name) && System.nanoTime() < end) {
      System.gc();
      sleep(50);
    }
    assertThat(server.isRegistered(name)).isFalse();
  }

  private static ObjectName registeredAndDropped(MBeanServer server) throws Exception {
    HostModule m = module("dropped", CompletableFuture.completedFuture(null));
    m.function("dropped.scale").invoke(args(1)).close();
    ObjectName name = nameOf(server, m);
    assertThat(server.isRegistered(name)).isTrue();
    return name;
  }

  private static ObjectName nameOf(MBeanServer server, HostModule m) throws Exception {
    ObjectName name = new ObjectName(m.objectName());
    assertThat(server.isRegistered(name)).isTrue();
    return name;
  }

  @Test
  void eachCallIsAJfrEvent() throws Exception {
    Path file = dir.resolve("calls.jfr");
    CompletableFuture<Void> gate = new CompletableFuture<>();
    try (HostModule m = module("recorded", gate);
        Recording recording = new Recording()) {
      recording.enable("dev.ireestubs.Call").withThreshold(Duration.ZERO);
      recording.start();
      m.function("recorded.scale").invoke(args(1000)).close();
      assertThrows(
          IreeInvocationException.class, () -> m.function("recorded.scale").invoke(args(-1)));
      var async = m.function("recorded.scale$async").invokeAsync(args(1), null);
      gate.complete(null);
      async.results().join().close();
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> events = new ArrayList<>();
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      if (e.getEventType().getName().equals("dev.ireestubs.Call")
          && "recorded".equals(e.getString("module"))) {
        events.add(e);
      }
    }
    assertThat(events).hasSize(3);
    events.sort((a, b) -> a.getStartTime().compareTo(b.getStartTime()));

    RecordedEvent ok = events.get(0);
    assertThat(ok.getString("function")).isEqualTo("scale");
    assertThat(ok.getString("backend")).isEqualTo("host");
    assertThat(ok.getString("device")).isEqualTo("java");
    assertThat(ok.getBoolean("async")).isFalse();
    assertThat(ok.getLong("bytesIn")).isEqualTo(16);
    assertThat(ok.getLong("bytesOut")).isEqualTo(16);
    assertThat(ok.getString("outcome")).isEqualTo("ok");
    assertThat(ok.getString("error")).isNull();
    assertThat(ok.getDuration()).isAtLeast(Duration.ofMillis(30));
    assertThat(ok.getThread().getJavaName()).isEqualTo(Thread.currentThread().getName());

    RecordedEvent failed = events.get(1);
    assertThat(failed.getString("outcome")).isEqualTo("failed");
    assertThat(failed.getString("error")).contains("the body refuses -1");
    assertThat(failed.getLong("bytesOut")).isEqualTo(0);

    RecordedEvent async = events.get(2);
    assertThat(async.getString("function")).isEqualTo("scale$async");
    assertThat(async.getBoolean("async")).isTrue();
    assertThat(async.getString("outcome")).isEqualTo("ok");
    assertThat(async.getLong("bytesOut")).isEqualTo(16);
    assertThat(Files.size(file)).isGreaterThan(0L);
  }
}
