package dev.ireestubs.iree;

import java.util.Locale;

/**
 * A platform (operating system and CPU) under the two names runtime-iree uses for it, computed from
 * {@code os.name} and {@code os.arch}:
 *
 * <ul>
 *   <li>its <b>directory</b> name ({@code linux-x86_64}, {@code linux-aarch64}, {@code
 *       macos-aarch64}, {@code windows-x86_64}): the build script's install directory {@code
 *       <release>/<directory>/}, the native jar's entries and {@code BUILD-INFO}'s {@code
 *       platform};
 *   <li>its Maven <b>classifier</b>, in os-maven-plugin's scheme ({@code
 *       ${os.detected.classifier}}: {@code linux-x86_64}, {@code linux-aarch_64}, {@code
 *       osx-aarch_64}, {@code windows-x86_64}), the one netty-tcnative and grpc publish under: the
 *       native jar a user adds.
 * </ul>
 *
 * <p>An OS or CPU outside these gets a name made of its lower-cased letters and digits, which no
 * install or jar carries (the lookup then says what it looked for). Immutable.
 *
 * @param os the OS in directory names: linux, macos, windows, or another name
 * @param arch the CPU in directory names: x86_64, aarch64, or another name
 */
record NativePlatform(String os, String arch) {

  /** The platform of {@code os.name} and {@code os.arch} (null or unknown values give a name). */
  static NativePlatform of(String osName, String osArch) {
    return new NativePlatform(os(osName), arch(osArch));
  }

  /** This JVM's platform. */
  static NativePlatform current() {
    return of(System.getProperty("os.name"), System.getProperty("os.arch"));
  }

  /** The name of install directories and jar entries, e.g. {@code linux-aarch64}. */
  String directory() {
    return os + "-" + arch;
  }

  /** The native jar's classifier (os-maven-plugin's scheme), e.g. {@code linux-aarch_64}. */
  String classifier() {
    String o = os.equals("macos") ? "osx" : os;
    String a = arch.equals("aarch64") ? "aarch_64" : arch;
    return o + "-" + a;
  }

  /** The runtime library's file name on this OS. */
  String libraryName() {
    return switch (os) {
      case "macos" -> "libiree_runtime.dylib";
      case "windows" -> "iree_runtime.dll";
      default -> "libiree_runtime.so";
    };
  }

  /** The build script's OS names: linux, macos, windows, else the lower-cased name's letters. */
  private static String os(String osName) {
    String n = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
    if (n.startsWith("linux")) {
      return "linux";
    }
    if (n.startsWith("mac") || n.startsWith("darwin") || n.startsWith("osx")) {
      return "macos";
    }
    if (n.startsWith("windows")) {
      return "windows";
    }
    return n.replaceAll("[^a-z0-9]", "");
  }

  /** The build script's CPU names: x86_64 and aarch64, else the lower-cased name. */
  private static String arch(String osArch) {
    String a = osArch == null ? "" : osArch.toLowerCase(Locale.ROOT);
    return switch (a) {
      case "amd64", "x86_64", "x86-64", "x64" -> "x86_64";
      case "aarch64", "arm64", "aarch_64" -> "aarch64";
      default -> a.replaceAll("[^a-z0-9_]", "");
    };
  }
}
