package dev.ireestubs.vmfb;

import java.io.IOException;
import java.util.Objects;

/**
 * The bytes are not a readable IREE module: empty, truncated, corrupt, or another kind of file (a
 * Git LFS pointer, text, a ZIP archive without {@code module.fb}, ...). The message names the
 * source, what was expected and what was found, with a byte offset where one helps.
 *
 * <p>It is an {@link IOException}, like {@link java.util.zip.ZipException}: a problem with the
 * contents of external data, handled where I/O failures are handled.
 */
public final class VmfbFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The file or source name given to the reader. */
  private final String sourceName;

  /** What is wrong, without the source name. */
  private final String detail;

  /**
   * An exception for a module file that is not a valid {@code .vmfb}; the message names the source
   * and the detail.
   *
   * @param sourceName the file or source name given to the reader
   * @param detail what is wrong: what was expected and what was found
   */
  public VmfbFormatException(String sourceName, String detail) {
    super(Objects.requireNonNull(sourceName, "sourceName") + ": " + detail);
    this.sourceName = sourceName;
    this.detail = Objects.requireNonNull(detail, "detail");
  }

  /**
   * The file or source name given to the reader.
   *
   * @return the name messages use for the input, such as a file path
   */
  public String sourceName() {
    return sourceName;
  }

  /**
   * What is wrong, without the source name.
   *
   * @return the problem on its own, for callers that print the source name themselves
   */
  public String detail() {
    return detail;
  }
}
