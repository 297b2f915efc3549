package dev.ireestubs.iree;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Native jars for tests, laid out as runtime-iree-native lays out the real one, holding a small
 * fake library (random bytes: nothing here is loaded, only extracted and checked).
 */
final class NativeJars {
  private NativeJars() {}

  static final String VERSION = "3.11.0";
  static final String PLATFORM = "linux-x86_64";
  static final String LIBRARY = "libiree_runtime.so";

  /** {@code size} random bytes standing in for a library. */
  static byte[] fakeLibrary(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A BUILD-INFO as the build script writes it, for {@code library}. */
  static String buildInfo(String version, String platform, byte[] library) {
    return "# written by a test\n"
        + "iree.version="
        + version
        + "\n"
        + "iree.commit=e4a3b0405d7d23554da26403658d0e8c3c5ecf25\n"
        + "submodule.flatcc=9362cd00f0007d8cbee7bff86e90fb4b6b227ff3\n"
        + "platform="
        + platform
        + "\n"
        + "library="
        + LIBRARY
        + "\n"
        + "library.sha256="
        + sha256(library)
        + "\n"
        + "library.size="
        + library.length
        + "\n"
        + "compiler=cc (Debian 12.2.0-14+deb12u1) 12.2.0\n";
  }

  static BuildInfo info(byte[] library) {
    return BuildInfo.parse(buildInfo(VERSION, PLATFORM, library), "a test");
  }

  /** A jar of {@code library} for this release and platform with a matching BUILD-INFO. */
  static Path write(Path jar, byte[] library) throws IOException {
    return write(jar, VERSION, PLATFORM, library, buildInfo(VERSION, PLATFORM, library));
  }

  /**
   * A jar holding {@code library} and {@code buildInfo} (none when null) where the native jar keeps
   * those of {@code version} for {@code platform}, with the manifest attributes.
   */
  static Path write(Path jar, String version, String platform, byte[] library, String buildInfo)
      throws IOException {
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.putValue(ClassPathLibrary.VERSION_ATTRIBUTE, version);
    main.putValue(ClassPathLibrary.PLATFORM_ATTRIBUTE, platform);
    String dir = ClassPathLibrary.ROOT + version + "/" + platform + "/";
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest)) {
      out.putNextEntry(new JarEntry(dir + LIBRARY));
      out.write(library);
      out.closeEntry();
      if (buildInfo != null) {
        out.putNextEntry(new JarEntry(dir + BuildInfo.FILE_NAME));
        out.write(buildInfo.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
    return jar;
  }

  /**
   * Overwrites the start of the library entry's compressed data with 0xFF bytes, which no inflater
   * accepts (a reserved block type): reading the entry fails.
   */
  static void corruptLibraryEntry(Path jar) throws IOException {
    byte[] bytes = Files.readAllBytes(jar);
    byte[] name =
        (ClassPathLibrary.ROOT + VERSION + "/" + PLATFORM + "/" + LIBRARY)
            .getBytes(StandardCharsets.UTF_8);
    int at = indexOf(bytes, name); // the first occurrence is in the entry's local header
    int extraLength = (bytes[at - 2] & 0xff) | (bytes[at - 1] & 0xff) << 8;
    int data = at + name.length + extraLength;
    for (int i = data; i < data + 64; i++) {
      bytes[i] = (byte) 0xff;
    }
    Files.write(jar, bytes);
  }

  /** A class loader that sees only {@code jars} (no parent's resources). */
  static URLClassLoader loader(Path... jars) {
    URL[] urls = new URL[jars.length];
    for (int i = 0; i < jars.length; i++) {
      try {
        urls[i] = jars[i].toUri().toURL();
      } catch (MalformedURLException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new URLClassLoader(urls, null);
  }

  /** The URL of the library entry in {@code jar}. */
  static URL libraryUrl(Path jar) throws IOException {
    try (URLClassLoader loader = loader(jar)) {
      return loader.getResource(ClassPathLibrary.entryName(VERSION, PLATFORM, LIBRARY));
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new IllegalArgumentException("not found");
  }
}
