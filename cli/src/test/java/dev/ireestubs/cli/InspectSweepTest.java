package dev.ireestubs.cli;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.testing.ByteSweep;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code inspect} on corrupt modules (the single-byte mutations of {@link ByteSweep}): it prints a
 * report, or fails with status 1 and the reader's message; it never dies of another exception.
 * Every finding the runtime's sweep recorded is replayed through the command itself (from a file,
 * as a user runs it), and a seeded sample of mutations through what the command runs on a module
 * (the reader, each export's signature, the derived interface and its source). {@code
 * -Dvmfb.sweep=full} runs every mutation instead of the sample (much slower than the runtime's
 * sweep: each report derives and writes an interface). Skipped with a message when {@code
 * ../shared/iree-reflection} is absent.
 */
class InspectSweepTest {

  /** The mutations {@code mvn verify} checks (each one derives and prints an interface). */
  private static final int SAMPLE = 3_000;

  @Test
  void everyRecordedFindingIsInspectedOrRefused(@TempDir Path tmp) throws Exception {
    Path corpus = SharedData.requireDirectory();
    for (ByteSweep.Mutation m : ByteSweep.findings()) {
      Path file = tmp.resolve(Path.of(m.file()).getFileName().toString());
      Files.write(file, m.apply(corpus));
      CliRun run = CliRun.of("inspect", file.toString());
      int status = run.status();
      String stderr = run.err();
      if (status == Main.OK) {
        assertWithMessage("%s: stdout", m).that(run.out()).contains("Java interface");
      } else {
        assertWithMessage("%s: status", m).that(status).isEqualTo(Main.FAILED);
        assertWithMessage("%s: stderr", m).that(stderr).startsWith(file + ": ");
      }
    }
  }

  @Test
  void everyMutatedModuleIsInspectedOrRefused() throws Exception {
    Path corpus = SharedData.requireDirectory();
    boolean full = System.getProperty("vmfb.sweep", "").equals("full");
    ByteSweep.Plan plan =
        full
            ? ByteSweep.Plan.full(Long.getLong("vmfb.sweep.seed", 35))
            : ByteSweep.Plan.sample(Long.getLong("vmfb.sweep.seed", 35), SAMPLE);

    ByteSweep.Report report =
        ByteSweep.run(corpus, plan, InspectSweepTest::inspect, full ? System.out : null);

    System.out.println("InspectSweepTest: " + report.describe());
    assertWithMessage(report.describe()).that(report.clean()).isTrue();
  }

  /** What {@code inspect} does with a module, from bytes. */
  private static void inspect(byte[] bytes, ByteSweep.Mutation m) {
    VmfbModule module;
    try {
      module = VmfbReader.read(bytes, m.file());
    } catch (VmfbFormatException e) {
      return;
    }
    assertThat(new Inspector(module, "mutated.vmfb").report()).contains("Java interface");
  }
}
