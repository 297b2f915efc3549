package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The platform names of other machines, simulated by their {@code os.name} and {@code os.arch} as
 * their JVMs report them: the directory the build script installs into and the classifier of the
 * native jar to add (os-maven-plugin's {@code ${os.detected.classifier}}).
 */
class NativePlatformTest {

  @ParameterizedTest(name = "{0} / {1}")
  @CsvSource({
    // os.name, os.arch, directory, classifier, library
    "Linux, amd64, linux-x86_64, linux-x86_64, libiree_runtime.so",
    "Linux, aarch64, linux-aarch64, linux-aarch_64, libiree_runtime.so",
    "Mac OS X, aarch64, macos-aarch64, osx-aarch_64, libiree_runtime.dylib",
    "Mac OS X, x86_64, macos-x86_64, osx-x86_64, libiree_runtime.dylib",
    "Darwin, arm64, macos-aarch64, osx-aarch_64, libiree_runtime.dylib",
    "Windows 11, amd64, windows-x86_64, windows-x86_64, iree_runtime.dll",
    "Windows Server 2022, x86_64, windows-x86_64, windows-x86_64, iree_runtime.dll",
    "Windows 11, aarch64, windows-aarch64, windows-aarch_64, iree_runtime.dll",
  })
  void namesAPlatformAsTheScriptAndMavenDo(
      String osName, String osArch, String directory, String classifier, String library) {
    NativePlatform platform = NativePlatform.of(osName, osArch);

    assertThat(platform.directory()).isEqualTo(directory);
    assertThat(platform.classifier()).isEqualTo(classifier);
    assertThat(platform.libraryName()).isEqualTo(library);
  }

  @Test
  void anUnknownPlatformGetsAPlainNameThatNoJarCarries() {
    NativePlatform platform = NativePlatform.of("FreeBSD", "riscv64");

    assertThat(platform.directory()).isEqualTo("freebsd-riscv64");
    assertThat(platform.classifier()).isEqualTo("freebsd-riscv64");
    assertThat(platform.libraryName()).isEqualTo("libiree_runtime.so");
    // Nothing a property holds becomes a path step: no separators, no dots.
    NativePlatform odd = NativePlatform.of("../../etc", "x/../y");
    assertThat(odd.directory()).isEqualTo("etc-xy");
    assertThat(NativePlatform.of(null, null).directory()).isEqualTo("-");
  }

  @Test
  void thisJvmIsOneOfTheNamedPlatformsOnTheBuildMachines() {
    NativePlatform current = NativePlatform.current();

    assertThat(current)
        .isEqualTo(NativePlatform.of(System.getProperty("os.name"), System.getProperty("os.arch")));
  }

  @Test
  void theLocatorLooksInThePlatformsDirectoryAndNamesItsClassifier() {
    LibraryLocator arm =
        new LibraryLocator(null, null, "3.11.0", null, "/home/x", "Linux", "aarch64");

    assertThat(arm.platform()).isEqualTo("linux-aarch64");
    assertThat(arm.conventionalPath())
        .isEqualTo(
            Path.of(
                "/home/x/.local/share/iree-stubs/iree-runtime/3.11.0/linux-aarch64/lib",
                "libiree_runtime.so"));
    ClassLoader nothing = new URLClassLoader(new URL[0], null);
    LibraryLocator mac =
        new LibraryLocator(
            null,
            null,
            "3.11.0",
            null,
            "/Users/x",
            "Mac OS X",
            "aarch64",
            new ClassPathLibrary(nothing, null, null, "/Users/x"));
    assertThat(mac.notFoundMessage())
        .contains(
            "iree-stubs-runtime-iree-native with classifier osx-aarch_64 to your dependencies");
  }
}
