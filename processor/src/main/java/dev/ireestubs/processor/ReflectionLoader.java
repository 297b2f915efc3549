package dev.ireestubs.processor;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.processing.Filer;
import javax.tools.FileObject;
import javax.tools.JavaFileManager;
import javax.tools.StandardLocation;

/**
 * Finds a reflection file named by {@code @IreeModule(abi = ...)}: in the directory of the {@code
 * iree.reflectionDir} option, then through the {@link Filer} in the class output (where build
 * tools copy resources before compiling), the source path and the class path.
 */
final class ReflectionLoader {

  /** Larger files are refused: reflection is a few kilobytes; this is not one. */
  static final int MAX_BYTES = 64 << 20;

  /** The text of a file that was found, and where. */
  record Found(String text, String where) {}

  /** A file that was not found, or could not be read; the message says where it looked. */
  static final class LoadException extends Exception {
    private static final long serialVersionUID = 1L;

    LoadException(String message) {
      super(message);
    }
  }

  private static final List<StandardLocation> LOCATIONS =
      List.of(StandardLocation.CLASS_OUTPUT, StandardLocation.SOURCE_PATH, StandardLocation.CLASS_PATH);

  private final Filer filer;
  private final Optional<String> reflectionDir;

  ReflectionLoader(Filer filer, Optional<String> reflectionDir) {
    this.filer = Objects.requireNonNull(filer);
    this.reflectionDir = reflectionDir.filter(s -> !s.isBlank());
  }

  /**
   * Reads the resource {@code path} (relative to a resource root; a leading {@code /} is ignored).
   *
   * @throws LoadException when it is nowhere, or unreadable; the message lists every place tried
   */
  Found load(String path) throws LoadException {
    String relative = path.trim();
    while (relative.startsWith("/")) {
      relative = relative.substring(1);
    }
    if (relative.isEmpty()) {
      throw new LoadException("the resource path is empty");
    }
    List<String> tried = new ArrayList<>();
    if (reflectionDir.isPresent()) {
      String dir = reflectionDir.get();
      Path file;
      try {
        file = Paths.get(dir).resolve(relative);
      } catch (InvalidPathException e) {
        throw new LoadException(
            "the -Airee.reflectionDir=" + dir + " and \"" + relative + "\" do not make a path: "
                + e.getMessage());
      }
      if (Files.isRegularFile(file)) {
        try (InputStream in = Files.newInputStream(file)) {
          return new Found(read(in), file.toString());
        } catch (IOException e) {
          throw new LoadException("cannot read " + file + ": " + e);
        }
      }
      tried.add("-Airee.reflectionDir (" + file.toAbsolutePath() + ")");
    }
    for (JavaFileManager.Location location : LOCATIONS) {
      FileObject resource;
      try {
        resource = filer.getResource(location, "", relative);
      } catch (IllegalArgumentException e) {
        throw new LoadException(
            "\"" + relative + "\" is not a relative resource path (" + e.getMessage() + ")");
      } catch (IOException | RuntimeException e) {
        // Not there (FileNotFoundException), or a location this compiler does not have.
        tried.add(location.getName());
        continue;
      }
      InputStream in;
      try {
        in = resource.openInputStream();
      } catch (IOException | RuntimeException e) {
        tried.add(location.getName() + " (" + resource.toUri() + ")");
        continue;
      }
      try (in) {
        return new Found(read(in), resource.toUri().toString());
      } catch (IOException e) {
        throw new LoadException("cannot read " + resource.toUri() + ": " + e);
      }
    }
    throw new LoadException("not found; looked in " + String.join(", ", tried));
  }

  private static String read(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    int n;
    while ((n = in.read(buf)) > 0) {
      out.write(buf, 0, n);
      if (out.size() > MAX_BYTES) {
        throw new IOException("the file is over " + (MAX_BYTES >> 20) + " MB");
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(out.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IOException("not UTF-8 text", e);
    }
  }
}
