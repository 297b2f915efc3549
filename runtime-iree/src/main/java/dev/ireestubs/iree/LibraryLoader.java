package dev.ireestubs.iree;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * Opens IREE's runtime library once, checking the file that is loaded: the steps of {@code
 * docs/iree-runtime.md} ("Loading IREE's runtime library").
 *
 * <ol>
 *   <li>The file (a real path: no link left to follow) is opened for reading with {@code O_NOFOLLOW
 *       | O_NONBLOCK}, and everything below goes through that descriptor, as {@code
 *       /proc/self/fd/N}: what is checked is what is loaded, whatever is renamed over the path
 *       meanwhile. The descriptor stays open while the library is loaded (the dynamic linker knows
 *       a library by the name it was opened with, so that name must stay unique).
 *   <li>It must be a regular file (a named pipe, device or directory is refused without waiting on
 *       it) that no one but its owner may write.
 *   <li>When a {@code BUILD-INFO} describes it, its size and SHA-256 must be the recorded ones.
 *   <li>It is opened with {@code dlopen(RTLD_NOW)}: every symbol it uses must resolve now (the
 *       JVM's lazy binding would end the process at the first call to a missing one, exit code
 *       127); the dynamic linker's complaint is the exception's message. Its symbols are then found
 *       with {@code dlsym} on that one handle.
 * </ol>
 *
 * <p>Where {@code /proc/self/fd} or the {@code open} flags are unknown (macOS, other CPUs) the same
 * checks run on the path and the library is opened by path: then only the directory checks ({@link
 * PrivateDirectories}) keep others from swapping it between check and load. Without {@code dlopen}
 * (Windows) the JDK's {@link SymbolLookup#libraryLookup(Path, Arena)} loads it (its loader resolves
 * every import at once). Stateless.
 */
@SuppressWarnings("restricted") // loading native code is the point
final class LibraryLoader {
  private LibraryLoader() {}

  private static final int FILE_TYPE = 0170000;
  private static final int REGULAR = 0100000;
  private static final int GROUP_OR_OTHERS_WRITE = 0022;

  /**
   * A library opened for good.
   *
   * @param lookup its symbols
   * @param unload closes it again, for a library refused after it was opened (its symbols)
   */
  record Opened(SymbolLookup lookup, Runnable unload) {}

  /**
   * Opens {@code file} (see the class comment).
   *
   * @param file the library's real path
   * @param source where its path came from, for messages
   * @param origin where it came from, for the remedy in messages
   * @param info what its {@code BUILD-INFO} records, checked when present
   * @throws IreeLibraryException when it is no regular file, others may write it, it is not the
   *     file {@code info} describes, or the dynamic linker cannot open it with every symbol
   *     resolved
   */
  static Opened open(
      Path file, String source, IreeLibrary.Origin origin, Optional<BuildInfo> info) {
    return open(file, source, origin, info, () -> {});
  }

  /** {@link #open}, running {@code checked} after the checks and before the load (for tests). */
  static Opened open(
      Path file,
      String source,
      IreeLibrary.Origin origin,
      Optional<BuildInfo> info,
      Runnable checked) {
    if (Libc.canLoadByDescriptor()) {
      int fd;
      try {
        fd = Libc.open(file);
      } catch (IOException e) {
        throw new IreeLibraryException(
            named(file, source) + " cannot be opened: " + e.getMessage(), e);
      }
      // The descriptor stays open as long as the library is loaded: the dynamic linker knows a
      // library by the name it was opened with and returns the loaded one for the same name, so
      // /proc/self/fd/N must not name another file while this one is loaded.
      boolean loaded = false;
      try {
        Path opened = Path.of("/proc/self/fd/" + fd);
        check(opened, file, source, info); // the open file itself: the magic link is followed
        checked.run();
        Opened library = dlopen(opened.toString(), file, source, origin);
        loaded = true;
        return new Opened(
            library.lookup(),
            () -> {
              library.unload().run();
              Libc.close(fd);
            });
      } finally {
        if (!loaded) {
          Libc.close(fd);
        }
      }
    }
    check(file, file, source, info);
    checked.run();
    if (Libc.hasDlopen()) {
      return dlopen(file.toString(), file, source, origin);
    }
    Arena arena = Arena.ofShared();
    try {
      return new Opened(SymbolLookup.libraryLookup(file, arena), arena::close);
    } catch (IllegalCallerException e) {
      arena.close();
      throw new IreeLibraryException(
          named(file, source)
              + " cannot be loaded: "
              + e.getMessage()
              + "; run Java with --enable-native-access=ALL-UNNAMED (or the module name)",
          e);
    } catch (IllegalArgumentException e) {
      arena.close();
      IreeLibraryException failure = linkProblem(e.getMessage(), file, source, origin);
      failure.initCause(e);
      throw failure;
    }
  }

  /** Whether a dynamic linker complaint reports an unresolved symbol (rather than a bad file). */
  static boolean isUnresolvedSymbol(String problem) {
    return problem.contains("undefined symbol") || problem.contains("symbol not found");
  }

  // ----------------------------------------------------------------------------------------------

  private static Opened dlopen(String path, Path file, String source, IreeLibrary.Origin origin) {
    MemorySegment handle = Libc.dlopen(path);
    if (handle.address() == 0) {
      throw linkProblem(Libc.dlerror().replace(path, file.toString()), file, source, origin);
    }
    return new Opened(name -> Libc.dlsym(handle, name), () -> Libc.dlclose(handle));
  }

  /**
   * Refuses anything but a regular file only its owner may write, and one {@code info} does not
   * describe.
   */
  private static void check(Path opened, Path file, String source, Optional<BuildInfo> info) {
    String what = named(file, source);
    try {
      if (opened.getFileSystem().supportedFileAttributeViews().contains("unix")) {
        LinkOption[] follow =
            opened.equals(file) ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS} : new LinkOption[0];
        Map<String, Object> a = Files.readAttributes(opened, "unix:mode", follow);
        int mode = (Integer) a.get("mode");
        if ((mode & FILE_TYPE) != REGULAR) {
          throw new IreeLibraryException(
              what
                  + " is not a regular file (it is "
                  + kind(mode)
                  + "): name the library file"
                  + " itself (e.g. .../libiree_runtime.so)");
        }
        if ((mode & GROUP_OR_OTHERS_WRITE) != 0) {
          throw new IreeLibraryException(
              what
                  + " may be written by others (mode "
                  + String.format("%04o", mode & 07777)
                  + "), who could put their own code into this process: 'chmod go-w "
                  + file
                  + "'");
        }
      } else if (!Files.readAttributes(opened, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .isRegularFile()) {
        throw new IreeLibraryException(what + " is not a regular file: name the library file");
      }
      if (info.isPresent()) {
        verify(opened, what, info.get());
      }
    } catch (IOException e) {
      throw new IreeLibraryException(what + " cannot be read: " + e, e);
    }
  }

  private static void verify(Path opened, String what, BuildInfo info) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    long size = 0;
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = Files.newInputStream(opened)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
        size += n;
      }
    }
    String sha256 = HexFormat.of().formatHex(digest.digest());
    if (size != info.size() || !sha256.equals(info.sha256())) {
      throw new IreeLibraryException(
          what
              + " has SHA-256 "
              + sha256
              + " ("
              + size
              + " bytes), but its "
              + BuildInfo.FILE_NAME
              + " records "
              + info.sha256()
              + " ("
              + info.size()
              + " bytes): it was changed after"
              + " it was built; nothing was loaded. Install it again ("
              + LibraryLocator.BUILD_SCRIPT
              + "), or fetch or rebuild the native jar");
    }
  }

  private static String kind(int mode) {
    return switch (mode & FILE_TYPE) {
      case 0010000 -> "a named pipe";
      case 0020000 -> "a character device";
      case 0040000 -> "a directory";
      case 0060000 -> "a block device";
      case 0140000 -> "a socket";
      case 0120000 -> "a symbolic link";
      default -> "no regular file";
    };
  }

  private static IreeLibraryException linkProblem(
      String problem, Path file, String source, IreeLibrary.Origin origin) {
    if (isUnresolvedSymbol(problem)) {
      return new IreeLibraryException(
          named(file, source)
              + " uses symbols that no library in this process defines: "
              + problem
              + ". Loading it lazily"
              + " would end this process (symbol lookup error, exit code 127) at the first call"
              + " that needs the symbol. It was linked incompletely (IREE's unified runtime"
              + " archive lacks flatcc and printf): rebuild it with "
              + LibraryLocator.BUILD_SCRIPT
              + ", which links them and checks that nothing is left undefined");
    }
    return new IreeLibraryException(
        named(file, source)
            + " cannot be loaded as a shared library: "
            + problem
            + (origin == IreeLibrary.Origin.CLASS_PATH
                ? "; it was extracted from the class path and its SHA-256 checked: when the"
                    + " directory's file system does not allow running code (mounted noexec),"
                    + " set -D"
                    + IreeLibrary.CACHE_PROPERTY
                    + "=DIR to one that does; else the"
                    + " jar is for another machine"
                : "; give the path of a shared build of IREE's runtime (.so, .dylib or .dll) for"
                    + " this machine ("
                    + LibraryLocator.BUILD_SCRIPT
                    + " builds one)"));
  }

  /** How messages name the library: its path and where it was found. */
  private static String named(Path file, String source) {
    return "the IREE runtime library " + file + " (from the " + source + ")";
  }
}
