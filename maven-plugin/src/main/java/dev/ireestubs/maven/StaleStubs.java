package dev.ireestubs.maven;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the stubs whose model files changed since the iree-stubs processor generated them, and
 * makes the compiler see them as out of date. Independent of Maven's API, so that it is tested
 * directly and another build tool could use it.
 *
 * <p>The processor writes, beside each stub's source, a record of the files the stub was made from
 * ({@code Iree_Model.iree-inputs}: the top-level type that declares the interface, the stub, and
 * each file's size and content fingerprint). A record is stale when one of its files is gone or has
 * another size or fingerprint. The fingerprint is the processor's ({@code
 * dev.ireestubs.processor.source.InputRecord}): SHA-256 of the content, or of the first and last
 * {@value #SAMPLE_BYTES} bytes of a file over {@value #WHOLE_FILE_LIMIT} bytes. Modification times
 * are not used: resources are copied keeping them, so a replaced file may look older. Removing the
 * class file of the declaring type is what makes an incremental compiler (maven-compiler-plugin's
 * included) recompile its source, which runs the processor again: the stub is regenerated and
 * re-checked against the changed model.
 */
public final class StaleStubs {

  /** The suffix of the processor's records. */
  public static final String RECORD_SUFFIX = ".iree-inputs";

  /** Files up to this size are fingerprinted whole (as the processor does). */
  static final long WHOLE_FILE_LIMIT = 64L << 20;

  /** How much of each end of a larger file is fingerprinted (as the processor does). */
  static final int SAMPLE_BYTES = 16 << 20;

  /** Records longer than this are not records of ours. */
  private static final long MAX_RECORD_BYTES = 1 << 20;

  /**
   * One record of the processor: what it was generated from.
   *
   * @param file the record file, under the generated-sources folder
   * @param source the binary name of the type declaring the annotated interface; empty for a record
   *     that could not be read
   * @param stub the binary name of the generated stub; empty for a record that could not be read
   * @param inputs the model files the stub was made from
   */
  @SuppressWarnings("JavaLangClash") // nested: always named with its outer type
  public record Record(Path file, String source, String stub, List<Input> inputs) {
    /**
     * Checks that no component is null and keeps an unmodifiable copy of {@code inputs}.
     *
     * @param file the record file, under the generated-sources folder
     * @param source the binary name of the type declaring the annotated interface
     * @param stub the binary name of the generated stub
     * @param inputs the model files the stub was made from; copied
     * @throws NullPointerException when a component is null, or {@code inputs} holds a null
     */
    public Record {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(stub, "stub");
      inputs = List.copyOf(inputs);
    }
  }

  /**
   * One model file a stub was made from, with the size and fingerprint it had then.
   *
   * @param file the model file, as the processor found it
   * @param size its size in bytes when the stub was generated
   * @param fingerprint its SHA-256 fingerprint then, 64 lower-case hex digits
   */
  public record Input(Path file, long size, String fingerprint) {
    /**
     * Checks that the file and the fingerprint are not null.
     *
     * @param file the model file, as the processor found it
     * @param size its size in bytes when the stub was generated
     * @param fingerprint its SHA-256 fingerprint then, 64 lower-case hex digits
     * @throws NullPointerException when {@code file} or {@code fingerprint} is null
     */
    public Input {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(fingerprint, "fingerprint");
    }
  }

  /**
   * A stub that is out of date, and why.
   *
   * @param record the processor's record of the stub
   * @param reason one sentence naming the file that changed, is gone or cannot be read
   */
  public record Stale(Record record, String reason) {}

  private StaleStubs() {}

  /**
   * The stale stubs among the records under {@code generatedSources} (the folder the processor
   * writes sources to); none when the folder does not exist. An unreadable or malformed record
   * counts as stale, so that the worst case is one unnecessary recompilation.
   *
   * @param generatedSources the folder the processor writes sources (and its records) to
   * @return the stale stubs, in the order of their record files' paths; empty when none is stale
   * @throws IOException when the folder cannot be walked or a record cannot be read
   */
  public static List<Stale> find(Path generatedSources) throws IOException {
    List<Stale> stale = new ArrayList<>();
    if (!Files.isDirectory(generatedSources)) {
      return stale;
    }
    List<Path> records;
    try (Stream<Path> walk = Files.walk(generatedSources)) {
      records =
          walk.filter(p -> p.getFileName().toString().endsWith(RECORD_SUFFIX))
              .filter(Files::isRegularFile)
              .sorted()
              .toList();
    }
    for (Path file : records) {
      Optional<Record> record = read(file);
      if (record.isEmpty()) {
        stale.add(
            new Stale(
                new Record(file, "", "", List.of()),
                file + " is not a record iree-stubs can read"));
        continue;
      }
      changed(record.get()).ifPresent(reason -> stale.add(new Stale(record.get(), reason)));
    }
    return stale;
  }

  /**
   * Reads a record.
   *
   * @param file a file ending in {@value #RECORD_SUFFIX}
   * @return the record, or empty when the file is too large, malformed, or names an invalid class
   * @throws IOException when the file cannot be read
   */
  public static Optional<Record> read(Path file) throws IOException {
    if (Files.size(file) > MAX_RECORD_BYTES) {
      return Optional.empty();
    }
    String source = null;
    String stub = null;
    List<Input> inputs = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("source ")) {
        source = line.substring("source ".length()).trim();
      } else if (line.startsWith("stub ")) {
        stub = line.substring("stub ".length()).trim();
      } else if (line.startsWith("input ")) {
        String[] parts = line.split(" ", 4);
        if (parts.length != 4) {
          return Optional.empty();
        }
        try {
          if (!parts[2].matches("[0-9a-f]{64}")) {
            return Optional.empty();
          }
          inputs.add(new Input(Path.of(parts[3]), Long.parseLong(parts[1]), parts[2]));
        } catch (RuntimeException e) {
          return Optional.empty();
        }
      } else {
        return Optional.empty();
      }
    }
    if (source == null || stub == null || !isBinaryName(source) || !isBinaryName(stub)) {
      return Optional.empty();
    }
    return Optional.of(new Record(file, source, stub, inputs));
  }

  /**
   * Why {@code record} is out of date: a model file's size or fingerprint changed, or it is gone or
   * unreadable.
   *
   * @param record a record read by {@link #read}
   * @return one sentence naming the first such file, or empty when every file is as it was
   */
  public static Optional<String> changed(Record record) {
    for (Input input : record.inputs()) {
      try {
        if (Files.size(input.file()) != input.size()
            || !fingerprint(input.file()).equals(input.fingerprint())) {
          return Optional.of(
              input.file() + " changed since " + simple(record.stub()) + " was generated");
        }
      } catch (NoSuchFileException e) {
        return Optional.of(
            input.file() + " is gone since " + simple(record.stub()) + " was generated");
      } catch (IOException e) {
        return Optional.of(input.file() + " cannot be read (" + e.getMessage() + ")");
      }
    }
    return Optional.empty();
  }

  /**
   * The fingerprint of {@code file}: the processor's, described in the class comment.
   *
   * @param file a regular file
   * @return the SHA-256 digest as 64 lower-case hex digits
   * @throws IOException when the file cannot be read, or the JVM has no SHA-256
   */
  public static String fingerprint(Path file) throws IOException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("this JVM has no SHA-256", e);
    }
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = in.size();
      if (size <= WHOLE_FILE_LIMIT) {
        update(sha, in, 0, size);
      } else {
        update(sha, in, 0, SAMPLE_BYTES);
        update(sha, in, size - SAMPLE_BYTES, SAMPLE_BYTES);
      }
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  private static void update(MessageDigest sha, FileChannel in, long from, long length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    for (long at = from, end = from + length; at < end; ) {
      buffer.clear().limit((int) Math.min(buffer.capacity(), end - at));
      int n = in.read(buffer, at);
      if (n < 0) {
        return;
      }
      sha.update(buffer.flip());
      at += n;
    }
  }

  /**
   * Removes what makes the compiler think {@code stale} is up to date: the class files of the type
   * that declares the interface and of the stub (with their nested classes) under {@code classes},
   * and the record itself.
   *
   * @param stale the stale stub
   * @param classes the class output folder
   * @return the files removed; empty when none existed
   * @throws IOException when a file cannot be deleted
   */
  public static List<Path> invalidate(Stale stale, Path classes) throws IOException {
    List<Path> removed = new ArrayList<>();
    Record r = stale.record();
    for (String binaryName : List.of(r.source(), r.stub())) {
      if (binaryName.isEmpty()) {
        continue;
      }
      removeClassFiles(classes, binaryName, removed);
    }
    if (Files.deleteIfExists(r.file())) {
      removed.add(r.file());
    }
    return removed;
  }

  private static void removeClassFiles(Path classes, String binaryName, List<Path> removed)
      throws IOException {
    int dot = binaryName.lastIndexOf('.');
    Path dir = dot < 0 ? classes : classes.resolve(binaryName.substring(0, dot).replace('.', '/'));
    String simple = binaryName.substring(dot + 1);
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, simple + "{,$*}.class")) {
      for (Path f : files) {
        if (Files.deleteIfExists(f)) {
          removed.add(f);
        }
      }
    }
  }

  private static boolean isBinaryName(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (String part : s.split("\\.", -1)) {
      if (part.isEmpty() || !Character.isJavaIdentifierStart(part.codePointAt(0))) {
        return false;
      }
      if (!part.codePoints().allMatch(Character::isJavaIdentifierPart)) {
        return false;
      }
    }
    return true;
  }

  private static String simple(String binaryName) {
    return binaryName.substring(binaryName.lastIndexOf('.') + 1);
  }
}
