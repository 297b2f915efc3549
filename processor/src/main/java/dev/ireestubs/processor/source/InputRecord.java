package dev.ireestubs.processor.source;

import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Writes, beside a generated stub's source, the list of model files the stub was made from, so that
 * a build tool can tell that a stub is stale when a model changed but no source did (the compiler
 * alone would say "nothing to compile"). The iree-stubs Maven plugin reads these records; the
 * format is line-based text:
 *
 * <pre>
 * # comment lines
 * source &lt;binary name of the top-level type whose source declares the interface&gt;
 * stub &lt;binary name of the generated stub&gt;
 * input &lt;size in bytes&gt; &lt;fingerprint&gt; &lt;absolute path&gt;
 * </pre>
 *
 * <p>The fingerprint is the SHA-256 (hex) of the file's content, or, for a file over {@value
 * #WHOLE_FILE_LIMIT} bytes (a module with its weights inside), of its first and last {@value
 * #SAMPLE_BYTES} bytes, so that a build never reads gigabytes to learn that nothing changed.
 * Modification times are not used: build tools copy resources keeping them, so a replaced file can
 * carry an older time than the copy it replaces. The Maven plugin computes the same fingerprint
 * ({@code dev.ireestubs.maven.StaleStubs}); the two must change together.
 *
 * <p>The record is named {@code <stub simple name>.iree-inputs} and lives in the stub's package of
 * the generated-sources folder, which compilers and packagers ignore for anything but {@code
 * .java}.
 */
public final class InputRecord {

  /** The file name suffix build tools look for. */
  static final String SUFFIX = ".iree-inputs";

  /** Files up to this size are fingerprinted whole. */
  static final long WHOLE_FILE_LIMIT = 64L << 20;

  /** How much of each end of a larger file is fingerprinted. */
  static final int SAMPLE_BYTES = 16 << 20;

  private InputRecord() {}

  /** The fingerprint of {@code file}'s content, as described in the class comment. */
  static String fingerprint(Path file) throws IOException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("this JVM has no SHA-256", e);
    }
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = in.size();
      if (size <= WHOLE_FILE_LIMIT) {
        digest(in, 0, size, sha);
      } else {
        digest(in, 0, SAMPLE_BYTES, sha);
        digest(in, size - SAMPLE_BYTES, SAMPLE_BYTES, sha);
      }
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  private static void digest(FileChannel in, long from, long length, MessageDigest sha)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    long at = from;
    long end = from + length;
    while (at < end) {
      buffer.clear().limit((int) Math.min(buffer.capacity(), end - at));
      int n = in.read(buffer, at);
      if (n < 0) {
        break;
      }
      buffer.flip();
      sha.update(buffer);
      at += n;
    }
  }

  /**
   * Writes the record of {@code stub}, generated for {@code iface}; nothing when no file was read.
   */
  public static void write(
      Filer filer,
      Elements elements,
      TypeElement iface,
      String stubBinaryName,
      List<ReflectionLoader.Input> inputs)
      throws IOException {
    if (inputs.isEmpty()) {
      return;
    }
    PackageElement pkg = elements.getPackageOf(iface);
    String simpleStub = stubBinaryName.substring(stubBinaryName.lastIndexOf('.') + 1);
    FileObject file =
        filer.createResource(
            StandardLocation.SOURCE_OUTPUT,
            pkg.getQualifiedName().toString(),
            simpleStub + SUFFIX,
            iface);
    try (Writer out = file.openWriter()) {
      out.write(text(elements.getBinaryName(topLevel(iface)).toString(), stubBinaryName, inputs));
    }
  }

  /** The record's text. */
  static String text(String source, String stub, List<ReflectionLoader.Input> inputs) {
    StringBuilder b = new StringBuilder();
    b.append("# Written by the iree-stubs annotation processor: the files ")
        .append(stub)
        .append(" was generated from.\n")
        .append("# The iree-stubs Maven plugin recompiles ")
        .append(source)
        .append(" when one of them changes.\n")
        .append("source ")
        .append(source)
        .append('\n')
        .append("stub ")
        .append(stub)
        .append('\n');
    for (ReflectionLoader.Input input : inputs) {
      String path = input.file().toString();
      if (path.indexOf('\n') >= 0 || path.indexOf('\r') >= 0) {
        continue; // a path no line-based record can hold; such a file is not tracked
      }
      b.append("input ")
          .append(input.size())
          .append(' ')
          .append(input.fingerprint())
          .append(' ')
          .append(path)
          .append('\n');
    }
    return b.toString();
  }

  private static TypeElement topLevel(TypeElement type) {
    TypeElement top = type;
    for (Element e = type; e != null; e = e.getEnclosingElement()) {
      if (e.getKind().isClass() || e.getKind().isInterface() || e.getKind() == ElementKind.ENUM) {
        top = (TypeElement) e;
      }
    }
    return top;
  }
}
