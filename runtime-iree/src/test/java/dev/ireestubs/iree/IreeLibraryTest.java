package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the library comes from, and the errors when it cannot be used; no IREE needed. */
class IreeLibraryTest {

  @TempDir Path dir;

  @Test
  void aFileThatIsNotALibraryDoesNotLoad() throws IOException {
    // An executable, not a shared library (a text file would do too, but the JVM warns about the
    // stack guard of any non-ELF file it is asked to load).
    Path executable = Path.of("/usr/bin/true");
    assumeTrue(Files.isRegularFile(executable), "no /usr/bin/true to stand in for a non-library");
    Path notALibrary = Files.copy(executable, dir.resolve("libiree_runtime.so"));
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(notALibrary));
    assertThat(e).hasMessageThat().contains("libiree_runtime.so");
    assertThat(e).hasMessageThat().contains("cannot be loaded as a shared library");
    assertThat(e).hasMessageThat().contains("give the path of a shared build of IREE's runtime");
  }

  @Test
  void everyKindOfWrongFileIsAClearError() throws IOException {
    Path text = Files.writeString(dir.resolve("text.so"), "not a library");
    Path empty = Files.write(dir.resolve("empty.so"), new byte[0]);
    assertThat(assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(dir)).getMessage())
        .contains("which is a directory");
    for (Path file : List.of(text, empty)) {
      assertThat(
              assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(file)).getMessage())
          .contains(
              file
                  + " (from the path given to IreeLibrary.load) cannot be loaded as a shared"
                  + " library");
    }
    for (String device : List.of("/dev/null", "/dev/zero")) {
      Path path = Path.of(device);
      assumeTrue(Files.exists(path), "no " + device);
      assertThat(
              assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(path)).getMessage())
          .contains(device + ", which is not a regular file");
    }
  }

  @Test
  void aLibraryWithoutIreeSymbolsNamesWhatIsMissing() {
    Optional<Path> libc = systemLibrary();
    assumeTrue(libc.isPresent(), "no system C library found to stand in for a wrong library");
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(libc.get()));
    String message = e.getMessage();
    assertThat(message).contains("iree_runtime_instance_options_initialize");
    assertThat(message).contains("iree_runtime_instance_create");
    assertThat(message)
        .contains("more. Use a shared build of IREE's runtime that exports its C API");
    Matcher counts = Pattern.compile("lacks (\\d+) of the (\\d+) symbols").matcher(message);
    assertThat(counts.find()).isTrue();
    // Nothing of IREE is in the C library: every symbol is missing.
    assertThat(counts.group(1)).isEqualTo(counts.group(2));
    assertThat(Integer.parseInt(counts.group(1))).isAtLeast(40);
  }

  @Test
  void openWithALibraryThatDoesNotExistFailsBeforeReadingTheModule() {
    IreeBackend.Options options =
        IreeBackend.Options.defaults().withLibrary(dir.resolve("missing.so"));
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class, () -> IreeBackend.open(dir.resolve("model.vmfb"), options));
    assertThat(e).hasMessageThat().contains("path given to IreeLibrary.load");
    assertThat(e).hasMessageThat().contains("missing.so, which does not exist");
  }

  @Test
  void optionsDefaultToLocalSyncAndTheConfiguredLibrary() {
    IreeBackend.Options defaults = IreeBackend.Options.defaults();
    assertThat(defaults.device()).isEqualTo(Device.LOCAL_SYNC);
    assertThat(defaults.library()).isEmpty();
    IreeBackend.Options task = defaults.withDevice(Device.LOCAL_TASK).withLibrary(Path.of("a.so"));
    assertThat(task.device().driverName()).isEqualTo("local-task");
    assertThat(task.library()).hasValue(Path.of("a.so"));
    assertThat(defaults.device()).isEqualTo(Device.LOCAL_SYNC); // immutable
  }

  private static Optional<Path> systemLibrary() {
    for (String candidate :
        List.of(
            "/lib/x86_64-linux-gnu/libc.so.6",
            "/usr/lib/x86_64-linux-gnu/libc.so.6",
            "/lib/aarch64-linux-gnu/libc.so.6",
            "/usr/lib64/libc.so.6",
            "/lib64/libc.so.6",
            "/usr/lib/libSystem.B.dylib")) {
      Path p = Path.of(candidate);
      if (Files.isRegularFile(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
