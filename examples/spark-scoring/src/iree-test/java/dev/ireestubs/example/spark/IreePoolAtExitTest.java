package dev.ireestubs.example.spark;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.Test;

/**
 * A Spark application that ends without closing anything ({@link ScoreThenExit}, a JVM of its own
 * with Spark's options): at the JVM's end the executor's shutdown hook closes the IREE pool (IREE's
 * contexts, module and device released; runtime-iree's leak tests check that a closed pool frees
 * its memory), after Spark has stopped, and the process exits normally.
 */
class IreePoolAtExitTest {
  private static final Pattern REPORT =
      Pattern.compile(
          "scored=(\\d+) sessions=(\\d+) closes=(\\d+) closed=(\\w+) malloc before=(-?\\d+)"
              + " open=(-?\\d+) after=(-?\\d+)");

  @Test
  void thePoolIsClosedWhenTheApplicationsJvmEnds() throws IOException, InterruptedException {
    LocalSpark.vmfb();
    RequireIree.library();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(JavaModuleOptions.defaultModuleOptionArray()));
    command.add("-Diree.reflection.dir=" + System.getProperty("iree.reflection.dir", ""));
    command.add("-Dlog4j2.configurationFile=" + System.getProperty("log4j2.configurationFile"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ScoreThenExit.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes(); // until the process ends
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String text = new String(output, StandardCharsets.UTF_8);

    assertThat(process.exitValue()).isEqualTo(0);
    Matcher m = REPORT.matcher(text);
    assertWithMessage(text).that(m.find()).isTrue();
    System.out.println("ScoreThenExit: " + m.group());
    assertThat(m.group(1)).isEqualTo("400");
    assertThat(m.group(2)).isEqualTo("2"); // local[2]: a session per task thread
    assertThat(m.group(3)).isEqualTo("1");
    assertThat(m.group(4)).isEqualTo("true");
  }
}
