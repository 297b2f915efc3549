package dev.ireestubs.iree;

import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * A process of its own for {@link LibraryExtractorTest}: finds the library in the native jar {@code
 * args[0]}, extracts it under the cache directory {@code args[1]} once the file {@code args[2]}
 * exists (so that several processes start extracting together), and prints the extracted file's
 * path, or the exception's message and exit code 1.
 */
public final class ExtractInAnotherProcess {
  private ExtractInAnotherProcess() {}

  public static void main(String[] args) throws Exception {
    Path go = Path.of(args[2]);
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!go.toFile().exists() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    try (URLClassLoader loader = NativeJars.loader(Path.of(args[0]))) {
      ClassPathLibrary classPath = new ClassPathLibrary(loader, args[1], null, null);
      LibraryLocator.Found found =
          classPath.find(NativeJars.VERSION, NativeJars.PLATFORM, NativeJars.LIBRARY).orElseThrow();
      System.out.println(found.path());
    } catch (IreeLibraryException e) {
      System.out.println(e.getMessage());
      System.exit(1);
    }
  }
}
