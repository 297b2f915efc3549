package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * For the tests of issue #41: another local user, and shared libraries whose constructors leave a
 * mark. The attacker is the user {@value #UID} ({@code nobody}), reached with {@code setpriv} from
 * root (as in CI); where the test does not run as root or has no {@code setpriv}, the two-user
 * tests are skipped, saying so. Libraries are compiled at test time with {@code cc} (no binary is
 * committed); without {@code cc} the tests that need one are skipped, saying so.
 */
final class Attacker {
  private Attacker() {}

  /** The attacker's user and group id. */
  static final int UID = 65534;

  /** Skips the test unless commands can run as another user. */
  static void assumeAvailable() {
    String why = null;
    if (Libc.uid().orElse(-1) != 0) {
      why = "the tests do not run as root, so they cannot act as another user";
    } else if (!Files.isExecutable(Path.of("/usr/bin/setpriv"))
        && !Files.isExecutable(Path.of("/bin/setpriv"))) {
      why = "no setpriv to act as another user";
    }
    if (why != null) {
      System.out.println("SKIPPED (two-user case): " + why);
    }
    assumeTrue(why == null, why);
  }

  /** Runs {@code command} as the attacker; fails the test when it fails. */
  static void run(String... command) throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(List.of("setpriv", "--reuid=" + UID, "--regid=" + UID));
    line.add("--clear-groups");
    line.addAll(List.of(command));
    Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(output).isEmpty();
    assertThat(p.exitValue()).isEqualTo(0);
  }

  /**
   * A shared library whose constructor appends {@code who} to {@code mark} and which exports the
   * function {@code who_here}, compiled with {@code cc}; skips the test without {@code cc}.
   */
  static Path library(Path directory, String who, Path mark) throws Exception {
    Path c =
        Files.writeString(
            directory.resolve(who + ".c"),
            "#include <stdio.h>\n"
                + "__attribute__((constructor)) static void mark(void) {\n"
                + "  FILE* f = fopen(\""
                + mark
                + "\", \"a\");\n"
                + "  if (f) { fputs(\""
                + who
                + "\\n\", f); fclose(f); }\n"
                + "}\n"
                + "int "
                + who
                + "_here(void) { return 1; }\n");
    Path so = directory.resolve(who + ".so");
    Process cc;
    try {
      cc =
          new ProcessBuilder("cc", "-shared", "-fPIC", "-o", so.toString(), c.toString())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      String message = "SKIPPED: no cc to compile the test's library (" + e + ")";
      System.out.println(message);
      assumeTrue(false, message);
      throw e;
    }
    String output = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(cc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(output).isEmpty();
    assertThat(cc.exitValue()).isEqualTo(0);
    Files.delete(c);
    return so;
  }

  /** Who left a mark in {@code mark}, in order; empty when nobody did. */
  static List<String> marks(Path mark) throws IOException {
    return Files.exists(mark) ? Files.readAllLines(mark) : List.of();
  }
}
