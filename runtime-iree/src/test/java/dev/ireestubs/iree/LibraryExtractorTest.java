package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extracting a library from a jar: once, concurrently, never a differing file; no IREE needed. */
class LibraryExtractorTest {

  @TempDir Path dir;

  private static final String HOW = "(the remedy)";

  @Test
  void extractsOnceAndReusesTheSameFile() throws IOException {
    byte[] library = NativeJars.fakeLibrary(100_000, 1);
    URL entry = NativeJars.libraryUrl(NativeJars.write(dir.resolve("n.jar"), library));
    Path cache = dir.resolve("cache/3.11.0/linux-x86_64/x");

    Path first = LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW);
    assertThat(first).isEqualTo(cache.resolve("libiree_runtime.so"));
    assertThat(Files.readAllBytes(first)).isEqualTo(library);
    Object inode = Files.readAttributes(first, BasicFileAttributes.class).fileKey();

    Path second = LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW);
    assertThat(second).isEqualTo(first);
    // Not written again: the same file (inode), not a new one renamed over it.
    assertThat(Files.readAttributes(second, BasicFileAttributes.class).fileKey()).isEqualTo(inode);
    assertThat(names(cache)).containsExactly("libiree_runtime.so");
  }

  @Test
  void theExtractedFileIsPrivateAndReadOnly() throws IOException {
    byte[] library = NativeJars.fakeLibrary(1000, 2);
    URL entry = NativeJars.libraryUrl(NativeJars.write(dir.resolve("n.jar"), library));
    Path cache = dir.resolve("cache/a");
    Path file = LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW);
    assumeTrue(
        file.getFileSystem().supportedFileAttributeViews().contains("posix"), "no POSIX here");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("r-x------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)))
        .isEqualTo("rwx------");
  }

  @Test
  void threadsExtractingAtOnceAllGetTheSameCompleteFile() throws Exception {
    byte[] library = NativeJars.fakeLibrary(3_000_000, 3);
    URL entry = NativeJars.libraryUrl(NativeJars.write(dir.resolve("n.jar"), library));
    Path cache = dir.resolve("cache/b");
    int threads = 8;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Path>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  Path p =
                      LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW);
                  // Whatever the others do meanwhile, the returned file is complete and checked.
                  assertThat(NativeJars.sha256(Files.readAllBytes(p)))
                      .isEqualTo(NativeJars.sha256(library));
                  return p;
                }));
      }
      Set<Path> paths = new TreeSet<>();
      for (Future<Path> result : results) {
        paths.add(result.get(60, TimeUnit.SECONDS));
      }
      assertThat(paths).containsExactly(cache.resolve("libiree_runtime.so"));
    } finally {
      pool.shutdownNow();
    }
    assertThat(Files.readAllBytes(cache.resolve("libiree_runtime.so"))).isEqualTo(library);
    assertThat(names(cache)).containsExactly("libiree_runtime.so"); // no temporary file left
  }

  @Test
  void processesExtractingAtOnceAllGetTheSameCompleteFile() throws Exception {
    byte[] library = NativeJars.fakeLibrary(3_000_000, 4);
    Path jar = NativeJars.write(dir.resolve("n.jar"), library);
    Path cache = dir.resolve("cache");
    Path go = dir.resolve("go");
    String java = ProcessHandle.current().info().command().orElse(null);
    assumeTrue(java != null, "cannot tell which java runs this test");
    List<Process> processes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      processes.add(
          new ProcessBuilder(
                  java,
                  "--enable-native-access=ALL-UNNAMED",
                  "-cp",
                  System.getProperty("java.class.path"),
                  ExtractInAnotherProcess.class.getName(),
                  jar.toString(),
                  cache.toString(),
                  go.toString())
              .redirectErrorStream(true)
              .start());
    }
    Files.createFile(go); // all start extracting now
    Path expected =
        cache.resolve("3.11.0/linux-x86_64/" + NativeJars.sha256(library) + "/libiree_runtime.so");
    for (Process process : processes) {
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.exitValue()).isEqualTo(0);
      assertThat(output.strip()).isEqualTo(expected.toString());
    }
    assertThat(Files.readAllBytes(expected)).isEqualTo(library);
    assertThat(names(expected.getParent())).containsExactly("libiree_runtime.so");
  }

  @Test
  void aDifferingFileAlreadyThereIsReplacedNeverUsed() throws IOException {
    byte[] library = NativeJars.fakeLibrary(10_000, 5);
    URL entry = NativeJars.libraryUrl(NativeJars.write(dir.resolve("n.jar"), library));
    Path cache = Files.createDirectories(dir.resolve("cache/c"));
    // The same size, other bytes: only the hash tells them apart.
    Path planted =
        Files.write(cache.resolve("libiree_runtime.so"), NativeJars.fakeLibrary(10_000, 6));
    Path file = LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW);
    assertThat(file).isEqualTo(planted);
    assertThat(Files.readAllBytes(file)).isEqualTo(library);
    // A truncated one too.
    Files.delete(file);
    Files.write(file, new byte[] {1, 2, 3});
    Path again = LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW);
    assertThat(Files.readAllBytes(again)).isEqualTo(library);
  }

  @Test
  void aLibraryWhoseHashIsNotTheRecordedOneIsRefusedAndNothingIsLeft() throws IOException {
    byte[] library = NativeJars.fakeLibrary(10_000, 7);
    byte[] other = NativeJars.fakeLibrary(10_000, 8);
    // The jar's BUILD-INFO describes another file of the same size.
    URL entry =
        NativeJars.libraryUrl(
            NativeJars.write(
                dir.resolve("n.jar"),
                NativeJars.VERSION,
                NativeJars.PLATFORM,
                library,
                NativeJars.buildInfo(NativeJars.VERSION, NativeJars.PLATFORM, other)));
    Path cache = dir.resolve("cache/d");
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class,
            () -> LibraryExtractor.extract(entry, NativeJars.info(other), dir, cache, HOW));
    assertThat(e).hasMessageThat().contains("has SHA-256 " + NativeJars.sha256(library));
    assertThat(e)
        .hasMessageThat()
        .contains("the BUILD-INFO beside it records " + NativeJars.sha256(other));
    assertThat(e).hasMessageThat().contains("the jar is damaged or was altered");
    assertThat(e).hasMessageThat().contains("nothing was loaded");
    assertThat(names(cache)).isEmpty();
  }

  @Test
  void anEntryLongerThanRecordedIsCutShortAndRefused() throws IOException {
    byte[] library = NativeJars.fakeLibrary(200_000, 9);
    byte[] recorded = new byte[1000];
    URL entry =
        NativeJars.libraryUrl(
            NativeJars.write(
                dir.resolve("n.jar"),
                NativeJars.VERSION,
                NativeJars.PLATFORM,
                library,
                NativeJars.buildInfo(NativeJars.VERSION, NativeJars.PLATFORM, recorded)));
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class,
            () ->
                LibraryExtractor.extract(
                    entry, NativeJars.info(recorded), dir, dir.resolve("cache"), HOW));
    assertThat(e).hasMessageThat().contains("(1000 bytes)");
    assertThat(e).hasMessageThat().doesNotContain("200000 bytes");
  }

  @Test
  void aDamagedJarEntryIsAnErrorSayingSo() throws IOException {
    byte[] library = NativeJars.fakeLibrary(10_000, 10);
    Path jar = NativeJars.write(dir.resolve("n.jar"), library);
    NativeJars.corruptLibraryEntry(jar);
    URL entry = NativeJars.libraryUrl(jar);
    Path cache = dir.resolve("cache/e");
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class,
            () -> LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW));
    assertThat(e).hasMessageThat().contains("cannot read IREE's runtime library from " + entry);
    assertThat(e).hasMessageThat().contains("The jar is damaged; fetch or rebuild it");
    assertThat(names(cache)).isEmpty();
  }

  @Test
  void aReadOnlyCacheDirectoryIsAnErrorNamingItAndTheRemedy() throws Exception {
    byte[] library = NativeJars.fakeLibrary(1000, 11);
    URL entry = NativeJars.libraryUrl(NativeJars.write(dir.resolve("n.jar"), library));
    Path cache = Files.createDirectories(dir.resolve("cache/f"));
    try (ReadOnly readOnly = ReadOnly.make(cache)) {
      IreeLibraryException e =
          assertThrows(
              IreeLibraryException.class,
              () -> LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW));
      assertThat(e)
          .hasMessageThat()
          .contains("cannot extract IREE's runtime library from the class path into " + cache);
      assertThat(e).hasMessageThat().endsWith(HOW);
    }
    assertThat(names(cache)).isEmpty();
  }

  @Test
  void aReadOnlyCacheDirectoryThatHoldsTheRightFileIsUsed() throws Exception {
    byte[] library = NativeJars.fakeLibrary(1000, 12);
    URL entry = NativeJars.libraryUrl(NativeJars.write(dir.resolve("n.jar"), library));
    Path cache = dir.resolve("cache/g");
    Path file = LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW);
    try (ReadOnly readOnly = ReadOnly.make(cache)) {
      assertThat(LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW))
          .isEqualTo(file);
    }
  }

  @Test
  void aFileInThePlaceOfTheCacheDirectoryIsAnError() throws IOException {
    byte[] library = NativeJars.fakeLibrary(1000, 13);
    URL entry = NativeJars.libraryUrl(NativeJars.write(dir.resolve("n.jar"), library));
    Path file = Files.writeString(dir.resolve("cache"), "not a directory");
    Path cache = file.resolve("3.11.0/linux-x86_64/abc");
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class,
            () -> LibraryExtractor.extract(entry, NativeJars.info(library), dir, cache, HOW));
    assertThat(e).hasMessageThat().contains("into " + cache);
    assertThat(e).hasMessageThat().contains(file + " is not a directory");
  }

  private static List<String> names(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * Makes a directory unwritable for this test: its permissions, and where the test runs as root
   * (whom permissions do not stop) the immutable attribute ({@code chattr +i}); skips the test when
   * neither stops a write.
   */
  private static final class ReadOnly implements AutoCloseable {
    private final Path directory;
    private final boolean immutable;

    private ReadOnly(Path directory, boolean immutable) {
      this.directory = directory;
      this.immutable = immutable;
    }

    static ReadOnly make(Path directory) throws Exception {
      assumeTrue(
          directory.getFileSystem().supportedFileAttributeViews().contains("posix"),
          "no POSIX permissions here");
      Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("r-x------"));
      if (!canWrite(directory)) {
        return new ReadOnly(directory, false);
      }
      boolean immutable = chattr("+i", directory) && !canWrite(directory);
      ReadOnly made = new ReadOnly(directory, immutable);
      if (!immutable) {
        made.close();
        assumeTrue(false, "SKIPPED: cannot make " + directory + " read-only for this user");
      }
      return made;
    }

    private static boolean canWrite(Path directory) {
      try {
        Files.delete(Files.createTempFile(directory, "probe", ".tmp"));
        return true;
      } catch (IOException e) {
        return false;
      }
    }

    private static boolean chattr(String flag, Path directory) {
      try {
        Process p =
            new ProcessBuilder("chattr", flag, directory.toString())
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
      } catch (IOException | InterruptedException e) {
        return false;
      }
    }

    @Override
    public void close() throws IOException {
      if (immutable) {
        chattr("-i", directory);
      }
      Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
    }
  }
}
