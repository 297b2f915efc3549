package dev.ireestubs.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The real-data folder {@code ../shared/iree-reflection}, for tests over real modules; tests that
 * need it are skipped with a message when it is absent. (A small copy of runtime-support's test
 * helper of the same name, which is not published as a test jar.)
 */
public final class SharedData {
  private SharedData() {}

  /** The folder, when it exists: system property {@code iree.reflection.dir}, else the default. */
  public static Optional<Path> directory() {
    String configured = System.getProperty("iree.reflection.dir");
    List<Path> candidates = new ArrayList<>();
    if (configured != null && !configured.isBlank()) {
      candidates.add(Paths.get(configured));
    }
    candidates.add(Paths.get("..", "..", "shared", "iree-reflection"));
    candidates.add(Paths.get("..", "shared", "iree-reflection"));
    for (Path p : candidates) {
      if (Files.isDirectory(p)) {
        return Optional.of(p.toAbsolutePath().normalize());
      }
    }
    return Optional.empty();
  }

  /** A file in the folder, or skips the calling test with a message saying why. */
  public static Path require(String name) {
    Optional<Path> dir = directory();
    if (dir.isEmpty()) {
      String msg =
          "SKIPPED: ../shared/iree-reflection not found (set -Diree.reflection.dir=...);"
              + " tests over real modules do not run in this checkout";
      System.out.println(msg);
      assumeTrue(false, msg);
    }
    Path p = dir.get().resolve(name);
    assumeTrue(Files.exists(p), "missing " + p);
    return p;
  }
}
