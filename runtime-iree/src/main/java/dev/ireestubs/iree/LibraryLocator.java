package dev.ireestubs.iree;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the IREE runtime library: the system property {@value IreeLibrary#PROPERTY}, else the
 * environment variable {@value IreeLibrary#ENVIRONMENT_VARIABLE}, else the native jar on the class
 * path ({@link ClassPathLibrary}, which extracts it), else the conventional per-user location where
 * {@code runtime-iree/scripts/build-iree-runtime.sh} installs it:
 *
 * <pre>
 * ${XDG_DATA_HOME:-~/.local/share}/iree-stubs/iree-runtime/VERSION/OS-ARCH/lib/libiree_runtime.so
 * </pre>
 *
 * <p>Built from its inputs (property and environment values, home directories, OS and CPU names,
 * the class path to look in) so that tests need not change the process's environment. Immutable.
 */
final class LibraryLocator {

  /** The one command that builds and installs the runtime, from an iree-stubs checkout. */
  static final String BUILD_SCRIPT = "runtime-iree/scripts/build-iree-runtime.sh";

  /**
   * A library file and where its path came from.
   *
   * @param path the file to load
   * @param source where it came from, for messages
   * @param origin where it came from, for {@link IreeLibrary#origin()}
   */
  record Found(Path path, String source, IreeLibrary.Origin origin, Optional<BuildInfo> buildInfo) {

    /** A library whose {@code BUILD-INFO}, if any, is read from beside it when it is loaded. */
    Found(Path path, String source, IreeLibrary.Origin origin) {
      this(path, source, origin, Optional.empty());
    }
  }

  private final String property;
  private final String environment;
  private final String version;
  private final Path dataHome;
  private final String platform;
  private final String classifier;
  private final String libraryName;
  private final ClassPathLibrary classPath;

  /**
   * @param property the value of {@value IreeLibrary#PROPERTY} (null or blank: unset)
   * @param environment the value of {@value IreeLibrary#ENVIRONMENT_VARIABLE} (null or blank:
   *     unset)
   * @param version the IREE release whose conventional location to look in
   * @param xdgDataHome the value of {@code XDG_DATA_HOME} (ignored unless an absolute path)
   * @param userHome the user's home directory
   * @param osName {@code os.name}
   * @param osArch {@code os.arch}
   */
  LibraryLocator(
      String property,
      String environment,
      String version,
      String xdgDataHome,
      String userHome,
      String osName,
      String osArch) {
    this(property, environment, version, xdgDataHome, userHome, osName, osArch, null);
  }

  /**
   * A locator that also looks on a class path, after the property and environment variable and
   * before the conventional location.
   *
   * @param classPath the class path to look for the native jar in; null: none
   */
  LibraryLocator(
      String property,
      String environment,
      String version,
      String xdgDataHome,
      String userHome,
      String osName,
      String osArch,
      ClassPathLibrary classPath) {
    this.property = blankToNull(property);
    this.environment = blankToNull(environment);
    this.version = version;
    this.dataHome = dataHome(xdgDataHome, userHome);
    NativePlatform nativePlatform = NativePlatform.of(osName, osArch);
    this.platform = nativePlatform.directory();
    this.classifier = nativePlatform.classifier();
    this.libraryName = nativePlatform.libraryName();
    this.classPath = classPath;
  }

  /**
   * A locator reading this process's system properties and environment.
   *
   * @throws IreeLibraryException when the release asked for is no release name
   */
  static LibraryLocator ofSystem() {
    return new LibraryLocator(
        System.getProperty(IreeLibrary.PROPERTY),
        System.getenv(IreeLibrary.ENVIRONMENT_VARIABLE),
        release(
            System.getProperty(IreeLibrary.VERSION_PROPERTY),
            System.getenv(IreeLibrary.VERSION_ENVIRONMENT_VARIABLE)),
        System.getenv("XDG_DATA_HOME"),
        System.getProperty("user.home"),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        ClassPathLibrary.ofSystem());
  }

  /**
   * The IREE release whose library to look for on the class path and at the conventional location:
   * the system property {@value IreeLibrary#VERSION_PROPERTY}, else the environment variable
   * {@value IreeLibrary#VERSION_ENVIRONMENT_VARIABLE}, else {@value IreeLibrary#IREE_VERSION}.
   *
   * @param property the property's value (null or blank: unset)
   * @param environment the variable's value (null or blank: unset)
   * @throws IreeLibraryException when the one given is no release name (it becomes a directory
   *     name: {@code ../../x} must not)
   */
  static String release(String property, String environment) {
    String p = blankToNull(property);
    String e = blankToNull(environment);
    String source =
        p != null
            ? "system property " + IreeLibrary.VERSION_PROPERTY
            : "environment variable " + IreeLibrary.VERSION_ENVIRONMENT_VARIABLE;
    String given = p != null ? p : e;
    if (given == null) {
      return IreeLibrary.IREE_VERSION;
    }
    String release = given.strip();
    if (!RuntimeRelease.isReleaseName(release)) {
      throw new IreeLibraryException(
          "the "
              + source
              + " names no IREE release: '"
              + given
              + "'; give a release such as "
              + IreeLibrary.IREE_VERSION
              + " or 3.12.0rc20260822 (MAJOR.MINOR.PATCH, with rcYYYYMMDD for a release"
              + " candidate)");
    }
    return release;
  }

  /**
   * The library file, from the first of property, environment variable, class path and conventional
   * location that has one (a property or variable naming a missing file is an error, not a
   * fall-through; a library on the class path is extracted); empty when none is set, the class path
   * has none for this release and platform, and nothing is installed at the conventional location.
   *
   * @throws IreeLibraryException when the property or variable names no readable file, or the class
   *     path's library is damaged or cannot be extracted
   */
  Optional<Found> find() {
    if (property != null) {
      return Optional.of(
          given(
              property,
              "system property " + IreeLibrary.PROPERTY,
              IreeLibrary.Origin.SYSTEM_PROPERTY));
    }
    if (environment != null) {
      return Optional.of(
          given(
              environment,
              "environment variable " + IreeLibrary.ENVIRONMENT_VARIABLE,
              IreeLibrary.Origin.ENVIRONMENT_VARIABLE));
    }
    if (classPath != null) {
      Optional<Found> fromJar = classPath.find(version, platform, libraryName);
      if (fromJar.isPresent()) {
        return fromJar;
      }
    }
    Path conventional = conventionalPath();
    if (conventional != null && Files.exists(conventional, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of(installed(conventional));
    }
    return Optional.empty();
  }

  /**
   * The library installed at the conventional location, with the {@code BUILD-INFO} it is checked
   * against when it is loaded: every directory above it must be this user's or root's and writable
   * by no one else ({@link PrivateDirectories#checkAbove}), and the {@code BUILD-INFO} beside it
   * must describe it, for this release and platform.
   */
  private Found installed(Path library) {
    String source = "conventional location for IREE " + version + " on " + platform;
    String reinstall =
        "Install it again with "
            + BUILD_SCRIPT
            + " --version "
            + version
            + " (or set -D"
            + IreeLibrary.PROPERTY
            + "=FILE to a library elsewhere)";
    try {
      PrivateDirectories.checkAbove(library, reinstall);
    } catch (IOException e) {
      throw new IreeLibraryException(
          "cannot examine the directories above " + library + " (the " + source + "): " + e, e);
    }
    checkFile(library, source);
    Optional<BuildInfo> info = BuildInfo.beside(library);
    if (info.isEmpty()
        || !info.get().version().equals(version)
        || !info.get().platform().equals(platform)) {
      throw new IreeLibraryException(
          "IREE's runtime library at the "
              + source
              + ", "
              + library
              + ", has no "
              + BuildInfo.FILE_NAME
              + " beside it that describes it"
              + info.map(i -> " (it describes IREE " + i.version() + " for " + i.platform() + ")")
                  .orElse("")
              + ", so it cannot be checked and is not loaded. "
              + reinstall);
    }
    return new Found(library, source, IreeLibrary.Origin.CONVENTIONAL_LOCATION, info);
  }

  /**
   * {@link #find()}, or an {@link IreeLibraryException} saying where it looked, which releases are
   * installed, and the command that builds the wanted one.
   */
  Found require() {
    return find().orElseThrow(() -> new IreeLibraryException(notFoundMessage()));
  }

  /** Where the build script installs the runtime of this locator's release; null without home. */
  Path conventionalPath() {
    return dataHome == null ? null : platformDir(version).resolve("lib").resolve(libraryName);
  }

  /** Releases with a library installed at their conventional location, sorted. */
  List<String> installedVersions() {
    List<String> out = new ArrayList<>();
    if (dataHome == null) {
      return out;
    }
    Path root = dataHome.resolve("iree-stubs").resolve("iree-runtime");
    if (!Files.isDirectory(root)) {
      return out;
    }
    try (DirectoryStream<Path> versions = Files.newDirectoryStream(root)) {
      for (Path v : versions) {
        String name = v.getFileName().toString();
        if (Files.isRegularFile(platformDir(name).resolve("lib").resolve(libraryName))) {
          out.add(name);
        }
      }
    } catch (IOException e) {
      return out; // an unreadable folder lists nothing; the message still says where to look
    }
    out.sort(null);
    return out;
  }

  String notFoundMessage() {
    StringBuilder m = new StringBuilder("no IREE runtime library found: ");
    m.append("the system property ")
        .append(IreeLibrary.PROPERTY)
        .append(" and the environment variable ")
        .append(IreeLibrary.ENVIRONMENT_VARIABLE)
        .append(" are unset");
    if (classPath != null) {
      m.append(", the class path has no ")
          .append(ClassPathLibrary.ARTIFACT)
          .append(" jar for IREE ")
          .append(version)
          .append(" on ")
          .append(platform);
      List<String> jars = classPath.available();
      if (!jars.isEmpty()) {
        m.append(" (it has ")
            .append(String.join(", ", jars))
            .append(": a native jar holds one release's library for one platform; add the one")
            .append(" with classifier ")
            .append(classifier)
            .append(", built on such a machine)");
      }
    }
    Path conventional = conventionalPath();
    if (conventional == null) {
      m.append(", and there is no home directory to look in");
    } else {
      m.append(", and IREE ")
          .append(version)
          .append("'s runtime is not installed at ")
          .append(conventional);
      List<String> installed = installedVersions();
      installed.remove(version);
      if (!installed.isEmpty()) {
        m.append(" (installed there for ")
            .append(platform)
            .append(": IREE ")
            .append(String.join(", ", installed))
            .append("; a module runs only on a runtime of the release that compiled it: to use")
            .append(" one, set -D")
            .append(IreeLibrary.VERSION_PROPERTY)
            .append("=")
            .append(installed.get(installed.size() - 1))
            .append(')');
      }
    }
    m.append(". Build and install it with one command from an iree-stubs checkout: ")
        .append(BUILD_SCRIPT)
        .append(" --source /path/to/iree (a checkout of IREE's tag v")
        .append(version)
        .append(" with its submodules; without --source the script clones it)");
    if (classPath != null) {
      m.append(", then, for a jar to deploy, 'mvn install -pl runtime-iree-native -am' and add ")
          .append(ClassPathLibrary.ARTIFACT)
          .append(" with classifier ")
          .append(classifier)
          .append(" to your dependencies");
    }
    m.append(". Or set -D")
        .append(IreeLibrary.PROPERTY)
        .append("=/path/to/libiree_runtime.so to a shared build of IREE's runtime that exports")
        .append(" its C API, of the IREE release that compiled your modules (iree-stubs ships no")
        .append(" IREE binary)");
    return m.toString();
  }

  String platform() {
    return platform;
  }

  String version() {
    return version;
  }

  // ----------------------------------------------------------------------------------------------

  private Path platformDir(String release) {
    return dataHome
        .resolve("iree-stubs")
        .resolve("iree-runtime")
        .resolve(release)
        .resolve(platform);
  }

  private static Found given(String value, String source, IreeLibrary.Origin origin) {
    Path path;
    try {
      path = Path.of(value.strip());
    } catch (InvalidPathException e) {
      throw new IreeLibraryException(
          "the " + source + " is '" + value + "', which is not a valid path: " + e.getMessage(), e);
    }
    return new Found(checkFile(path, source), source, origin);
  }

  /**
   * {@code path} when it is a readable regular file.
   *
   * @throws IreeLibraryException naming {@code source} otherwise
   */
  static Path checkFile(Path path, String source) {
    if (!Files.exists(path)) {
      throw new IreeLibraryException(
          "the "
              + source
              + " names the IREE runtime library "
              + path.toAbsolutePath()
              + ", which does not exist; set it to the path of a shared build of IREE's runtime"
              + " ("
              + BUILD_SCRIPT
              + " builds one)");
    }
    if (Files.isDirectory(path)) {
      throw new IreeLibraryException(
          "the "
              + source
              + " names "
              + path.toAbsolutePath()
              + ", which is a directory; name the library file itself"
              + " (e.g. .../libiree_runtime.so)");
    }
    if (!Files.isRegularFile(path)) {
      throw new IreeLibraryException(
          "the "
              + source
              + " names "
              + path.toAbsolutePath()
              + ", which is not a regular file (a named pipe or device, say); name the library"
              + " file itself (e.g. .../libiree_runtime.so)");
    }
    if (!Files.isReadable(path)) {
      throw new IreeLibraryException(
          "the "
              + source
              + " names the IREE runtime library "
              + path.toAbsolutePath()
              + ", which this process cannot read");
    }
    return path;
  }

  private static Path dataHome(String xdgDataHome, String userHome) {
    String xdg = blankToNull(xdgDataHome);
    try {
      if (xdg != null && Path.of(xdg).isAbsolute()) { // the XDG spec ignores relative values
        return Path.of(xdg);
      }
      Path home = home(userHome);
      return home == null ? null : home.resolve(".local").resolve("share");
    } catch (InvalidPathException e) {
      return null;
    }
  }

  /**
   * {@code userHome} when it is an absolute path, else null: the JDK sets {@code user.home} to
   * {@code ?} for a user without a passwd entry and {@code HOME} unset, and to whatever relative
   * path {@code HOME} holds; either would put the library under the working directory.
   */
  static Path home(String userHome) {
    String home = blankToNull(userHome);
    try {
      return home != null && Path.of(home).isAbsolute() ? Path.of(home) : null;
    } catch (InvalidPathException e) {
      return null;
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
