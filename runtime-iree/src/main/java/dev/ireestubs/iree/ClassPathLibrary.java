package dev.ireestubs.iree;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

/**
 * IREE's runtime library from the class path: the native jar {@value #ARTIFACT} (one per platform,
 * the platform its classifier) holds
 *
 * <pre>
 * META-INF/iree-stubs/iree-runtime/VERSION/PLATFORM/libiree_runtime.so
 * META-INF/iree-stubs/iree-runtime/VERSION/PLATFORM/BUILD-INFO
 * </pre>
 *
 * and names the release and platform in its manifest ({@value #VERSION_ATTRIBUTE}, {@value
 * #PLATFORM_ATTRIBUTE}). The library of the wanted release and this machine's platform is extracted
 * ({@link LibraryExtractor}) into
 *
 * <pre>
 * CACHE/VERSION/PLATFORM/SHA256/libiree_runtime.so
 * </pre>
 *
 * where CACHE is the system property {@value IreeLibrary#CACHE_PROPERTY}, else {@code
 * ${XDG_CACHE_HOME:-~/.cache}/iree-stubs/iree-runtime}, and checked against its {@code BUILD-INFO}.
 * Immutable.
 */
final class ClassPathLibrary {

  /** Where the native jar keeps its libraries. */
  static final String ROOT = "META-INF/iree-stubs/iree-runtime/";

  /** The native jar's coordinates (without the classifier), for messages. */
  static final String ARTIFACT = "dev.ireestubs:iree-stubs-runtime-iree-native";

  /** The manifest attribute naming the jar's IREE release. */
  static final String VERSION_ATTRIBUTE = "IREE-Version";

  /** The manifest attribute naming the jar's platform. */
  static final String PLATFORM_ATTRIBUTE = "IREE-Platform";

  private static final String REBUILD =
      LibraryLocator.BUILD_SCRIPT + ", then 'mvn install -pl runtime-iree-native -am'";

  private final ClassLoader loader;
  private final String cacheProperty;
  private final String xdgCacheHome;
  private final String userHome;

  /**
   * @param loader where to look for the jar
   * @param cacheProperty the value of {@value IreeLibrary#CACHE_PROPERTY} (null or blank: unset)
   * @param xdgCacheHome the value of {@code XDG_CACHE_HOME} (ignored unless an absolute path)
   * @param userHome the user's home directory
   */
  ClassPathLibrary(ClassLoader loader, String cacheProperty, String xdgCacheHome, String userHome) {
    this.loader = loader;
    this.cacheProperty = blankToNull(cacheProperty);
    this.xdgCacheHome = blankToNull(xdgCacheHome);
    this.userHome = blankToNull(userHome);
  }

  /** Runtime-iree's own class loader, this process's system properties and environment. */
  static ClassPathLibrary ofSystem() {
    ClassLoader loader = ClassPathLibrary.class.getClassLoader();
    return new ClassPathLibrary(
        loader == null ? ClassLoader.getSystemClassLoader() : loader,
        System.getProperty(IreeLibrary.CACHE_PROPERTY),
        System.getenv("XDG_CACHE_HOME"),
        System.getProperty("user.home"));
  }

  /** The jar entry of a release's library for a platform. */
  static String entryName(String version, String platform, String libraryName) {
    return ROOT + version + "/" + platform + "/" + libraryName;
  }

  /**
   * The library of {@code version} for {@code platform}, extracted and checked; empty when the
   * class path has none.
   *
   * @throws IreeLibraryException when the jar's library or {@code BUILD-INFO} is missing, damaged
   *     or for another release or platform than its place says, or cannot be extracted
   */
  Optional<LibraryLocator.Found> find(String version, String platform, String libraryName) {
    URL library = loader.getResource(entryName(version, platform, libraryName));
    if (library == null) {
      return Optional.empty();
    }
    String jar = jarOf(library);
    BuildInfo info = buildInfo(library, jar);
    if (!info.version().equals(version)
        || !info.platform().equals(platform)
        || !info.library().equals(libraryName)) {
      throw new IreeLibraryException(
          "the "
              + BuildInfo.FILE_NAME
              + " beside IREE's runtime library in "
              + jar
              + " describes "
              + info.library()
              + " of IREE "
              + info.version()
              + " for "
              + info.platform()
              + ", but the library's place in the jar is for IREE "
              + version
              + " on "
              + platform
              + ": the jar was not built by runtime-iree-native; rebuild it ("
              + REBUILD
              + ")");
    }
    Path root = cacheRoot();
    Path directory = root.resolve(version).resolve(platform).resolve(info.sha256());
    Path file = LibraryExtractor.extract(library, info, root, directory, cacheRemedy());
    return Optional.of(
        new LibraryLocator.Found(
            file,
            "class path ("
                + jar
                + ", IREE commit "
                + info.commit()
                + ", extracted to "
                + file
                + ")",
            IreeLibrary.Origin.CLASS_PATH,
            Optional.of(info)));
  }

  /**
   * The native jars on the class path, as {@code IREE 3.11.0 for linux-aarch64 (JAR)}, from their
   * manifests; for messages when none fits this machine.
   */
  List<String> available() {
    List<String> out = new ArrayList<>();
    Enumeration<URL> manifests;
    try {
      manifests = loader.getResources("META-INF/MANIFEST.MF");
    } catch (IOException e) {
      return out;
    }
    while (manifests.hasMoreElements()) {
      URL url = manifests.nextElement();
      try (InputStream in = url.openStream()) {
        Attributes main = new Manifest(in).getMainAttributes();
        String version = main.getValue(VERSION_ATTRIBUTE);
        String platform = main.getValue(PLATFORM_ATTRIBUTE);
        if (version != null && platform != null) {
          out.add("IREE " + version + " for " + platform + " (" + jarOf(url) + ")");
        }
      } catch (IOException | RuntimeException e) {
        // an unreadable manifest is no native jar of ours; the message lists the others
      }
    }
    return out;
  }

  /** The directory libraries are extracted under (see the class comment). */
  Path cacheRoot() {
    if (cacheProperty != null) {
      try {
        return Path.of(cacheProperty.strip()).toAbsolutePath();
      } catch (InvalidPathException e) {
        throw new IreeLibraryException(
            "the system property "
                + IreeLibrary.CACHE_PROPERTY
                + " is '"
                + cacheProperty
                + "', which is not a valid path: "
                + e.getMessage(),
            e);
      }
    }
    try {
      if (xdgCacheHome != null && Path.of(xdgCacheHome).isAbsolute()) {
        return Path.of(xdgCacheHome, "iree-stubs", "iree-runtime");
      }
      Path home = LibraryLocator.home(userHome);
      if (home != null) {
        return home.resolve(".cache").resolve("iree-stubs").resolve("iree-runtime");
      }
    } catch (InvalidPathException e) {
      // as no home: the message below says what to set
    }
    throw new IreeLibraryException(
        "IREE's runtime library is on the class path, but there is no directory to extract it"
            + " into (no absolute user.home, no absolute XDG_CACHE_HOME): set -D"
            + IreeLibrary.CACHE_PROPERTY
            + "=DIR to a directory this user may write");
  }

  // ----------------------------------------------------------------------------------------------

  private static BuildInfo buildInfo(URL library, String jar) {
    URL url;
    try {
      String text = library.toString();
      url = new URI(text.substring(0, text.lastIndexOf('/') + 1) + BuildInfo.FILE_NAME).toURL();
    } catch (URISyntaxException | IOException | IllegalArgumentException e) {
      throw new IreeLibraryException(
          "cannot name the " + BuildInfo.FILE_NAME + " beside " + library + ": " + e, e);
    }
    try {
      URLConnection connection = url.openConnection();
      connection.setUseCaches(false);
      try (InputStream in = connection.getInputStream()) {
        return BuildInfo.read(in, jar);
      }
    } catch (IOException e) {
      throw new IreeLibraryException(
          "IREE's runtime library in "
              + jar
              + " has no readable "
              + BuildInfo.FILE_NAME
              + " beside it ("
              + e
              + "), so it cannot be checked and is not loaded: the jar is"
              + " damaged or was not built by runtime-iree-native; rebuild it ("
              + REBUILD
              + ")",
          e);
    }
  }

  private static String cacheRemedy() {
    return "Make that directory writable by this user, or point -D"
        + IreeLibrary.CACHE_PROPERTY
        + "=DIR (or XDG_CACHE_HOME) at one that is, or extract the library yourself and name it"
        + " with -D"
        + IreeLibrary.PROPERTY
        + "=FILE";
  }

  /**
   * The jar of a {@code jar:} URL, as a path when it is a local file ({@code /.../x.jar}), else the
   * URL itself; for messages.
   */
  static String jarOf(URL url) {
    String text = url.toString();
    int separator = text.lastIndexOf("!/");
    if (!text.startsWith("jar:") || separator < 0) {
      return text;
    }
    String jar = text.substring(4, separator);
    try {
      return jar.startsWith("file:") ? Path.of(new URI(jar)).toString() : jar;
    } catch (URISyntaxException | IllegalArgumentException e) {
      return jar;
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
