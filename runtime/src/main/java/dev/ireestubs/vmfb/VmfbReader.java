package dev.ireestubs.vmfb;

import dev.ireestubs.abi.BytecodeTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Reads a compiled IREE module ({@code .vmfb}) of any era into a {@link VmfbModule}: a bare,
 * size-prefixed or ZIP-wrapped FlatBuffer with identifier {@code IREE} or {@code BMOD}, in every
 * {@link VmfbSchemaEra schema layout} from 2019 to today.
 *
 * <p>The input is untrusted: every offset and length is checked before use, and anything that is
 * not a readable module (empty, truncated, corrupt, a Git LFS pointer, text, a ZIP archive without
 * a stored {@code module.fb}) is a {@link VmfbFormatException} naming the source and what is wrong.
 * Reading takes time and memory linear in the input's size at most.
 *
 * <p>Thread-safe: the methods are static and share nothing.
 */
public final class VmfbReader {

  /** The name of the module entry in an IREE ZIP archive. */
  public static final String MODULE_ENTRY = "module.fb";

  private static final String LFS_POINTER = "version https://git-lfs.github.com/spec/";
  private static final int HEAD = 256;

  private VmfbReader() {}

  /**
   * Reads the module in a file, named by its path in messages. Only the ZIP directory and the
   * module's FlatBuffer are read, so files over 2 GiB (large embedded constants) are fine.
   *
   * @param path the {@code .vmfb} file to read
   * @return the module's name, exports, imports and reflection as the file records them
   * @throws VmfbFormatException when the file is not a readable IREE module
   * @throws IOException when the file cannot be read
   */
  public static VmfbModule read(Path path) throws IOException {
    Objects.requireNonNull(path, "path");
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      return read(ByteSource.of(channel, path.toString()));
    }
  }

  /**
   * Reads a module from bytes.
   *
   * @param sourceName how messages name the input, e.g. a file or resource name
   * @param bytes the whole {@code .vmfb} file, or a bare module FlatBuffer
   * @return the module as the bytes record it
   * @throws VmfbFormatException when the bytes are not a readable IREE module
   */
  public static VmfbModule read(byte[] bytes, String sourceName) throws VmfbFormatException {
    Objects.requireNonNull(bytes, "bytes");
    return read(ByteBuffer.wrap(bytes), sourceName);
  }

  /**
   * Reads a module from the buffer's remaining bytes (position to limit). The buffer's position,
   * limit and contents are left as they are, and nothing refers to it afterwards; it must not be
   * modified while this runs.
   *
   * @param sourceName how messages name the input, e.g. a file or resource name
   * @param buffer the bytes of the whole {@code .vmfb} file, or of a bare module FlatBuffer
   * @return the module as the bytes record it
   * @throws VmfbFormatException when the bytes are not a readable IREE module
   */
  public static VmfbModule read(ByteBuffer buffer, String sourceName) throws VmfbFormatException {
    Objects.requireNonNull(buffer, "buffer");
    Objects.requireNonNull(sourceName, "sourceName");
    try {
      return read(ByteSource.of(buffer, sourceName));
    } catch (VmfbFormatException e) {
      throw e;
    } catch (IOException e) {
      // In-memory sources do no I/O.
      throw new UncheckedIOException(e);
    }
  }

  /** Given the FlatBuffer and root contents of a module instead of building it (tests). */
  interface Listing {
    void accept(FlatBuffer fb, ModuleDefReader.Contents contents) throws VmfbFormatException;
  }

  /** Reads bytes up to the root contents and hands them to {@code listing} (tests). */
  static void inspect(byte[] bytes, String sourceName, Listing listing) throws IOException {
    read(ByteSource.of(ByteBuffer.wrap(bytes), sourceName), listing);
  }

  private static VmfbModule read(ByteSource src) throws IOException {
    return read(src, null);
  }

  private static VmfbModule read(ByteSource src, Listing listing) throws IOException {
    long size = src.size();
    if (size == 0) {
      throw src.error(
          "the input is empty (0 bytes); an IREE module (.vmfb) is a ZIP archive holding "
              + MODULE_ENTRY
              + ", or a FlatBuffer with file identifier IREE");
    }
    byte[] head = src.bytes(0, (int) Math.min(size, HEAD), "the file header");
    if (startsWith(head, LFS_POINTER)) {
      throw src.error(lfsPointer(head, size));
    }
    if (size >= 4 && le(head).getInt(0) == ZipDirectory.LOCAL_HEADER) {
      ZipDirectory.Entry entry = ZipDirectory.findStored(src, MODULE_ENTRY);
      return flatBuffer(src, entry.dataOffset(), entry.size(), true, listing);
    }
    return flatBuffer(src, 0, size, false, listing);
  }

  /**
   * Reads the module whose FlatBuffer, bare or size-prefixed, starts at {@code start} and has
   * {@code length} bytes available (the file, or the ZIP entry).
   */
  private static VmfbModule flatBuffer(
      ByteSource src, long start, long length, boolean zip, Listing listing) throws IOException {
    String where = zip ? "ZIP entry " + MODULE_ENTRY : "the input";
    byte[] h = src.bytes(start, (int) Math.min(length, 48), where);
    if (length < 8) {
      throw src.error(
          where
              + " has "
              + length
              + " bytes, too few for an IREE module (a FlatBuffer starts with an 8-byte"
              + " header)"
              + describe(h));
    }
    String bareIdentifier = ascii(h, 4);
    long flatBufferStart;
    long flatBufferLength;
    String identifier;
    boolean sizePrefixed;
    if (isIdentifier(bareIdentifier)) {
      identifier = bareIdentifier;
      flatBufferStart = start;
      flatBufferLength = length;
      sizePrefixed = false;
    } else if (length >= 12 && isIdentifier(ascii(h, 8))) {
      identifier = ascii(h, 8);
      long prefix = Integer.toUnsignedLong(le(h).getInt(0));
      // IREE's archive writer pads module.fb and its size prefix counts 4 bytes past the entry's
      // recorded size, so inside a ZIP the bound is the entry's size (or the file's end).
      long room = zip ? Math.min(length, src.size() - start - 4) : length - 4;
      if (prefix < 8 || prefix > room) {
        throw src.error(
            where
                + ": the size prefix says the FlatBuffer has "
                + prefix
                + " bytes, but "
                + (prefix < 8
                    ? "a FlatBuffer has at least 8"
                    : "only " + room + " follow it; the file is truncated or corrupt"));
      }
      flatBufferStart = start + 4;
      flatBufferLength = prefix;
      sizePrefixed = true;
    } else {
      throw src.error(notAModule(where, h));
    }
    ByteBuffer view = src.slice(flatBufferStart, flatBufferLength, where);
    FlatBuffer fb = new FlatBuffer(view, flatBufferStart, src.name);
    ModuleDefReader.Contents c = ModuleDefReader.read(fb, identifier, sizePrefixed);
    if (listing != null) {
      listing.accept(fb, c);
      return null;
    }
    List<VmfbImport> imports = ImportReader.imports(fb, fb.root(), c.era());
    List<String> scopes = ImportReader.parameterScopes(fb, fb.root(), c.era(), imports);
    List<BytecodeTypes> types =
        BytecodeTypeReader.read(fb, c.code(), c.bytecodeVersion(), imports, c.exports());
    List<YieldReach> yields =
        YieldReader.read(fb, c.code(), c.bytecodeVersion(), imports, c.exports());
    List<VmfbExport> exports = new ArrayList<>(c.exports().size());
    for (int i = 0; i < types.size(); i++) {
      VmfbExport e = c.exports().get(i);
      exports.add(
          new VmfbExport(
              e.name(),
              e.internalOrdinal(),
              e.callingConvention(),
              e.attributes(),
              e.implementation(),
              types.get(i),
              yields.get(i)));
    }
    return new VmfbModule(
        src.name,
        zip ? VmfbContainer.ZIP : sizePrefixed ? VmfbContainer.SIZE_PREFIXED : VmfbContainer.BARE,
        sizePrefixed,
        flatBufferStart,
        identifier,
        c.era(),
        c.name(),
        c.version(),
        c.bytecodeVersion(),
        c.attributes(),
        exports,
        c.internalFunctions(),
        imports,
        scopes,
        ImportReader.dependencies(fb, fb.root(), c.era()));
  }

  private static boolean isIdentifier(String s) {
    return s.equals("IREE") || s.equals("BMOD");
  }

  private static String notAModule(String where, byte[] h) {
    return where
        + " is not an IREE module: expected the FlatBuffer file identifier IREE (or BMOD before"
        + " 2021-05) at byte 4, or at byte 8 after a size prefix"
        + describe(h);
  }

  /** What the first bytes look like, for messages. */
  private static String describe(byte[] h) {
    if (h.length == 0) {
      return "";
    }
    if (looksLikeText(h)) {
      String text = new String(h, StandardCharsets.UTF_8);
      String hint =
          text.stripLeading().startsWith("{")
              ? " (JSON text: IREE can write a module as FlatBuffer JSON for debugging; this"
                  + " reader needs the binary module)"
              : " (text, not a binary module)";
      return "; found " + quote(text) + hint;
    }
    StringBuilder hex = new StringBuilder("; found bytes");
    for (byte b : Arrays.copyOf(h, Math.min(h.length, 16))) {
      hex.append(String.format(" %02x", b & 0xFF));
    }
    return hex.toString();
  }

  private static String lfsPointer(byte[] head, long size) {
    String text = new String(head, StandardCharsets.ISO_8859_1);
    String oid = field(text, "oid ");
    String realSize = field(text, "size ");
    return "this is a Git LFS pointer file ("
        + size
        + " bytes of text), not the module itself"
        + (oid.isEmpty() && realSize.isEmpty()
            ? ""
            : " (the real file: "
                + (realSize.isEmpty() ? "" : realSize + " bytes")
                + (oid.isEmpty() || realSize.isEmpty() ? "" : ", ")
                + oid
                + ")")
        + "; fetch it with `git lfs pull` (or install Git LFS before cloning)";
  }

  private static String field(String text, String prefix) {
    for (String line : text.split("\n", -1)) {
      if (line.startsWith(prefix)) {
        String value = line.substring(prefix.length()).strip();
        return value.length() > 80 ? value.substring(0, 80) + "..." : value;
      }
    }
    return "";
  }

  private static boolean looksLikeText(byte[] h) {
    for (byte b : h) {
      int c = b & 0xFF;
      if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
        return false;
      }
      if (c == 0x7F) {
        return false;
      }
    }
    return true;
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20 || c >= 0x7F) {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  private static String ascii(byte[] h, int at) {
    return at + 4 <= h.length ? new String(h, at, 4, StandardCharsets.ISO_8859_1) : "";
  }

  private static boolean startsWith(byte[] h, String prefix) {
    byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
    if (h.length < p.length) {
      return false;
    }
    for (int i = 0; i < p.length; i++) {
      if (h[i] != p[i]) {
        return false;
      }
    }
    return true;
  }

  private static ByteBuffer le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }
}
