package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.host.HostModule;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A run time without {@code java.management} (a jlinked image of {@code java.base} alone) still
 * runs backends: statistics stay readable, no MXBean is registered. Run as a JVM of its own with
 * {@code --limit-modules java.base}, as such an image resolves.
 */
class WithoutJmxTest {

  /** What the child JVM runs: a host module made and called, as on an image without JMX. */
  public static void main(String[] args) {
    try (HostModule module =
        HostModule.builder("module")
            .function(
                "add",
                "{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"]}",
                a -> VmList.of(VmValue.i32(a.getValue(0).asI32() + a.getValue(1).asI32())))
            .build()) {
      int sum =
          module
              .function("module.add")
              .invoke(VmList.of(VmValue.i32(2), VmValue.i32(3)))
              .getValue(0)
              .asI32();
      System.out.println("sum " + sum + ", calls " + module.statistics().getCalls());
    }
  }

  @Test
  void aBackendRunsWithoutJavaManagement() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                List.of(
                    java,
                    "--limit-modules",
                    "java.base",
                    "-cp",
                    System.getProperty("java.class.path"),
                    WithoutJmxTest.class.getName()))
            .redirectErrorStream(true)
            .start();
    boolean ended = child.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      child.destroyForcibly();
    }
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertWithMessage("the child JVM's output:\n%s", output).that(ended).isTrue();
    assertWithMessage("the child JVM's output:\n%s", output).that(child.exitValue()).isEqualTo(0);
    assertWithMessage("the child JVM's output").that(output).contains("sum 5, calls 1");
  }
}
