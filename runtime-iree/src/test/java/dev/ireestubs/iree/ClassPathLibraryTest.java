package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The native jar on a class path: found, checked, extracted; no IREE needed. */
class ClassPathLibraryTest {

  @TempDir Path dir;

  private Optional<LibraryLocator.Found> find(URLClassLoader loader) {
    return new ClassPathLibrary(loader, dir.resolve("cache").toString(), null, null)
        .find(NativeJars.VERSION, NativeJars.PLATFORM, NativeJars.LIBRARY);
  }

  @Test
  void theLibraryIsExtractedUnderItsReleasePlatformAndHash() throws IOException {
    byte[] library = NativeJars.fakeLibrary(5000, 1);
    Path jar = NativeJars.write(dir.resolve("native-linux-x86_64.jar"), library);
    try (URLClassLoader loader = NativeJars.loader(jar)) {
      LibraryLocator.Found found = find(loader).orElseThrow();
      assertThat(found.origin()).isEqualTo(IreeLibrary.Origin.CLASS_PATH);
      assertThat(found.path())
          .isEqualTo(
              dir.resolve("cache/3.11.0/linux-x86_64")
                  .resolve(NativeJars.sha256(library))
                  .resolve("libiree_runtime.so"));
      assertThat(Files.readAllBytes(found.path())).isEqualTo(library);
      assertThat(found.source()).startsWith("class path (" + jar + ", IREE commit e4a3b04");
      assertThat(found.source()).endsWith("extracted to " + found.path() + ")");
    }
  }

  @Test
  void anotherBuildOfTheSameReleaseGoesToADirectoryOfItsOwn() throws IOException {
    byte[] one = NativeJars.fakeLibrary(5000, 2);
    byte[] two = NativeJars.fakeLibrary(5000, 3);
    Path first;
    try (URLClassLoader loader = NativeJars.loader(NativeJars.write(dir.resolve("1.jar"), one))) {
      first = find(loader).orElseThrow().path();
    }
    try (URLClassLoader loader = NativeJars.loader(NativeJars.write(dir.resolve("2.jar"), two))) {
      Path second = find(loader).orElseThrow().path();
      assertThat(second.getParent()).isNotEqualTo(first.getParent());
      assertThat(Files.readAllBytes(second)).isEqualTo(two);
    }
    assertThat(Files.readAllBytes(first)).isEqualTo(one); // a process using it keeps it
  }

  @Test
  void noNativeJarIsNothingFound() throws IOException {
    try (URLClassLoader loader = NativeJars.loader()) {
      assertThat(find(loader)).isEmpty();
      assertThat(new ClassPathLibrary(loader, null, null, "/home/x").available()).isEmpty();
    }
  }

  @Test
  void aJarForAnotherPlatformIsNotUsedButListed() throws IOException {
    byte[] library = NativeJars.fakeLibrary(100, 4);
    Path jar =
        NativeJars.write(
            dir.resolve("arm.jar"),
            NativeJars.VERSION,
            "linux-aarch64",
            library,
            NativeJars.buildInfo(NativeJars.VERSION, "linux-aarch64", library));
    try (URLClassLoader loader = NativeJars.loader(jar)) {
      assertThat(find(loader)).isEmpty();
      assertThat(new ClassPathLibrary(loader, null, null, null).available())
          .containsExactly("IREE 3.11.0 for linux-aarch64 (" + jar + ")");
    }
    assertThat(Files.exists(dir.resolve("cache"))).isFalse();
  }

  @Test
  void aLibraryWithoutBuildInfoIsNotLoaded() throws IOException {
    Path jar =
        NativeJars.write(
            dir.resolve("bare.jar"),
            NativeJars.VERSION,
            NativeJars.PLATFORM,
            NativeJars.fakeLibrary(100, 5),
            null);
    try (URLClassLoader loader = NativeJars.loader(jar)) {
      IreeLibraryException e = assertThrows(IreeLibraryException.class, () -> find(loader));
      assertThat(e)
          .hasMessageThat()
          .contains("IREE's runtime library in " + jar + " has no readable BUILD-INFO");
      assertThat(e).hasMessageThat().contains("so it cannot be checked and is not loaded");
      assertThat(e).hasMessageThat().contains("'mvn install -pl runtime-iree-native -am'");
    }
    assertThat(Files.exists(dir.resolve("cache"))).isFalse();
  }

  @Test
  void aBuildInfoForAnotherPlatformIsADamagedJar() throws IOException {
    byte[] library = NativeJars.fakeLibrary(100, 6);
    Path jar =
        NativeJars.write(
            dir.resolve("mixed.jar"),
            NativeJars.VERSION,
            NativeJars.PLATFORM,
            library,
            NativeJars.buildInfo("3.10.0", "macos-aarch64", library));
    try (URLClassLoader loader = NativeJars.loader(jar)) {
      IreeLibraryException e = assertThrows(IreeLibraryException.class, () -> find(loader));
      assertThat(e)
          .hasMessageThat()
          .contains(
              "describes libiree_runtime.so of IREE 3.10.0 for macos-aarch64, but the library's"
                  + " place in the jar is for IREE 3.11.0 on linux-x86_64");
    }
  }

  @Test
  void theCacheDirectoryIsThePropertyElseXdgCacheHomeElseTheHomeCache() {
    ClassLoader none = null;
    assertThat(new ClassPathLibrary(none, " /p ", "/x", "/h").cacheRoot()).isEqualTo(Path.of("/p"));
    assertThat(new ClassPathLibrary(none, "rel", null, null).cacheRoot())
        .isEqualTo(Path.of("rel").toAbsolutePath());
    assertThat(new ClassPathLibrary(none, "", "/x", "/h").cacheRoot())
        .isEqualTo(Path.of("/x/iree-stubs/iree-runtime"));
    // The XDG base directory spec says to ignore a relative value.
    assertThat(new ClassPathLibrary(none, null, "x", "/h").cacheRoot())
        .isEqualTo(Path.of("/h/.cache/iree-stubs/iree-runtime"));
    IreeLibraryException e =
        assertThrows(
            IreeLibraryException.class,
            () -> new ClassPathLibrary(none, null, null, null).cacheRoot());
    assertThat(e).hasMessageThat().contains("no directory to extract it into");
    assertThat(e).hasMessageThat().contains("set -Diree.runtime.cache=DIR");
  }

  @Test
  void anUnwritableCacheNamesTheProperty() throws IOException {
    Path jar = NativeJars.write(dir.resolve("n.jar"), NativeJars.fakeLibrary(100, 7));
    Path blocked = Files.writeString(dir.resolve("blocked"), "a file, not a directory");
    try (URLClassLoader loader = NativeJars.loader(jar)) {
      IreeLibraryException e =
          assertThrows(
              IreeLibraryException.class,
              () ->
                  new ClassPathLibrary(loader, blocked.toString(), null, null)
                      .find(NativeJars.VERSION, NativeJars.PLATFORM, NativeJars.LIBRARY));
      assertThat(e).hasMessageThat().contains("into " + blocked.resolve("3.11.0/linux-x86_64"));
      assertThat(e)
          .hasMessageThat()
          .contains(
              "Make that directory writable by this user, or point -Diree.runtime.cache=DIR (or"
                  + " XDG_CACHE_HOME) at one that is, or extract the library yourself and name it"
                  + " with -Diree.runtime.library=FILE");
    }
  }
}
