package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the library is found: property, environment, conventional location; no IREE needed. */
class LibraryLocatorTest {

  @TempDir Path home;

  private LibraryLocator locator(String property, String environment) {
    return new LibraryLocator(
        property, environment, "3.11.0", null, home.toString(), "Linux", "amd64");
  }

  private Path install(String version) throws IOException {
    Path lib =
        home.resolve(
            ".local/share/iree-stubs/iree-runtime/"
                + version
                + "/linux-x86_64/lib/libiree_runtime.so");
    Files.createDirectories(lib.getParent());
    byte[] bytes = {'x'};
    Files.writeString(
        lib.resolveSibling("BUILD-INFO"), NativeJars.buildInfo(version, "linux-x86_64", bytes));
    return Files.write(lib, bytes);
  }

  @Test
  void nothingSetNorInstalledGivesTheCommandThatBuildsIt() {
    for (String blank : new String[] {null, "", "   "}) {
      LibraryLocator locator = locator(blank, blank);
      assertThat(locator.find()).isEmpty();
      IreeLibraryException e = assertThrows(IreeLibraryException.class, locator::require);
      assertThat(e).hasMessageThat().startsWith("no IREE runtime library found");
      assertThat(e).hasMessageThat().contains("system property iree.runtime.library");
      assertThat(e).hasMessageThat().contains("environment variable IREE_RUNTIME_LIBRARY");
      assertThat(e)
          .hasMessageThat()
          .contains(
              "IREE 3.11.0's runtime is not installed at "
                  + home.resolve(".local/share/iree-stubs/iree-runtime/3.11.0")
                      .resolve("linux-x86_64/lib/libiree_runtime.so"));
      assertThat(e)
          .hasMessageThat()
          .contains(
              "with one command from an iree-stubs checkout:"
                  + " runtime-iree/scripts/build-iree-runtime.sh --source /path/to/iree");
      assertThat(e).hasMessageThat().contains("tag v3.11.0");
      assertThat(e).hasMessageThat().contains("ships no IREE binary");
      assertThat(e).hasMessageThat().doesNotContain("installed there");
    }
  }

  @Test
  void theConventionalLocationIsFoundWhenNothingIsSet() throws IOException {
    Path lib = install("3.11.0");
    LibraryLocator.Found found = locator(null, null).require();
    assertThat(found.path()).isEqualTo(lib);
    assertThat(found.source()).isEqualTo("conventional location for IREE 3.11.0 on linux-x86_64");
    assertThat(found.origin()).isEqualTo(IreeLibrary.Origin.CONVENTIONAL_LOCATION);
  }

  @Test
  void propertyWinsOverEnvironmentWhichWinsOverTheConventionalLocation() throws IOException {
    install("3.11.0");
    Path a = Files.writeString(home.resolve("a.so"), "x");
    Path b = Files.writeString(home.resolve("b.so"), "x");
    assertThat(locator(a.toString(), b.toString()).require().path()).isEqualTo(a);
    assertThat(locator("  " + a + " ", null).require().source())
        .isEqualTo("system property iree.runtime.library");
    assertThat(locator(null, b.toString()).require().path()).isEqualTo(b);
    assertThat(locator("", b.toString()).require().source())
        .isEqualTo("environment variable IREE_RUNTIME_LIBRARY");
  }

  @Test
  void theClassPathComesAfterPropertyAndEnvironmentAndBeforeTheConventionalLocation()
      throws IOException {
    Path conventional = install("3.11.0");
    byte[] library = NativeJars.fakeLibrary(100, 1);
    Path jar = NativeJars.write(home.resolve("native.jar"), library);
    Path given = Files.writeString(home.resolve("given.so"), "x");
    try (URLClassLoader loader = NativeJars.loader(jar)) {
      ClassPathLibrary classPath = new ClassPathLibrary(loader, null, null, home.toString());
      LibraryLocator.Found fromJar = withClassPath(null, null, classPath).require();
      assertThat(fromJar.origin()).isEqualTo(IreeLibrary.Origin.CLASS_PATH);
      assertThat(fromJar.path().startsWith(home.resolve(".cache/iree-stubs/iree-runtime")))
          .isTrue();
      assertThat(Files.readAllBytes(fromJar.path())).isEqualTo(library);

      LibraryLocator.Found fromProperty =
          withClassPath(given.toString(), null, classPath).require();
      assertThat(fromProperty.origin()).isEqualTo(IreeLibrary.Origin.SYSTEM_PROPERTY);
      assertThat(fromProperty.path()).isEqualTo(given);
      LibraryLocator.Found fromEnvironment =
          withClassPath(null, given.toString(), classPath).require();
      assertThat(fromEnvironment.origin()).isEqualTo(IreeLibrary.Origin.ENVIRONMENT_VARIABLE);
    }
    try (URLClassLoader empty = NativeJars.loader()) {
      LibraryLocator.Found installed =
          withClassPath(null, null, new ClassPathLibrary(empty, null, null, home.toString()))
              .require();
      assertThat(installed.origin()).isEqualTo(IreeLibrary.Origin.CONVENTIONAL_LOCATION);
      assertThat(installed.path()).isEqualTo(conventional);
    }
  }

  @Test
  void aDamagedNativeJarIsAnErrorNotAFallThrough() throws IOException {
    install("3.11.0"); // present, but the jar on the class path is broken: say so
    Path jar = NativeJars.write(home.resolve("native.jar"), NativeJars.fakeLibrary(100, 2));
    NativeJars.corruptLibraryEntry(jar);
    try (URLClassLoader loader = NativeJars.loader(jar)) {
      LibraryLocator locator =
          withClassPath(null, null, new ClassPathLibrary(loader, null, null, home.toString()));
      IreeLibraryException e = assertThrows(IreeLibraryException.class, locator::find);
      assertThat(e).hasMessageThat().contains("The jar is damaged");
    }
  }

  @Test
  void theNotFoundMessageNamesTheNativeJarAndOnesForOtherPlatforms() throws IOException {
    byte[] library = NativeJars.fakeLibrary(100, 3);
    Path arm =
        NativeJars.write(
            home.resolve("arm.jar"),
            "3.11.0",
            "linux-aarch64",
            library,
            NativeJars.buildInfo("3.11.0", "linux-aarch64", library));
    try (URLClassLoader loader = NativeJars.loader(arm)) {
      LibraryLocator locator =
          withClassPath(null, null, new ClassPathLibrary(loader, null, null, home.toString()));
      assertThat(locator.find()).isEmpty();
      IreeLibraryException e = assertThrows(IreeLibraryException.class, locator::require);
      assertThat(e)
          .hasMessageThat()
          .contains(
              "the class path has no dev.ireestubs:iree-stubs-runtime-iree-native jar for IREE"
                  + " 3.11.0 on linux-x86_64 (it has IREE 3.11.0 for linux-aarch64 ("
                  + arm
                  + "): a native jar holds one release's library for one platform; add the one"
                  + " with classifier linux-x86_64, built on such a machine)");
      assertThat(e)
          .hasMessageThat()
          .contains(
              "then, for a jar to deploy, 'mvn install -pl runtime-iree-native -am' and add"
                  + " dev.ireestubs:iree-stubs-runtime-iree-native with classifier linux-x86_64");
    }
    try (URLClassLoader empty = NativeJars.loader()) {
      String message =
          withClassPath(null, null, new ClassPathLibrary(empty, null, null, home.toString()))
              .notFoundMessage();
      assertThat(message).contains("jar for IREE 3.11.0 on linux-x86_64, and IREE 3.11.0's");
    }
  }

  private LibraryLocator withClassPath(
      String property, String environment, ClassPathLibrary classPath) {
    return new LibraryLocator(
        property, environment, "3.11.0", null, home.toString(), "Linux", "amd64", classPath);
  }

  @Test
  void aMissingFileIsAnErrorNamingWhereItsPathCameFromNotAFallThrough() throws IOException {
    install("3.11.0"); // present, but the explicit setting is wrong: say so
    IreeLibraryException fromProperty =
        assertThrows(
            IreeLibraryException.class,
            () -> locator(home.resolve("nope.so").toString(), null).find());
    assertThat(fromProperty).hasMessageThat().contains("system property iree.runtime.library");
    assertThat(fromProperty).hasMessageThat().contains("nope.so, which does not exist");
    assertThat(fromProperty).hasMessageThat().contains("build-iree-runtime.sh builds one");

    IreeLibraryException fromEnvironment =
        assertThrows(
            IreeLibraryException.class,
            () -> locator(null, home.resolve("gone.so").toString()).find());
    assertThat(fromEnvironment)
        .hasMessageThat()
        .contains("environment variable IREE_RUNTIME_LIBRARY");
    assertThat(fromEnvironment).hasMessageThat().contains("gone.so, which does not exist");
  }

  @Test
  void aDirectoryIsRefused() {
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> locator(home.toString(), null).find());
    assertThat(e).hasMessageThat().contains("which is a directory; name the library file itself");
  }

  @Test
  void otherInstalledReleasesAreNamedWhenTheWantedOneIsMissing() throws IOException {
    install("3.10.0");
    install("3.9.0");
    LibraryLocator locator = locator(null, null);
    assertThat(locator.installedVersions()).containsExactly("3.10.0", "3.9.0");
    IreeLibraryException e = assertThrows(IreeLibraryException.class, locator::require);
    assertThat(e).hasMessageThat().contains("installed there for linux-x86_64: IREE 3.10.0, 3.9.0");
    assertThat(e).hasMessageThat().contains("-Diree.runtime.version=3.9.0");
    assertThat(e).hasMessageThat().contains("a module runs only on a runtime of the release");

    LibraryLocator older =
        new LibraryLocator(null, null, "3.10.0", null, home.toString(), "Linux", "amd64");
    assertThat(older.require().path().toString()).contains("/3.10.0/linux-x86_64/lib/");
  }

  @Test
  void xdgDataHomeIsUsedWhenAbsolute() throws IOException {
    Path data = Files.createDirectories(home.resolve("data"));
    LibraryLocator absolute =
        new LibraryLocator(null, null, "3.11.0", data.toString(), "/nowhere", "Linux", "amd64");
    assertThat(absolute.conventionalPath())
        .isEqualTo(
            data.resolve("iree-stubs/iree-runtime/3.11.0/linux-x86_64/lib/libiree_runtime.so"));
    // The XDG base directory spec says to ignore a relative value.
    LibraryLocator relative =
        new LibraryLocator(null, null, "3.11.0", "data", home.toString(), "Linux", "amd64");
    assertThat(relative.conventionalPath().startsWith(home.resolve(".local/share"))).isTrue();
    LibraryLocator homeless = new LibraryLocator(null, null, "3.11.0", null, null, "Linux", "x");
    assertThat(homeless.conventionalPath()).isNull();
    assertThat(homeless.find()).isEmpty();
    assertThat(homeless.notFoundMessage()).contains("there is no home directory to look in");
  }

  @Test
  void aRelativeHomeIsNoHome() {
    // JDK 25 sets user.home to "?" for a user without a passwd entry and HOME unset; HOME=home
    // gives "home". Either used as a home would look for the library under the working directory.
    for (String relative : new String[] {"?", "home", "./x"}) {
      LibraryLocator locator =
          new LibraryLocator(null, null, "3.11.0", null, relative, "Linux", "amd64");
      assertThat(locator.conventionalPath()).isNull();
      assertThat(locator.find()).isEmpty();
      assertThat(locator.notFoundMessage()).contains("there is no home directory to look in");
      LibraryLocator relativeXdg =
          new LibraryLocator(null, null, "3.11.0", "data", relative, "Linux", "amd64");
      assertThat(relativeXdg.conventionalPath()).isNull();
    }
  }

  @Test
  void theReleaseIsAcceptedOnlyAsAReleaseName() {
    assertThat(LibraryLocator.release(null, null)).isEqualTo(IreeLibrary.IREE_VERSION);
    assertThat(LibraryLocator.release(" 3.12.0rc20260822 ", "3.11.0"))
        .isEqualTo("3.12.0rc20260822");
    for (String bad : new String[] {"../../../../tmp/x", "3.11.0/../../x", "3.11", "/tmp/x"}) {
      IreeLibraryException e =
          assertThrows(IreeLibraryException.class, () -> LibraryLocator.release(bad, null));
      assertThat(e).hasMessageThat().contains("system property iree.runtime.version");
      assertThat(e).hasMessageThat().contains("names no IREE release: '" + bad + "'");
      e = assertThrows(IreeLibraryException.class, () -> LibraryLocator.release(null, bad));
      assertThat(e).hasMessageThat().contains("environment variable IREE_RUNTIME_VERSION");
    }
  }

  @Test
  void anInstalledLibraryWithAByteAppendedIsRefusedNamingBothHashes() throws IOException {
    Path lib = install("3.11.0");
    String recorded = NativeJars.sha256(Files.readAllBytes(lib));
    Files.write(lib, new byte[] {0}, java.nio.file.StandardOpenOption.APPEND);
    String actual = NativeJars.sha256(Files.readAllBytes(lib));
    LibraryLocator.Found found = locator(null, null).require();
    assertThat(found.buildInfo()).isPresent();
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> IreeLibrary.load(found));
    assertThat(e).hasMessageThat().contains("has SHA-256 " + actual + " (2 bytes)");
    assertThat(e).hasMessageThat().contains("its BUILD-INFO records " + recorded + " (1 bytes)");
    assertThat(e).hasMessageThat().contains("nothing was loaded");
  }

  @Test
  void anInstalledLibraryWithoutItsBuildInfoIsRefused() throws IOException {
    Path lib = install("3.11.0");
    Files.writeString(
        lib.resolveSibling("BUILD-INFO"),
        NativeJars.buildInfo("3.10.0", "linux-x86_64", new byte[] {'x'}));
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> locator(null, null).find());
    assertThat(e).hasMessageThat().contains("(it describes IREE 3.10.0 for linux-x86_64)");
    Files.delete(lib.resolveSibling("BUILD-INFO"));
    e = assertThrows(IreeLibraryException.class, () -> locator(null, null).find());
    assertThat(e).hasMessageThat().contains("has no BUILD-INFO beside it that describes it");
    assertThat(e).hasMessageThat().contains("Install it again with " + LibraryLocator.BUILD_SCRIPT);
  }

  @Test
  void anInstallDirectoryOthersMayWriteIsRefused() throws IOException {
    assumeTrue(Libc.uid().isPresent(), "no user ids on this platform");
    Path lib = install("3.11.0");
    Path shared = lib.getParent().getParent(); // .../3.11.0/linux-x86_64
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    IreeLibraryException e =
        assertThrows(IreeLibraryException.class, () -> locator(null, null).find());
    assertThat(e).hasMessageThat().contains("not loaded from under " + shared.toRealPath());
    assertThat(e).hasMessageThat().contains("is writable by others (mode 0777)");
    assertThat(e).hasMessageThat().contains("'chmod go-w " + shared.toRealPath() + "'");
  }

  @Test
  void platformNamesMatchTheBuildScripts() {
    LibraryLocator mac =
        new LibraryLocator(null, null, "3.11.0", null, "/Users/x", "Mac OS X", "aarch64");
    assertThat(mac.platform()).isEqualTo("macos-aarch64");
    assertThat(mac.conventionalPath().toString())
        .endsWith("/iree-stubs/iree-runtime/3.11.0/macos-aarch64/lib/libiree_runtime.dylib");
  }

  @Test
  void theBuildScriptInstallsWhereTheLocatorLooks() throws IOException {
    Path script = Path.of("scripts", "build-iree-runtime.sh");
    String text = Files.readString(script);
    // The same layout and platform names on both sides.
    assertThat(text)
        .contains("PREFIX=\"${PREFIX:-$DATA_HOME/iree-stubs/iree-runtime/$VERSION/$PLATFORM}\"");
    assertThat(text).contains("DATA_HOME=\"${XDG_DATA_HOME:-$HOME/.local/share}\"");
    assertThat(text).contains("Linux) HOST_OS=linux ;;");
    assertThat(text).contains("Darwin) HOST_OS=macos ;;");
    assertThat(text).contains("x86_64|amd64) HOST_ARCH=x86_64 ;;");
    assertThat(text).contains("aarch64|arm64) HOST_ARCH=aarch64 ;;");
    assertThat(text).contains("linux) LIB_NAME=libiree_runtime.so ;;");
    assertThat(text).contains("macos) LIB_NAME=libiree_runtime.dylib ;;");
    assertThat(text).contains("install_file \"$LIB_OUT\" \"$PREFIX/lib\" 755");
    assertThat(text).contains("VERSION=\"" + IreeLibrary.IREE_VERSION + "\"");
  }
}
