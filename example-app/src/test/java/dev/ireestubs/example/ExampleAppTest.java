package dev.ireestubs.example;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the example app's main flow, so CI keeps what README promises working. */
class ExampleAppTest {

  @Test
  void theMainFlowRunsAndPrintsItsResults() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ExampleApp.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(out);
    assertThat(out).contains("predict(diagonal image): top class ");
    assertThat(out)
        .containsMatch("classifyBatch\\(\\[diagonal, ones, zeros\\]\\) = \\[\\d, \\d, \\d\\]");
    assertThat(out)
        .contains(
            "IreeValueException (ARGUMENT): predict: features.image: expected tensor<1x4x4xf32> but got"
                + " tensor<1x4x5xf32> (dimension 2 is 5, not 4)");
    // The derived client calls the same module: the same top class as the hand-written one.
    assertThat(out)
        .containsMatch(
            "(?s)predict\\(diagonal image\\): top class (\\d).*== derived client.*\n"
                + "predict\\(diagonal image\\): top class \\1\n");
    assertThat(out)
        .contains("add([1, 2, 3, 4], [10, 20, 30, 40]) = [11.000, 22.000, 33.000, 44.000]");
  }

  @Test
  void aJfrRecordingOfTheAppShowsItsCalls(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("example.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("dev.ireestubs.Call");
      recording.start();
      ExampleApp.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> events = new ArrayList<>(RecordingFile.readAllEvents(file));
    events.sort((a, b) -> a.getStartTime().compareTo(b.getStartTime()));
    List<String> calls = new ArrayList<>();
    for (RecordedEvent e : events) {
      if (e.getEventType().getName().equals("dev.ireestubs.Call")) {
        assertThat(e.getString("backend")).isEqualTo("host");
        assertThat(e.getString("outcome")).isEqualTo("ok");
        assertThat(e.getLong("bytesIn")).isGreaterThan(0L);
        calls.add(e.getString("module") + "." + e.getString("function"));
      }
    }
    // The wrong shape is refused by the stub before the backend: no call, no event.
    assertThat(calls)
        .containsExactly(
            "classifier.predict",
            "classifier.embed",
            "classifier.classify_batch",
            "classifier.predict",
            "module.add")
        .inOrder();
  }
}
