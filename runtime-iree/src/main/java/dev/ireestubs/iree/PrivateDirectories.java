package dev.ireestubs.iree;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

/**
 * Checks that no other user can change what a directory holds, so that a library checked in it is
 * the one loaded from it: each directory is examined without following a symbolic link, by owner
 * and mode.
 *
 * <ul>
 *   <li>The directories from a <em>root</em> down (the extraction cache, {@code
 *       .../iree-stubs/iree-runtime}, and each directory below it) must be owned by this user and
 *       writable by no one else; missing ones are created {@code rwx------}.
 *   <li>The directories above the root, from {@code /}, must be owned by this user or by root, and
 *       writable by no one else unless sticky (like {@code /tmp}, where others cannot rename what
 *       is not theirs).
 * </ul>
 *
 * <p>A symbolic link on the way is resolved once, before the walk ({@link Path#toRealPath}); the
 * walk then goes over the real directories, each of which must be a directory itself. Where the
 * file system has no owners and modes (Windows) nothing is checked. Stateless.
 */
final class PrivateDirectories {
  private PrivateDirectories() {}

  private static final int GROUP_OR_OTHERS_WRITE = 0022;
  private static final int STICKY = 01000;
  private static final int ROOT = 0;

  /**
   * {@code directory}, created where missing, as its real path once every directory from {@code /}
   * to it has been checked (see the class comment).
   *
   * @param root the first directory that must be this user's own; {@code directory} is it or below
   *     it
   * @param directory the directory to use
   * @param remedy what to do instead, for messages
   * @throws IreeLibraryException naming the first directory another user could change, and the fix
   * @throws IOException when a directory cannot be created or examined
   */
  static Path prepare(Path root, Path directory, String remedy) throws IOException {
    Path absoluteRoot = root.toAbsolutePath().normalize();
    Path target = directory.toAbsolutePath().normalize();
    if (!target.startsWith(absoluteRoot)) {
      throw new IllegalArgumentException(target + " is not under " + absoluteRoot);
    }
    Optional<Integer> uid = Libc.uid();
    if (uid.isEmpty() || !posix()) {
      Files.createDirectories(target);
      return target;
    }
    // Resolve the links of the part of the root that exists, once; below it nothing is followed.
    Path existing = absoluteRoot;
    while (existing.getParent() != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      existing = existing.getParent();
    }
    Path realRoot = existing.toRealPath().resolve(existing.relativize(absoluteRoot));
    Path realTarget = realRoot.resolve(absoluteRoot.relativize(target));
    Path current = realTarget.getRoot();
    check(current, false, uid.get(), remedy);
    for (Path name : realTarget) {
      current = current.resolve(name);
      boolean own = current.startsWith(realRoot);
      if (!Files.exists(current, LinkOption.NOFOLLOW_LINKS)) {
        try {
          Files.createDirectory(
              current,
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (java.nio.file.FileAlreadyExistsException e) {
          // made meanwhile, by this process or another: checked below like any other
        }
      }
      check(current, own, uid.get(), remedy);
    }
    return realTarget;
  }

  /**
   * Checks every directory above {@code file}, from {@code /}, by the rule for directories above a
   * root (owned by this user or root; writable by no one else unless sticky).
   *
   * @throws IreeLibraryException naming the first directory another user could change
   * @throws IOException when a directory cannot be examined
   */
  static void checkAbove(Path file, String remedy) throws IOException {
    Optional<Integer> uid = Libc.uid();
    Path parent = file.toAbsolutePath().getParent();
    if (uid.isEmpty() || !posix() || parent == null) {
      return;
    }
    Path real = parent.toRealPath();
    Path current = real.getRoot();
    check(current, false, uid.get(), remedy);
    for (Path name : real) {
      current = current.resolve(name);
      check(current, false, uid.get(), remedy);
    }
  }

  private static void check(Path directory, boolean own, int uid, String remedy)
      throws IOException {
    Map<String, Object> attributes =
        Files.readAttributes(directory, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) attributes.get("mode");
    int owner = (Integer) attributes.get("uid");
    boolean isDirectory = (mode & 0170000) == 0040000;
    if (!isDirectory) {
      throw new NotDirectoryException(
          directory
              + ((mode & 0170000) == 0120000
                  ? " is a symbolic link (links below the cache directory are not followed)"
                  : " is not a directory"));
    }
    boolean ownerOk = own ? owner == uid : owner == uid || owner == ROOT;
    if (!ownerOk) {
      throw refused(
          directory,
          "belongs to user id "
              + owner
              + ", not to this user (id "
              + uid
              + ")"
              + (own ? "" : " or root"),
          own ? "remove it (as its owner) so that it is made anew" : "use another directory",
          remedy);
    }
    boolean othersWrite = (mode & GROUP_OR_OTHERS_WRITE) != 0;
    if (othersWrite && (own || (mode & STICKY) == 0)) {
      throw refused(
          directory,
          "is writable by others (mode " + String.format("%04o", mode & 07777) + ")",
          "'chmod go-w " + directory + "'",
          remedy);
    }
  }

  private static IreeLibraryException refused(
      Path directory, String problem, String fix, String remedy) {
    return new IreeLibraryException(
        "IREE's runtime library is not loaded from under "
            + directory
            + ", which "
            + problem
            + ": another user could put their own code there and have this process run it. Fix: "
            + fix
            + ". "
            + remedy);
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
  }
}
