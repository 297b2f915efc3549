package dev.ireestubs.processor.source;

import dev.ireestubs.processor.diagnostics.SourceFiles;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
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
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.tools.FileObject;
import javax.tools.JavaFileManager;
import javax.tools.StandardLocation;

/**
 * Finds a file named by {@code @IreeModule(abi = ...)} or {@code @IreeModule(vmfb = ...)}: in the
 * directory of the {@code iree.reflectionDir} option, then through the {@link Filer} in the class
 * output (where Maven copies resources before compiling) and the source path, then in the resource
 * folders beside the interface's source folder ({@code src/main/resources} next to {@code
 * src/main/java}, where Gradle leaves them), then on the class path.
 *
 * <p>It remembers every file it read from disk ({@link #inputs()}), so that the processor can
 * record what a stub was generated from and build tools can tell when it is stale.
 */
public final class ReflectionLoader {

  /**
   * The processor option naming a directory searched first: {@code
   * -Airee.reflectionDir=<directory>}.
   */
  public static final String REFLECTION_DIR_OPTION = "iree.reflectionDir";

  /** Larger JSON files are refused: reflection is a few kilobytes; this is not one. */
  static final int MAX_BYTES = 64 << 20;

  /**
   * Larger modules are refused when they can only be read as a stream (a resource inside a jar): a
   * module on disk is read in place, only its directory and FlatBuffer, whatever its size.
   */
  static final int MAX_STREAMED_MODULE_BYTES = 1 << 30;

  /** The text of a file that was found, and where. */
  public record Found(String text, String where) {}

  /** A compiled module that was found and read, and where. */
  public record FoundModule(VmfbModule module, String where) {}

  /**
   * A file that was not found or could not be read (the message says where it looked), or, for a
   * module, was found but is not a readable one ({@link #where()} then says where it is).
   */
  public static final class LoadException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String where;

    LoadException(String message) {
      this(message, null);
    }

    LoadException(String message, String where) {
      super(message);
      this.where = where;
    }

    /** Where the file was found, when it was found but is not usable; else empty. */
    public Optional<String> where() {
      return Optional.ofNullable(where);
    }
  }

  /**
   * A file that was read, with what identifies its content: a changed size or fingerprint means the
   * stub made from it may be stale (see {@link InputRecord#fingerprint}).
   */
  public record Input(Path file, long size, String fingerprint) {
    /** Checks that every part is there. */
    public Input {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(fingerprint, "fingerprint");
    }
  }

  /** How a found file is read: in place when it is on disk, else as a stream. */
  private interface Reader<T> {
    T read(Path file, String where) throws IOException, LoadException;

    T read(InputStream in, String where) throws IOException, LoadException;
  }

  private static final List<StandardLocation> LOCATIONS =
      List.of(
          StandardLocation.CLASS_OUTPUT, StandardLocation.SOURCE_PATH, StandardLocation.CLASS_PATH);

  private final Filer filer;
  private final Optional<String> reflectionDir;
  private final List<Path> besideSources;
  private final List<Input> inputs = new ArrayList<>();

  /**
   * A loader for one interface.
   *
   * @param reflectionDir the {@code iree.reflectionDir} option, when set
   * @param besideSources resource folders beside the interface's source folder, searched after the
   *     class output and the source path (see {@link #resourceFoldersBeside})
   */
  ReflectionLoader(Filer filer, Optional<String> reflectionDir, List<Path> besideSources) {
    this.filer = Objects.requireNonNull(filer);
    this.reflectionDir = reflectionDir.filter(s -> !s.isBlank());
    this.besideSources = List.copyOf(besideSources);
  }

  /**
   * A loader for the files that {@code element} (an interface, or a package for derive mode) names:
   * it looks in the directory of {@code env}'s {@value #REFLECTION_DIR_OPTION} option, through its
   * Filer, and in the resource folders beside {@code element}'s source folder.
   */
  public static ReflectionLoader beside(
      Element element, ProcessingEnvironment env, SourceFiles sourceFiles) {
    List<Path> folders;
    try {
      String pkg = env.getElementUtils().getPackageOf(element).getQualifiedName().toString();
      folders =
          sourceFiles.fileOf(element).map(f -> resourceFoldersBeside(f, pkg)).orElse(List.of());
    } catch (RuntimeException e) {
      folders = List.of();
    }
    return new ReflectionLoader(
        env.getFiler(), Optional.ofNullable(env.getOptions().get(REFLECTION_DIR_OPTION)), folders);
  }

  /**
   * The resource folders that sit beside the source folder of a source file: for {@code
   * .../src/main/java/com/acme/Model.java} in package {@code com.acme}, {@code
   * .../src/main/resources} when it exists. Empty when the file's path does not end in its package
   * (then there is no source folder to speak of).
   */
  static List<Path> resourceFoldersBeside(Path sourceFile, String packageName) {
    Path root = sourceFile.toAbsolutePath().getParent();
    if (!packageName.isEmpty()) {
      String[] parts = packageName.split("\\.");
      for (int i = parts.length - 1; i >= 0; i--) {
        if (root == null
            || root.getFileName() == null
            || !root.getFileName().toString().equals(parts[i])) {
          return List.of();
        }
        root = root.getParent();
      }
    }
    if (root == null || root.getParent() == null) {
      return List.of();
    }
    Path resources = root.resolveSibling("resources");
    return Files.isDirectory(resources) ? List.of(resources) : List.of();
  }

  /** The files read from disk so far, in the order they were read. */
  public List<Input> inputs() {
    return List.copyOf(inputs);
  }

  /**
   * Reads the UTF-8 text resource {@code path} (relative to a resource root; a leading {@code /} is
   * ignored).
   *
   * @throws LoadException when it is nowhere, or unreadable; the message lists every place tried
   */
  public Found load(String path) throws LoadException {
    return find(
        path,
        new Reader<Found>() {
          @Override
          public Found read(Path file, String where) throws IOException {
            try (InputStream in = Files.newInputStream(file)) {
              return read(in, where);
            }
          }

          @Override
          public Found read(InputStream in, String where) throws IOException {
            return new Found(text(bytes(in, MAX_BYTES)), where);
          }
        });
  }

  /**
   * Reads the compiled module {@code path} (relative to a resource root, like {@link #load}) with
   * {@link VmfbReader}: a file on disk in place, a resource in an archive from its bytes.
   *
   * @throws LoadException when it is nowhere or unreadable (the message lists every place tried),
   *     or is not a readable module ({@link LoadException#where()} is then set and the message is
   *     the reader's, without the file name)
   */
  public FoundModule loadModule(String path) throws LoadException {
    return find(
        path,
        new Reader<FoundModule>() {
          @Override
          public FoundModule read(Path file, String where) throws IOException, LoadException {
            try {
              return new FoundModule(VmfbReader.read(file), where);
            } catch (VmfbFormatException e) {
              throw new LoadException(e.detail(), where);
            }
          }

          @Override
          public FoundModule read(InputStream in, String where) throws IOException, LoadException {
            byte[] bytes = bytes(in, MAX_STREAMED_MODULE_BYTES);
            try {
              return new FoundModule(VmfbReader.read(bytes, where), where);
            } catch (VmfbFormatException e) {
              throw new LoadException(e.detail(), where);
            }
          }
        });
  }

  private <T> T find(String path, Reader<T> reader) throws LoadException {
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
            "the -Airee.reflectionDir="
                + dir
                + " and \""
                + relative
                + "\" do not make a path: "
                + e.getMessage());
      }
      if (Files.isRegularFile(file)) {
        return readFile(file, file.toString(), reader);
      }
      tried.add("-Airee.reflectionDir (" + file.toAbsolutePath() + ")");
    }
    for (JavaFileManager.Location location : LOCATIONS) {
      if (location == StandardLocation.CLASS_PATH) {
        for (Path folder : besideSources) {
          Path file;
          try {
            file = folder.resolve(relative);
          } catch (InvalidPathException e) {
            continue;
          }
          if (Files.isRegularFile(file)) {
            return readFile(file, file.toUri().toString(), reader);
          }
          tried.add("the resources beside the sources (" + folder + ")");
        }
      }
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
      String where = resource.toUri().toString();
      Optional<Path> onDisk = fileOf(resource);
      if (onDisk.isPresent()) {
        return readFile(onDisk.get(), where, reader);
      }
      InputStream in;
      try {
        in = resource.openInputStream();
      } catch (IOException | RuntimeException e) {
        tried.add(location.getName() + " (" + where + ")");
        continue;
      }
      try (in) {
        return reader.read(in, where);
      } catch (IOException e) {
        throw new LoadException("cannot read " + where + ": " + e);
      }
    }
    throw new LoadException("not found; looked in " + String.join(", ", tried));
  }

  /** Reads a file on disk and remembers it as an input. */
  private <T> T readFile(Path file, String where, Reader<T> reader) throws LoadException {
    T result;
    Input input;
    try {
      result = reader.read(file, where);
      input = new Input(file.toAbsolutePath(), Files.size(file), InputRecord.fingerprint(file));
    } catch (IOException e) {
      throw new LoadException("cannot read " + where + ": " + e);
    }
    inputs.add(input);
    return result;
  }

  /** The file behind {@code resource} when it is a regular file on the default file system. */
  private static Optional<Path> fileOf(FileObject resource) {
    try {
      URI uri = resource.toUri();
      if (!"file".equalsIgnoreCase(uri.getScheme())) {
        return Optional.empty();
      }
      Path p = Paths.get(uri);
      return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static byte[] bytes(InputStream in, int max) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    int n;
    while ((n = in.read(buf)) > 0) {
      out.write(buf, 0, n);
      if (out.size() > max) {
        throw new IOException(
            "the file is over "
                + (max >> 20)
                + " MB"
                + (max == MAX_BYTES
                    ? ""
                    : "; put the module in a directory (-A"
                        + REFLECTION_DIR_OPTION
                        + "=<directory>) so that it is read in place"));
      }
    }
    return out.toByteArray();
  }

  private static String text(byte[] bytes) throws IOException {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IOException("not UTF-8 text", e);
    }
  }
}
