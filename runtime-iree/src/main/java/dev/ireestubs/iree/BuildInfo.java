package dev.ireestubs.iree;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a {@code BUILD-INFO} file says about a build of IREE's runtime library: written by {@code
 * runtime-iree/scripts/build-iree-runtime.sh} beside the library it installs (Java properties), and
 * carried beside the library in the native jar. Holds the facts the loader checks (release,
 * platform, file name, SHA-256 and size) and every entry for messages. Immutable.
 *
 * @param version the IREE release ({@code iree.version})
 * @param platform the platform the library was built for, e.g. {@code linux-x86_64}
 * @param library the library's file name ({@code library})
 * @param sha256 the library's SHA-256, 64 lower-case hex digits ({@code library.sha256})
 * @param size the library's size in bytes ({@code library.size})
 * @param entries every entry of the file (IREE and submodule commits, compilers, ...)
 */
record BuildInfo(
    String version,
    String platform,
    String library,
    String sha256,
    long size,
    Map<String, String> entries) {

  /** The file's name, beside the library. */
  static final String FILE_NAME = "BUILD-INFO";

  /** Longer files are refused unread (the script writes about 1 KiB). */
  static final int MAX_BYTES = 64 * 1024;

  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern FILE_NAME_CHARS = Pattern.compile("[A-Za-z0-9._+-]+");

  BuildInfo {
    entries = Map.copyOf(entries);
  }

  /**
   * Reads a {@code BUILD-INFO} file, at most {@link #MAX_BYTES}.
   *
   * @param in the file's bytes (UTF-8); not closed
   * @param where what to call the file in messages, e.g. its URL
   * @throws IOException when reading fails
   * @throws IreeLibraryException when it is too long or lacks or garbles an entry the loader needs
   */
  static BuildInfo read(InputStream in, String where) throws IOException {
    byte[] bytes = in.readNBytes(MAX_BYTES + 1);
    if (bytes.length > MAX_BYTES) {
      throw invalid(where, "is longer than " + MAX_BYTES + " bytes");
    }
    return parse(new String(bytes, StandardCharsets.UTF_8), where);
  }

  /**
   * Parses the text of a {@code BUILD-INFO} file.
   *
   * @throws IreeLibraryException when it lacks or garbles an entry the loader needs
   */
  static BuildInfo parse(String text, String where) {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw invalid(where, "is not a properties file (" + e.getMessage() + ")");
    }
    Map<String, String> entries = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      entries.put(key, properties.getProperty(key).strip());
    }
    String library = required(entries, "library", where);
    if (!FILE_NAME_CHARS.matcher(library).matches()) {
      throw invalid(where, "names the library '" + library + "', which is no plain file name");
    }
    String sha256 = required(entries, "library.sha256", where);
    if (!SHA256.matcher(sha256).matches()) {
      throw invalid(
          where, "records library.sha256=" + sha256 + ", which is not 64 lower-case hex digits");
    }
    String sizeText = required(entries, "library.size", where);
    long size;
    try {
      size = Long.parseLong(sizeText);
    } catch (NumberFormatException e) {
      size = -1;
    }
    if (size <= 0) {
      throw invalid(where, "records library.size=" + sizeText + ", which is no positive number");
    }
    return new BuildInfo(
        required(entries, "iree.version", where),
        required(entries, "platform", where),
        library,
        sha256,
        size,
        entries);
  }

  /**
   * The {@code BUILD-INFO} beside {@code library} (a regular file, not a link, that names that
   * library); empty when there is none or it cannot be read or parsed.
   */
  static Optional<BuildInfo> beside(Path library) {
    Path parent = library.getParent();
    Path name = library.getFileName();
    if (parent == null || name == null) {
      return Optional.empty();
    }
    Path file = parent.resolve(FILE_NAME);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      BuildInfo info = read(in, file.toString());
      return info.library().equals(name.toString()) ? Optional.of(info) : Optional.empty();
    } catch (IOException | IreeLibraryException e) {
      return Optional.empty();
    }
  }

  /** The IREE commit the library was built from, or {@code unknown}. */
  String commit() {
    return entries.getOrDefault("iree.commit", "unknown");
  }

  private static String required(Map<String, String> entries, String key, String where) {
    String value = entries.get(key);
    if (value == null || value.isEmpty()) {
      throw invalid(where, "has no " + key + " entry");
    }
    return value;
  }

  private static IreeLibraryException invalid(String where, String problem) {
    return new IreeLibraryException(
        "the "
            + FILE_NAME
            + " of IREE's runtime library in "
            + where
            + " "
            + problem
            + " ("
            + LibraryLocator.BUILD_SCRIPT
            + " writes a complete one): the native jar is"
            + " damaged or was not built from the script's install; rebuild it (the script, then"
            + " 'mvn install -pl runtime-iree-native -am')");
  }
}
