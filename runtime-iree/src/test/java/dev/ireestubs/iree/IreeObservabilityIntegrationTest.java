package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.iree.models.Iree_Speech;
import dev.ireestubs.iree.models.Speech;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.vm.VmList;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * IREE's backends report their calls: a session's and a pool's statistics, readable in code and as
 * MXBeans through the platform MBean server (unregistered on close; two backends of the same module
 * never clash), and one JFR event per call, read back from a recording: module, function, backend,
 * device, bytes in and out, outcome, and for an asynchronous call the time to its signal fence.
 */
class IreeObservabilityIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  @TempDir Path dir;

  @Test
  void sessionsAndPoolsAreMXBeansUntilClosed() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    IreeSession first = MicroSpeech.session(IREE.runtime(), Device.LOCAL_SYNC);
    IreeSession second = MicroSpeech.session(IREE.runtime(), Device.LOCAL_SYNC);
    IreeSessionPool pool =
        IREE.runtime().newPool(Device.LOCAL_TASK, 2).load(Corpus.require(Speech.FILE));
    ObjectName a = new ObjectName(first.objectName());
    ObjectName b = new ObjectName(second.objectName());
    ObjectName p = new ObjectName(pool.objectName());
    assertThat(a).isNotEqualTo(b); // the same module twice: no clash
    assertThat(a.getKeyProperty("backend")).isEqualTo("iree-session");
    assertThat(p.getKeyProperty("backend")).isEqualTo("iree-pool");
    assertThat(server.queryNames(new ObjectName("dev.ireestubs:type=CallStatistics,*"), null))
        .containsAtLeast(a, b, p);

    try (UByteArray yes = MicroSpeech.yes()) {
      new Iree_Speech(first).tf2onnx(yes).close();
      Speech pooled = new Iree_Speech(pool);
      pooled.tf2onnx(yes).close();
      pooled.tf2onnxAsync(yes).get(30, TimeUnit.SECONDS).close();
    }
    CallStatistics viaJmx = JMX.newMXBeanProxy(server, a, CallStatistics.class);
    assertThat(viaJmx.getCalls()).isEqualTo(1);
    assertThat(viaJmx.getBytesIn()).isEqualTo(1960);
    assertThat(viaJmx.getBytesOut()).isEqualTo(16);
    assertThat(viaJmx.getDevice()).isEqualTo("local-sync");
    assertThat(viaJmx.getModules()).containsExactly("module");
    assertThat(server.getAttribute(b, "Calls")).isEqualTo(0L);
    assertThat(server.getAttribute(p, "Calls")).isEqualTo(2L);
    assertThat(server.getAttribute(p, "Device")).isEqualTo("local-task");
    assertThat(pool.statistics().getBytesOut()).isEqualTo(32);

    first.close();
    pool.close();
    assertThat(server.isRegistered(a)).isFalse();
    assertThat(server.isRegistered(p)).isFalse();
    assertThat(server.isRegistered(b)).isTrue();
    second.close();
    assertThat(server.isRegistered(b)).isFalse();
  }

  @Test
  void eachCallIsAJfrEvent() throws Exception {
    Path file = dir.resolve("calls.jfr");
    try (IreeSessionPool pool =
            IREE.runtime().newPool(Device.LOCAL_SYNC, 2).load(Corpus.require(Speech.FILE));
        IreeSession session = MicroSpeech.session(IREE.runtime(), Device.LOCAL_TASK);
        UByteArray yes = MicroSpeech.yes();
        Recording recording = new Recording()) {
      recording.enable("dev.ireestubs.Call").withThreshold(Duration.ZERO);
      recording.start();
      new Iree_Speech(pool).tf2onnx(yes).close();
      try (FloatArray y = new Iree_Speech(session).tf2onnxAsync(yes).get(30, TimeUnit.SECONDS)) {
        MicroSpeech.assertYes(y);
      }
      assertThrows(
          IreeValueException.class, () -> pool.function("module.tf2onnx").invoke(VmList.of()));
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> events = new ArrayList<>();
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      if (e.getEventType().getName().equals("dev.ireestubs.Call")) {
        events.add(e);
      }
    }
    assertThat(events).hasSize(3);
    events.sort((x, y) -> x.getStartTime().compareTo(y.getStartTime()));

    RecordedEvent sync = events.get(0);
    assertThat(sync.getString("module")).isEqualTo("module");
    assertThat(sync.getString("function")).isEqualTo("tf2onnx");
    assertThat(sync.getString("backend")).isEqualTo("iree-pool");
    assertThat(sync.getString("device")).isEqualTo("local-sync");
    assertThat(sync.getBoolean("async")).isFalse();
    assertThat(sync.getLong("bytesIn")).isEqualTo(1960);
    assertThat(sync.getLong("bytesOut")).isEqualTo(16);
    assertThat(sync.getString("outcome")).isEqualTo("ok");
    assertThat(sync.getDuration()).isGreaterThan(Duration.ZERO);

    RecordedEvent async = events.get(1);
    assertThat(async.getString("function")).isEqualTo("tf2onnx$async");
    assertThat(async.getString("backend")).isEqualTo("iree-session");
    assertThat(async.getString("device")).isEqualTo("local-task");
    assertThat(async.getBoolean("async")).isTrue();
    assertThat(async.getLong("bytesOut")).isEqualTo(16);
    assertThat(async.getString("outcome")).isEqualTo("ok");
    assertThat(async.getDuration()).isGreaterThan(Duration.ZERO);

    RecordedEvent refused = events.get(2);
    assertThat(refused.getString("outcome")).isEqualTo("failed");
    assertThat(refused.getString("error")).contains("module.tf2onnx: arguments");
    assertThat(refused.getString("error")).contains("expected 1 argument");
  }
}
