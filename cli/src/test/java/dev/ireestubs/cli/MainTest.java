package dev.ireestubs.cli;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's exit statuses and messages, run without {@code System.exit}. */
class MainTest {

  /** One run: its status and what it printed. */
  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        Main.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void noCommandPrintsUsageAndExits2() {
    Run r = run();
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("no command given\n" + Main.USAGE_TEXT);
  }

  @Test
  void unknownCommandPrintsUsageAndExits2() {
    Run r = run("inpsect", "model.vmfb");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("unknown command 'inpsect'\nusage: java -jar ");
  }

  @Test
  void inspectWithoutOneFileExits2() {
    Run none = run("inspect");
    assertThat(none.status()).isEqualTo(2);
    assertThat(none.err())
        .startsWith("inspect takes one file, the module to inspect; got 0 arguments\nusage:");
    Run two = run("inspect", "a.vmfb", "b.vmfb");
    assertThat(two.status()).isEqualTo(2);
    assertThat(two.err()).contains("got 2 arguments");
  }

  @Test
  void helpPrintsUsageToStandardOutput() {
    for (String help : new String[] {"help", "-h", "--help"}) {
      Run r = run(help);
      assertThat(r.status()).isEqualTo(0);
      assertThat(r.out()).isEqualTo(Main.USAGE_TEXT);
      assertThat(r.err()).isEmpty();
    }
  }

  @Test
  void inspectOfANonModulePrintsTheReadersMessageAndExits1(@TempDir Path dir) throws Exception {
    Path text = dir.resolve("notes.vmfb");
    Files.writeString(text, "this is a text file, not a compiled module\n");
    VmfbFormatException expected =
        assertThrows(VmfbFormatException.class, () -> VmfbReader.read(text));

    Run r = run("inspect", text.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(expected.getMessage() + System.lineSeparator());
    assertThat(r.err()).contains(text.toString());
  }

  @Test
  void inspectOfAnEmptyFileExits1(@TempDir Path dir) throws Exception {
    Path empty = Files.createFile(dir.resolve("empty.vmfb"));
    Run r = run("inspect", empty.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith(empty.toString() + ": ");
  }

  @Test
  void inspectOfAMissingFileExits1(@TempDir Path dir) {
    Path missing = dir.resolve("missing.vmfb");
    Run r = run("inspect", missing.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(missing + ": no such file" + System.lineSeparator());
  }

  @Test
  void inspectOfADirectoryExits1(@TempDir Path dir) {
    Run r = run("inspect", dir.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith(dir.toString());
  }
}
