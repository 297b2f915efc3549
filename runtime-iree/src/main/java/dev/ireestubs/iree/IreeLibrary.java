package dev.ireestubs.iree;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A shared build of IREE's runtime, loaded into this process: the library the user supplies
 * (iree-stubs ships none). Its path comes from the system property {@value #PROPERTY} or, when that
 * is not set, the environment variable {@value #ENVIRONMENT_VARIABLE}.
 *
 * <p>Loading checks that every C function and global iree-stubs calls is exported, and names the
 * missing ones otherwise. A library is loaded once per process and stays loaded (native code
 * cannot be unloaded safely while objects it made may be alive); {@link #load(Path)} with the same
 * file returns the same instance.
 *
 * <p>The library must be of the IREE release that compiled the modules it runs (a {@code .vmfb}
 * runs only on a runtime of its own release), and of a release whose C API matches the one
 * described in iree-runtime-c-api.md (checked against v3.11.0).
 *
 * <p>Thread-safe.
 */
public final class IreeLibrary {

  /** The system property naming the library file: {@value}. */
  public static final String PROPERTY = "iree.runtime.library";

  /** The environment variable naming the library file when the property is not set: {@value}. */
  public static final String ENVIRONMENT_VARIABLE = "IREE_RUNTIME_LIBRARY";

  private static final String GIVEN = "path given to IreeLibrary.load";

  private static final Map<Path, IreeLibrary> LOADED = new ConcurrentHashMap<>();

  private final Path path;
  private final Native api;

  private IreeLibrary(Path path, Native api) {
    this.path = path;
    this.api = api;
  }

  /**
   * The library named by {@value #PROPERTY} or {@value #ENVIRONMENT_VARIABLE}.
   *
   * @throws IreeLibraryException when neither is set, the file does not exist or does not load, or
   *     it lacks symbols of IREE's C API
   */
  public static IreeLibrary load() {
    return load(
        resolve(System.getProperty(PROPERTY), System.getenv(ENVIRONMENT_VARIABLE)),
        describeSource(System.getProperty(PROPERTY)));
  }

  /**
   * The library in {@code file}.
   *
   * @throws IreeLibraryException when the file does not exist or does not load, or lacks symbols
   *     of IREE's C API
   */
  public static IreeLibrary load(Path file) {
    Objects.requireNonNull(file, "file");
    return load(checkFile(file, GIVEN), GIVEN);
  }

  @SuppressWarnings("restricted") // loading native code is the point; see the README
  private static IreeLibrary load(Path file, String source) {
    Path key;
    try {
      key = file.toRealPath();
    } catch (IOException e) {
      throw new IreeLibraryException(
          "the IREE runtime library " + file + " (from the " + source + ") cannot be read: "
              + e,
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
      Arena arena = Arena.ofShared();
      SymbolLookup lookup;
      try {
        lookup = SymbolLookup.libraryLookup(key, arena);
      } catch (IllegalArgumentException | IllegalCallerException e) {
        arena.close();
        throw new IreeLibraryException(
            "the IREE runtime library " + file + " (from the " + source
                + ") cannot be loaded as a shared library: " + e.getMessage()
                + (e instanceof IllegalCallerException
                    ? "; run Java with --enable-native-access=ALL-UNNAMED (or the module name)"
                    : "; give the path of a shared build of IREE's runtime (.so, .dylib or .dll)"
                        + " for this machine"),
            e);
      }
      Native api;
      try {
        api = new Native(lookup, key.toString());
      } catch (RuntimeException e) {
        arena.close();
        throw e;
      }
      IreeLibrary library = new IreeLibrary(key, api);
      LOADED.put(key, library);
      return library;
    }
  }

  /** The library file (its real path). */
  public Path path() {
    return path;
  }

  Native api() {
    return api;
  }

  @Override
  public String toString() {
    return "IREE runtime library " + path;
  }

  // ----------------------------------------------------------------------------------------------
  // Where the library is

  private static String describeSource(String property) {
    return property != null && !property.isBlank()
        ? "system property " + PROPERTY
        : "environment variable " + ENVIRONMENT_VARIABLE;
  }

  /**
   * The library file named by a system property value and an environment variable value (either
   * may be null or blank, meaning unset); the property wins.
   *
   * @throws IreeLibraryException when neither is set, or the value names no readable file
   */
  static Path resolve(String property, String environment) {
    String value;
    String source;
    if (property != null && !property.isBlank()) {
      value = property.strip();
      source = "system property " + PROPERTY;
    } else if (environment != null && !environment.isBlank()) {
      value = environment.strip();
      source = "environment variable " + ENVIRONMENT_VARIABLE;
    } else {
      throw new IreeLibraryException(
          "no IREE runtime library is configured: set the system property " + PROPERTY
              + " (-D" + PROPERTY + "=/path/to/libiree_runtime.so) or the environment variable "
              + ENVIRONMENT_VARIABLE
              + " to a shared build of IREE's runtime that exports its C API, of the IREE release"
              + " that compiled your modules (iree-stubs ships no IREE binary)");
    }
    Path path;
    try {
      path = Path.of(value);
    } catch (InvalidPathException e) {
      throw new IreeLibraryException(
          "the " + source + " is '" + value + "', which is not a valid path: " + e.getMessage(), e);
    }
    return checkFile(path, source);
  }

  private static Path checkFile(Path path, String source) {
    if (!Files.exists(path)) {
      throw new IreeLibraryException(
          "the " + source + " names the IREE runtime library " + path.toAbsolutePath()
              + ", which does not exist; set it to the path of a shared build of IREE's runtime");
    }
    if (Files.isDirectory(path)) {
      throw new IreeLibraryException(
          "the " + source + " names " + path.toAbsolutePath()
              + ", which is a directory; name the library file itself"
              + " (e.g. .../libiree_runtime.so)");
    }
    if (!Files.isReadable(path)) {
      throw new IreeLibraryException(
          "the " + source + " names the IREE runtime library " + path.toAbsolutePath()
              + ", which this process cannot read");
    }
    return path;
  }
}
