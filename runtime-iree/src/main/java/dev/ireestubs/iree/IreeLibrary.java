package dev.ireestubs.iree;

import dev.ireestubs.vmfb.RuntimeGeneration;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A shared build of IREE's runtime, loaded into this process: the library the user builds with
 * {@code runtime-iree/scripts/build-iree-runtime.sh} (and may package into the native jar) or
 * supplies. {@link #load()} finds it by, in order:
 *
 * <ol>
 *   <li>the system property {@value #PROPERTY};
 *   <li>the environment variable {@value #ENVIRONMENT_VARIABLE};
 *   <li>the class path: the native jar {@code dev.ireestubs:iree-stubs-runtime-iree-native} with
 *       this machine's platform as classifier (e.g. {@code linux-x86_64}), whose library of the
 *       IREE release (see below) is extracted into {@code
 *       ${XDG_CACHE_HOME:-~/.cache}/iree-stubs/iree-runtime/VERSION/OS-ARCH/SHA256/} (or under the
 *       directory the system property {@value #CACHE_PROPERTY} names, which must be this user's and
 *       writable by no one else), once per release and content: a file there whose SHA-256 is not
 *       the one the jar's {@code BUILD-INFO} records is replaced, never loaded;
 *   <li>the conventional per-user location where the build script installs it, for the IREE release
 *       {@value #IREE_VERSION} (or the one the system property {@value #VERSION_PROPERTY} names):
 *       {@code ${XDG_DATA_HOME:-~/.local/share}/iree-stubs/iree-runtime/VERSION/OS-ARCH/} {@code
 *       lib/libiree_runtime.so}, e.g. {@code .../3.11.0/linux-x86_64/lib/libiree_runtime.so}
 *       ({@code .../macos-aarch64/lib/libiree_runtime.dylib} on an Apple silicon Mac).
 * </ol>
 *
 * <p>When none is found the error says where it looked, which releases are installed, and the one
 * command that builds the wanted one.
 *
 * <p>The extraction directory and the install location must be this user's alone (the directories
 * above them this user's or root's), a relative home or XDG variable counts as none, and a library
 * with a {@code BUILD-INFO} must have the size and SHA-256 it records. The library is opened once,
 * through the descriptor it was checked by, by the system's dynamic linker with every symbol
 * resolved ({@code dlopen} with {@code RTLD_NOW}): a library linked incompletely (IREE's unified
 * archive without flatcc, say) is refused with an {@link IreeLibraryException} naming the missing
 * symbol, where the JVM's lazy loading would let the first module load end the process (exit code
 * 127). It then checks that every C function and global iree-stubs calls is exported, and names the
 * missing ones otherwise. {@code docs/iree-runtime.md} ("Loading IREE's runtime library") gives
 * every step. A library is loaded once per process and stays loaded (native code cannot be unloaded
 * safely while objects it made may be alive); {@link #load(Path)} with the same file returns the
 * same instance.
 *
 * <p><b>Trust.</b> Loading a library, like loading a {@code .vmfb} into it, runs native code in
 * this process with its full rights: load only files you would run as native programs.
 *
 * <p>The library must be of the generation of the IREE release that compiled the modules it runs (a
 * {@code .vmfb} compiled by IREE 3.11 or earlier runs only on a 3.11-or-earlier runtime, one
 * compiled by 3.12 or later only on a 3.12-or-later runtime). iree-stubs speaks both generations' C
 * APIs (checked against IREE 3.11.0 and 3.12.0rc20260822): which one a library speaks is read from
 * its {@code BUILD-INFO} and checked against the symbols it exports; {@link #release()} and {@link
 * #generation()} say what was loaded.
 *
 * <p>Thread-safe.
 */
public final class IreeLibrary {

  /** The system property naming the library file: {@value}. */
  public static final String PROPERTY = "iree.runtime.library";

  /** The environment variable naming the library file when the property is not set: {@value}. */
  public static final String ENVIRONMENT_VARIABLE = "IREE_RUNTIME_LIBRARY";

  /**
   * The system property naming the directory a library from the class path is extracted under
   * (default {@code ${XDG_CACHE_HOME:-~/.cache}/iree-stubs/iree-runtime}): {@value}.
   */
  public static final String CACHE_PROPERTY = "iree.runtime.cache";

  /**
   * The IREE release iree-stubs targets, whose runtime {@link #load()} looks for at the
   * conventional location: {@value}.
   */
  public static final String IREE_VERSION = "3.11.0";

  /**
   * The system property naming the IREE release to look for in the native jar and at the
   * conventional location, when several are installed (default: the environment variable {@value
   * #VERSION_ENVIRONMENT_VARIABLE}, else {@value #IREE_VERSION}); a release name such as {@code
   * 3.12.0rc20260822}: {@value}.
   */
  public static final String VERSION_PROPERTY = "iree.runtime.version";

  /**
   * The environment variable naming the IREE release to look for when {@value #VERSION_PROPERTY} is
   * not set: {@value}.
   */
  public static final String VERSION_ENVIRONMENT_VARIABLE = "IREE_RUNTIME_VERSION";

  /** Where a loaded library came from: the first place that had one. */
  public enum Origin {
    /** The path given to {@link IreeLibrary#load(Path)} (or {@code Options.withLibrary}). */
    GIVEN_PATH,
    /** The system property {@value IreeLibrary#PROPERTY}. */
    SYSTEM_PROPERTY,
    /** The environment variable {@value IreeLibrary#ENVIRONMENT_VARIABLE}. */
    ENVIRONMENT_VARIABLE,
    /** The native jar on the class path, extracted into the cache directory. */
    CLASS_PATH,
    /** Where the build script installs it for this release and platform. */
    CONVENTIONAL_LOCATION
  }

  private static final String GIVEN = "path given to IreeLibrary.load";

  private static final Map<Path, IreeLibrary> LOADED = new ConcurrentHashMap<>();

  private final Path path;
  private final Origin origin;
  private final String source;
  private final Native api;

  private IreeLibrary(Path path, Origin origin, String source, Native api) {
    this.path = path;
    this.origin = origin;
    this.source = source;
    this.api = api;
  }

  /**
   * The library named by {@value #PROPERTY} or {@value #ENVIRONMENT_VARIABLE}, else in the native
   * jar on the class path, else installed at the conventional location (see the class comment).
   *
   * @return the loaded library
   * @throws IreeLibraryException when none is found (the message gives the command that builds
   *     one), the file does not exist or does not load, has symbols that nothing resolves, or lacks
   *     symbols of IREE's C API, or the class path's library is damaged (its SHA-256 is not the
   *     recorded one), for another platform than its place in the jar says, or cannot be extracted
   *     (the message names the directory and what to set)
   */
  public static IreeLibrary load() {
    return load(LibraryLocator.ofSystem().require());
  }

  /**
   * The library file {@link #load()} would load, without loading it (a library from the class path
   * is extracted and checked): empty when none is set, the class path has none and none is
   * installed at the conventional location.
   *
   * @return the library file, or empty when none is configured or installed
   * @throws IreeLibraryException when the property or environment variable names no readable file,
   *     or the class path's library is damaged or cannot be extracted
   */
  public static Optional<Path> locate() {
    return LibraryLocator.ofSystem().find().map(LibraryLocator.Found::path);
  }

  /**
   * Where the build script installs the runtime of {@code version} for this machine's OS and CPU,
   * e.g. {@code ~/.local/share/iree-stubs/iree-runtime/3.11.0/linux-x86_64/lib/libiree_runtime.so}
   * (the file may not exist).
   *
   * @param version an IREE release, e.g. {@code 3.11.0}
   * @return the conventional path of the library file
   * @throws IllegalArgumentException when {@code version} is no IREE release name
   * @throws IllegalStateException when there is no home directory to put it in
   */
  public static Path conventionalPath(String version) {
    Objects.requireNonNull(version, "version");
    if (!RuntimeRelease.isReleaseName(version)) {
      throw new IllegalArgumentException(
          "no IREE release name: '" + version + "' (e.g. " + IREE_VERSION + ", 3.12.0rc20260822)");
    }
    LibraryLocator locator =
        new LibraryLocator(
            null,
            null,
            version,
            System.getenv("XDG_DATA_HOME"),
            System.getProperty("user.home"),
            System.getProperty("os.name"),
            System.getProperty("os.arch"));
    Path p = locator.conventionalPath();
    if (p == null) {
      throw new IllegalStateException("no home directory (user.home) to find the runtime in");
    }
    return p;
  }

  /**
   * The library in {@code file}.
   *
   * @param file the runtime library file; a relative path is resolved against the working directory
   * @return the loaded library
   * @throws IreeLibraryException when the file does not exist or does not load, has symbols that
   *     nothing resolves, or lacks symbols of IREE's C API
   */
  public static IreeLibrary load(Path file) {
    Objects.requireNonNull(file, "file");
    return load(LibraryLocator.checkFile(file, GIVEN), GIVEN, Origin.GIVEN_PATH, Optional.empty());
  }

  /** The library {@code found} names, checked against its {@code BUILD-INFO} when it has one. */
  static IreeLibrary load(LibraryLocator.Found found) {
    return load(found.path(), found.source(), found.origin(), found.buildInfo());
  }

  private static IreeLibrary load(
      Path file, String source, Origin origin, Optional<BuildInfo> buildInfo) {
    Path key;
    try {
      key = file.toRealPath();
    } catch (IOException e) {
      throw new IreeLibraryException(
          "the IREE runtime library " + file + " (from the " + source + ") cannot be read: " + e,
          e);
    }
    IreeLibrary existing = LOADED.get(key);
    if (existing != null) {
      return existing;
    }
    synchronized (LOADED) {
      existing = LOADED.get(key);
      if (existing != null) {
        return existing;
      }
      Optional<BuildInfo> info = buildInfo.or(() -> BuildInfo.beside(key));
      LibraryLoader.Opened opened = LibraryLoader.open(key, source, origin, info);
      Native api;
      try {
        api =
            new Native(
                opened.lookup(),
                key.toString(),
                info.map(RuntimeRelease::of).orElseGet(RuntimeRelease::unknown));
      } catch (RuntimeException e) {
        opened.unload().run();
        throw e;
      }
      IreeLibrary library = new IreeLibrary(key, origin, source, api);
      LOADED.put(key, library);
      return library;
    }
  }

  /**
   * The library file (its real path).
   *
   * @return the absolute real path of the loaded file
   */
  public Path path() {
    return path;
  }

  /**
   * Where this library came from: the first place {@link #load()} found one, or the path given to
   * {@link #load(Path)} (a file loaded again from elsewhere keeps the first).
   *
   * @return the library's origin
   */
  public Origin origin() {
    return origin;
  }

  Native api() {
    return api;
  }

  /**
   * The IREE release of this library, as the {@code BUILD-INFO} beside it (or in the native jar)
   * records it, e.g. {@code 3.11.0} or {@code 3.12.0rc20260822}.
   *
   * @return the release, or empty for a library without {@code BUILD-INFO}
   */
  public Optional<String> release() {
    return api.release().version();
  }

  /**
   * Which modules this library loads: IREE 3.11 and earlier register HAL module 0.6, 3.12 and later
   * 0.7, and a module compiled for one does not load on the other (see {@link
   * dev.ireestubs.vmfb.VmfbModule#halRequirement()}). Loading a module of the other generation is
   * refused with an {@link IreeIncompatibleModuleException} before IREE sees it.
   *
   * @return the generation, or {@link RuntimeGeneration#UNKNOWN} for a library without {@code
   *     BUILD-INFO} (then no module is refused for its generation)
   */
  public RuntimeGeneration generation() {
    return api.release().generation();
  }

  /**
   * The generation of IREE's C API iree-stubs speaks to this library, e.g. {@code IREE 3.12 and
   * later (hal 0.7)}: the one its release names, checked against its exports (or, for a library of
   * unknown release, the one its exports show).
   *
   * @return a description for messages and logs
   */
  public String apiGeneration() {
    return api.apiGeneration();
  }

  @Override
  public String toString() {
    return "IREE runtime library "
        + path
        + " (from the "
        + source
        + "; IREE "
        + api.release().describe()
        + ")";
  }
}
