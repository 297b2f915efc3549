package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The experiments of issue #41, replayed: another local user must not get code into this process
 * through the library's directories, its temporary file, a swap after the check, the dynamic
 * linker's search path, or a relative home; a named pipe must not hang the loader. The two-user
 * cases act as the user {@value Attacker#UID} with {@code setpriv} (skipped unless root).
 */
class LoadingAttacksTest {

  @TempDir Path dir;

  /** A directory like /tmp: everyone may create entries, only their owner may rename them. */
  private Path sharedTmp() throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path shared = Files.createDirectory(dir.resolve("shared"));
    Files.setAttribute(shared, "unix:mode", 01777);
    return shared;
  }

  @Test
  void aCacheDirectoryTheAttackerMadeBeforehandIsRefused() throws Exception {
    Attacker.assumeAvailable();
    Path shared = sharedTmp();
    Path cache = shared.resolve("cache");
    Path victimFile = Files.writeString(dir.resolve("bashrc"), "the victim's file\n");
    // The attacker makes the cache directory 0777 and plants a link where the library goes.
    Attacker.run("mkdir", "-m", "0777", cache.toString());
    Path planted = cache.resolve("3.11.0/linux-x86_64");
    Attacker.run("mkdir", "-p", "-m", "0777", planted.toString());
    byte[] library = NativeJars.fakeLibrary(1000, 41);
    Attacker.run(
        "ln", "-s", victimFile.toString(), planted.resolve(NativeJars.sha256(library)).toString());

    IreeLibraryException e = refusedFromJar("n.jar", library, cache);
    assertThat(e).hasMessageThat().contains("not loaded from under " + cache + ",");
    assertThat(e)
        .hasMessageThat()
        .contains("belongs to user id " + Attacker.UID + ", not to this user (id 0)");
    assertThat(e).hasMessageThat().contains("-Diree.runtime.cache=DIR");
    assertThat(Files.readString(victimFile)).isEqualTo("the victim's file\n");
  }

  @Test
  void aCacheDirectoryOthersMayWriteIsRefused() throws IOException {
    assumeTrue(Libc.uid().isPresent(), "no user ids on this platform");
    Path cache = Files.createDirectory(dir.resolve("cache"));
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));
    byte[] library = NativeJars.fakeLibrary(1000, 42);
    IreeLibraryException open = refusedFromJar("n.jar", library, cache);
    assertThat(open).hasMessageThat().contains("is writable by others (mode 0777)");
    assertThat(open).hasMessageThat().contains("'chmod go-w " + cache.toRealPath() + "'");
    // A link below the cache root is not followed either.
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwx------"));
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.createSymbolicLink(cache.resolve("3.11.0"), elsewhere);
    IreeLibraryException link = refusedFromJar("m.jar", library, cache);
    assertThat(link).hasMessageThat().contains(cache.resolve("3.11.0") + " is a symbolic link");
  }

  @Test
  void theTemporaryFileIsNeverWrittenThroughALink() throws IOException {
    Path victimFile = Files.writeString(dir.resolve("bashrc"), "the victim's file\n");
    Path temporary = dir.resolve(".libiree_runtime.so.tmp");
    Files.createSymbolicLink(temporary, victimFile);
    assertThrows(FileAlreadyExistsException.class, () -> LibraryExtractor.createNew(temporary));
    assertThat(Files.readString(victimFile)).isEqualTo("the victim's file\n");
  }

  @Test
  void aLibrarySwappedAfterItWasCheckedNeverRunsTheAttackersCode() throws Exception {
    assumeTrue(Libc.canLoadByDescriptor(), "this platform loads by path (see LibraryLoader)");
    Path mark = dir.resolve("mark");
    Path victim = Attacker.library(dir, "victim", mark);
    Path attacker = Attacker.library(dir, "attacker", mark);
    boolean twoUsers =
        Libc.uid().orElse(-1) == 0 && Files.isExecutable(Path.of("/usr/bin/setpriv"));
    // A directory the attacker may write (the loader trusts a path it is given, not its directory).
    Path shared = twoUsers ? sharedTmp() : Files.createDirectory(dir.resolve("shared"));
    Path library = Files.copy(victim, shared.resolve("libiree_runtime.so"));
    Path evil = Files.copy(attacker, shared.resolve("evil.so"));
    if (twoUsers) {
      Files.setAttribute(evil, "unix:uid", Attacker.UID);
      Files.setAttribute(shared, "unix:mode", 0777); // no sticky bit: others may rename
    }
    byte[] bytes = Files.readAllBytes(library);
    BuildInfo info = NativeJars.info(bytes);

    LibraryLoader.Opened opened =
        LibraryLoader.open(
            library.toRealPath(),
            "test",
            IreeLibrary.Origin.GIVEN_PATH,
            Optional.of(info),
            () -> {
              try {
                if (twoUsers) {
                  Attacker.run("mv", "-f", evil.toString(), library.toString());
                } else {
                  Files.move(evil, library, StandardCopyOption.REPLACE_EXISTING);
                }
              } catch (IOException | InterruptedException e) {
                throw new AssertionError(e);
              }
            });
    assertThat(Files.readAllBytes(library)).isNotEqualTo(bytes); // the swap happened
    assertThat(opened.lookup().find("victim_here")).isPresent();
    assertThat(opened.lookup().find("attacker_here")).isEmpty();
    assertThat(Attacker.marks(mark)).containsExactly("victim"); // and its constructor ran once
  }

  @Test
  void aBareNameIsTheFileInTheWorkingDirectoryNotOneOnLdLibraryPath() throws Exception {
    Path mark = dir.resolve("mark");
    Path work = Files.createDirectory(dir.resolve("work"));
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.copy(Attacker.library(dir, "victim", mark), work.resolve("libiree_runtime.so"));
    Files.copy(Attacker.library(dir, "attacker", mark), elsewhere.resolve("libiree_runtime.so"));

    String withPath = loadInAnotherProcess(work, Map.of("LD_LIBRARY_PATH", elsewhere.toString()));
    assertThat(Attacker.marks(mark)).containsExactly("victim");
    // The victim's file was the one loaded: it lacks IREE's symbols.
    assertThat(withPath).contains("libiree_runtime.so lacks");

    Files.delete(mark);
    String without = loadInAnotherProcess(work, Map.of());
    assertThat(Attacker.marks(mark)).containsExactly("victim");
    assertThat(without).doesNotContain("cannot open shared object file");
    assertThat(without).contains("libiree_runtime.so lacks");
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS) // guards the build against a hang; not a measure
  void aNamedPipeIsRefusedWithoutWaitingOnIt() throws Exception {
    Path fifo = dir.resolve("libiree_runtime.so");
    Process mkfifo;
    try {
      mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, "SKIPPED: no mkfifo to make a named pipe (" + e + ")");
      return;
    }
    assertThat(mkfifo.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isEqualTo(0);
    IreeLibraryException e = assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(fifo));
    assertThat(e).hasMessageThat().contains("which is not a regular file");
    // The loader's own check, on the opened descriptor (a pipe put there after the first check).
    e =
        assertThrows(
            IreeLibraryException.class,
            () ->
                LibraryLoader.open(fifo, "test", IreeLibrary.Origin.GIVEN_PATH, Optional.empty()));
    assertThat(e).hasMessageThat().contains("is not a regular file (it is a named pipe)");
  }

  @Test
  void aLibraryOthersMayWriteIsRefused() throws IOException {
    assumeTrue(Libc.uid().isPresent(), "no permissions on this platform");
    Path library = Files.write(dir.resolve("libiree_runtime.so"), new byte[] {1});
    Files.setPosixFilePermissions(library, PosixFilePermissions.fromString("rwxrwxr-x"));
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(library));
    assertThat(e).hasMessageThat().contains("may be written by others (mode 0775)");
    assertThat(e).hasMessageThat().contains("'chmod go-w " + library.toRealPath() + "'");
  }

  @Test
  void librariesLoadedOneAfterTheOtherAreEachOpened() throws Exception {
    // The dynamic linker returns an already loaded library for the same name: each library's
    // /proc/self/fd/N must stay its own while it is loaded.
    Path mark = dir.resolve("mark");
    Path first = Attacker.library(dir, "first", mark);
    Path second = Attacker.library(dir, "second", mark);
    LibraryLoader.Opened a =
        LibraryLoader.open(first, "test", IreeLibrary.Origin.GIVEN_PATH, Optional.empty());
    LibraryLoader.Opened b =
        LibraryLoader.open(second, "test", IreeLibrary.Origin.GIVEN_PATH, Optional.empty());
    assertThat(b.lookup().find("second_here")).isPresent();
    assertThat(a.lookup().find("first_here")).isPresent();
    assertThat(Attacker.marks(mark)).containsExactly("first", "second").inOrder();
  }

  /** Runs {@link LoadInAnotherProcess} with a bare name in {@code work}; its output. */
  /** What extracting {@code library} from a native jar into {@code cache} is refused with. */
  private IreeLibraryException refusedFromJar(String jar, byte[] library, Path cache)
      throws IOException {
    try (URLClassLoader loader = NativeJars.loader(NativeJars.write(dir.resolve(jar), library))) {
      ClassPathLibrary classPath = new ClassPathLibrary(loader, cache.toString(), null, "/root");
      return assertThrows(
          IreeLibraryException.class,
          () -> classPath.find(NativeJars.VERSION, NativeJars.PLATFORM, NativeJars.LIBRARY));
    }
  }

  private static String loadInAnotherProcess(Path work, Map<String, String> environment)
      throws Exception {
    String java = ProcessHandle.current().info().command().orElse(null);
    assumeTrue(java != null, "cannot tell which java runs this test");
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            java,
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            LoadInAnotherProcess.class.getName(),
            "libiree_runtime.so"));
    ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
    builder.environment().remove("LD_LIBRARY_PATH");
    builder.environment().putAll(environment);
    Process p = builder.redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return output;
  }
}
