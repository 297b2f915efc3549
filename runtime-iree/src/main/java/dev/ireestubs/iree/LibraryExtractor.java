package dev.ireestubs.iree;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * Copies a runtime library out of a jar into a directory of its own (one per IREE release, platform
 * and SHA-256), so that the dynamic linker can open it, and checks the copy against the jar's
 * {@code BUILD-INFO} before it is used.
 *
 * <p>The cache root and every directory below it must be this user's alone ({@link
 * PrivateDirectories}): otherwise nothing is extracted or loaded. A file already there is used when
 * its SHA-256 and size are the recorded ones (so a library is extracted once, and a read-only
 * directory that already holds it works); one that differs is never used: it is replaced. A new
 * copy is written to a temporary file in the same directory, created new under an unpredictable
 * name (never through a link, never one already there) and written through the one channel that
 * created it, hashed while it is written, and moved over the final name with an atomic rename, so
 * several threads or processes extracting at once each rename a complete, identical file and none
 * sees a partial one. The final file is hashed again before it is returned, and once more by {@link
 * LibraryLoader} through the descriptor it loads.
 *
 * <p>Every failure is an {@link IreeLibraryException} saying what to do: a directory that cannot be
 * written, an entry that cannot be read (a damaged jar), a copy whose SHA-256 or size is not the
 * recorded one. Stateless.
 */
final class LibraryExtractor {
  private LibraryExtractor() {}

  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * The library {@code entry} extracted into {@code directory} under {@code info.library()},
   * checked against {@code info}.
   *
   * @param entry the library's URL (a {@code jar:} entry, or a file on the class path)
   * @param info the facts recorded beside it
   * @param root the cache root: it and every directory below it must be this user's alone ({@link
   *     PrivateDirectories})
   * @param directory the directory to extract into (made when missing), {@code root} or below it
   * @param how the remedies for an unusable directory, for messages
   * @return the extracted file, whose SHA-256 and size were just checked
   * @throws IreeLibraryException when it cannot be extracted or does not match {@code info}
   */
  static Path extract(URL entry, BuildInfo info, Path root, Path directory, String how) {
    Path real;
    try {
      real = PrivateDirectories.prepare(root, directory, how);
    } catch (IOException | UnsupportedOperationException e) {
      throw unwritable(directory, e, how);
    }
    return extract(entry, info, real, how);
  }

  /** {@link #extract(URL, BuildInfo, Path, Path, String)} into a directory already checked. */
  private static Path extract(URL entry, BuildInfo info, Path directory, String how) {
    Path target = directory.resolve(info.library());
    if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS) && matches(target, info)) {
      return target;
    }
    Path temporary = directory.resolve("." + info.library() + "." + randomName() + ".tmp");
    SeekableByteChannel channel;
    try {
      channel = createNew(temporary);
    } catch (IOException | UnsupportedOperationException e) {
      throw unwritable(directory, e, how);
    }
    try {
      Copied copied = copy(entry, channel, info);
      String sha256 = copied.sha256();
      long size = copied.size();
      if (!sha256.equals(info.sha256()) || size != info.size()) {
        throw new IreeLibraryException(
            "IREE's runtime library in "
                + entry
                + " has SHA-256 "
                + sha256
                + " ("
                + size
                + " bytes), but the "
                + BuildInfo.FILE_NAME
                + " beside it records "
                + info.sha256()
                + " ("
                + info.size()
                + " bytes): the jar is damaged or was"
                + " altered after it was built; nothing was loaded. Fetch or rebuild the jar"
                + " ("
                + LibraryLocator.BUILD_SCRIPT
                + ", then 'mvn install -pl"
                + " runtime-iree-native -am')");
      }
      moveIntoPlace(temporary, target, info);
    } catch (IOException e) {
      throw unwritable(directory, e, how);
    } finally {
      try {
        Files.deleteIfExists(temporary);
      } catch (IOException e) {
        // a leftover temporary file is harmless: it is never used
      }
    }
    if (!matches(target, info)) {
      throw new IreeLibraryException(
          "IREE's runtime library extracted to "
              + target
              + " changed after it was written (its"
              + " SHA-256 is no longer "
              + info.sha256()
              + "): something else writes into "
              + directory
              + "; give this process a directory of its own with -D"
              + IreeLibrary.CACHE_PROPERTY
              + "=DIR");
    }
    return target;
  }

  /** Whether {@code file}'s size and SHA-256 are the recorded ones; false when it is unreadable. */
  static boolean matches(Path file, BuildInfo info) {
    try {
      if (Files.size(file) != info.size()) {
        return false;
      }
      MessageDigest digest = sha256();
      byte[] buffer = new byte[64 * 1024];
      try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
        for (int n; (n = in.read(buffer)) > 0; ) {
          digest.update(buffer, 0, n);
        }
      }
      return HexFormat.of().formatHex(digest.digest()).equals(info.sha256());
    } catch (IOException e) {
      return false;
    }
  }

  // ----------------------------------------------------------------------------------------------

  /**
   * Copies {@code entry} into {@code file} (at most one byte more than the recorded size) and
   * returns the SHA-256 of what was copied. A failure to read is a damaged jar; to write, an
   * unusable directory (the {@link IOException}).
   */
  private record Copied(String sha256, long size) {}

  private static Copied copy(URL entry, SeekableByteChannel file, BuildInfo info)
      throws IOException {
    MessageDigest digest = sha256();
    byte[] buffer = new byte[64 * 1024];
    long written = 0;
    try (OutputStream out = Channels.newOutputStream(file);
        InputStream in = open(entry)) {
      while (written <= info.size()) {
        int n;
        try {
          n = in.read(buffer);
        } catch (IOException e) {
          throw unreadable(entry, e);
        }
        if (n < 0) {
          break;
        }
        digest.update(buffer, 0, n);
        out.write(buffer, 0, n);
        written += n;
      }
    }
    return new Copied(HexFormat.of().formatHex(digest.digest()), written);
  }

  private static InputStream open(URL entry) {
    try {
      URLConnection connection = entry.openConnection();
      connection.setUseCaches(false); // no JarFile kept open (and stale) after the copy
      return connection.getInputStream();
    } catch (IOException e) {
      throw unreadable(entry, e);
    }
  }

  private static void moveIntoPlace(Path temporary, Path target, BuildInfo info)
      throws IOException {
    try {
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      // Where an open library cannot be replaced (Windows), another process may have put the same
      // file there first: that one will do.
      if (!(Files.isRegularFile(target) && matches(target, info))) {
        throw e;
      }
    }
  }

  /**
   * A new file, made here (never one already there, nor through a symbolic link) readable and
   * runnable by this user only, open for writing: what is written is what was created.
   *
   * @throws java.nio.file.FileAlreadyExistsException when anything, a link included, has the name
   */
  static SeekableByteChannel createNew(Path file) throws IOException {
    Set<OpenOption> options =
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      return Files.newByteChannel(
          file,
          options,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-x------")));
    }
    return Files.newByteChannel(file, options);
  }

  private static String randomName() {
    byte[] bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static IreeLibraryException unreadable(URL entry, IOException e) {
    return new IreeLibraryException(
        "cannot read IREE's runtime library from "
            + entry
            + ": "
            + e
            + ". The jar is damaged;"
            + " fetch or rebuild it ("
            + LibraryLocator.BUILD_SCRIPT
            + ", then 'mvn install -pl"
            + " runtime-iree-native -am')",
        e);
  }

  private static IreeLibraryException unwritable(Path directory, Exception e, String how) {
    return new IreeLibraryException(
        "cannot extract IREE's runtime library from the class path into "
            + directory
            + ": "
            + e
            + ". "
            + how,
        e);
  }
}
