package dev.ireestubs.example;

import static com.google.common.truth.Truth.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Runs the example app's main flow, so CI keeps what README promises working. */
class ExampleAppTest {

  @Test
  void theMainFlowRunsAndPrintsItsResults() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ExampleApp.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(out);
    assertThat(out).contains("predict(diagonal image): top class ");
    assertThat(out).containsMatch("classifyBatch\\(\\[diagonal, ones, zeros\\]\\) = \\[\\d, \\d, \\d\\]");
    assertThat(out)
        .contains(
            "IreeValueException (ARGUMENT): predict: features.image: expected tensor<1x4x4xf32> but got"
                + " tensor<1x4x5xf32> (dimension 2 is 5, not 4)");
    // The derived client calls the same module: the same top class as the hand-written one.
    assertThat(out)
        .containsMatch(
            "(?s)predict\\(diagonal image\\): top class (\\d).*== derived client.*\n"
                + "predict\\(diagonal image\\): top class \\1\n");
    assertThat(out).contains("add([1, 2, 3, 4], [10, 20, 30, 40]) = [11.000, 22.000, 33.000, 44.000]");
  }
}
