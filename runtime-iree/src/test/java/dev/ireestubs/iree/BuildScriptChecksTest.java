package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Functions of {@code scripts/build-iree-runtime.sh} run on their own with bash (issue #41, item
 * 7): installing never writes through a planted link, and a checkout counts as the pinned release
 * only when git shows every file is the commit's. Skipped without bash or git.
 */
class BuildScriptChecksTest {

  @TempDir Path dir;

  private static final Path SCRIPT = Path.of("scripts", "build-iree-runtime.sh").toAbsolutePath();

  /** Runs the script's functions {@code functions} and then {@code call}; exit code and output. */
  private record Run(int exit, String output) {}

  private Run run(List<String> functions, String call, String... args) throws Exception {
    StringBuilder script = new StringBuilder("set -euo pipefail\n");
    script.append("die() { echo \"DIE: $*\"; exit 1; }\n");
    for (String f : functions) {
      script.append("eval \"$(sed -n '/^").append(f).append("() {/,/^}/p' \"$SCRIPT\")\"\n");
    }
    script.append(call).append('\n');
    List<String> command = new ArrayList<>(List.of("bash", "-c", script.toString(), "bash"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("SCRIPT", SCRIPT.toString());
    Process p;
    try {
      p = builder.start();
    } catch (IOException e) {
      assumeTrue(false, "SKIPPED: no bash (" + e + ")");
      throw e;
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), output);
  }

  private void git(Path repo, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of("git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", "" + repo));
    command.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, "SKIPPED: no git (" + e + ")");
      throw e;
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertWithMessage(output).that(p.exitValue()).isEqualTo(0);
  }

  @Test
  void installingReplacesAPlantedLinkAndWritesNothingThroughIt() throws Exception {
    Path victim = Files.writeString(dir.resolve("bashrc"), "the victim's file\n");
    Path lib = Files.createDirectory(dir.resolve("lib"));
    Path source = Files.writeString(dir.resolve("libiree_runtime.so"), "the library\n");
    Files.createSymbolicLink(lib.resolve("libiree_runtime.so"), victim);
    Run r =
        run(
            List.of("new_temp", "install_file"),
            "install_file \"$1\" \"$2\" 755",
            source.toString(),
            lib.toString());
    assertWithMessage(r.output()).that(r.exit()).isEqualTo(0);
    assertThat(Files.readString(victim)).isEqualTo("the victim's file\n");
    Path installed = lib.resolve("libiree_runtime.so");
    assertThat(Files.isRegularFile(installed, LinkOption.NOFOLLOW_LINKS)).isTrue();
    assertThat(Files.readString(installed)).isEqualTo("the library\n");
    try (var files = Files.list(lib)) {
      assertThat(files.count()).isEqualTo(1); // no temporary file left
    }
    // No predictable temporary name ('.name.tmp.$$') anywhere in the script.
    assertThat(Files.readString(SCRIPT)).doesNotContain(".tmp.$$");
  }

  @Test
  void aCheckoutIsThePinnedCommitOnlyWhenGitShowsEveryFileIsIts() throws Exception {
    Path repo = Files.createDirectory(dir.resolve("iree"));
    git(repo, "init", "-q", "-b", "master");
    Files.writeString(repo.resolve("a.c"), "good\n");
    Files.writeString(repo.resolve("b.c"), "good\n");
    git(repo, "add", ".");
    git(repo, "commit", "-q", "-m", "release");
    List<String> unmodified = List.of("unmodified");
    String call = "unmodified \"$1\" 'the IREE checkout'";
    assertThat(run(unmodified, call, repo.toString()).exit()).isEqualTo(0);

    Files.writeString(repo.resolve("a.c"), "changed\n");
    Run changed = run(unmodified, call, repo.toString());
    assertThat(changed.output()).contains("DIE: the IREE checkout " + repo + " has local changes");

    // git status does not look at a file flagged assume-unchanged (or skip-worktree).
    git(repo, "update-index", "--assume-unchanged", "a.c");
    Run hidden = run(unmodified, call, repo.toString());
    assertThat(hidden.exit()).isEqualTo(1);
    assertThat(hidden.output()).contains("flagged assume-unchanged or skip-worktree: a.c");
    git(repo, "update-index", "--no-assume-unchanged", "a.c");
    git(repo, "checkout", "-q", "a.c");
    git(repo, "update-index", "--skip-worktree", "b.c");
    Files.writeString(repo.resolve("b.c"), "changed\n");
    assertThat(run(unmodified, call, repo.toString()).output()).contains("skip-worktree: b.c");
    git(repo, "update-index", "--no-skip-worktree", "b.c");
    git(repo, "checkout", "-q", "b.c");

    // A replacement object makes the pinned commit read as another tree: it is not used.
    git(repo, "checkout", "-q", "-b", "other");
    Files.writeString(repo.resolve("a.c"), "evil\n");
    git(repo, "commit", "-q", "-am", "evil");
    git(repo, "checkout", "-q", "master");
    git(repo, "replace", "master", "other");
    git(
        repo, "reset", "-q",
        "--hard"); // index and files now the replacement's: plain status is clean
    assertThat(Files.readString(repo.resolve("a.c"))).isEqualTo("evil\n");
    Run replaced = run(unmodified, call, repo.toString());
    assertThat(replaced.output()).contains("has local changes");
  }
}
