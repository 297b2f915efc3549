package dev.ireestubs.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The real-data folder {@code ../shared/iree-reflection} (collected from public repositories), for
 * conformance tests. Users' clones do not have it: tests that need it are skipped with a message.
 */
public final class SharedData {
  private static final ObjectMapper JSON = new ObjectMapper();

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

  /** The folder, or skips the calling test with a message saying why. */
  public static Path requireDirectory() {
    Optional<Path> dir = directory();
    if (dir.isEmpty()) {
      String msg =
          "SKIPPED: ../shared/iree-reflection not found (set -Diree.reflection.dir=...);"
              + " real-data conformance tests do not run in this checkout";
      System.out.println(msg);
      assumeTrue(false, msg);
    }
    return dir.get();
  }

  /** A file in the folder, or skips the calling test. */
  public static Path require(String name) {
    Path p = requireDirectory().resolve(name);
    assumeTrue(Files.exists(p), "missing " + p);
    return p;
  }

  /** Reads a JSON-lines file in the folder, one tree per line; skips the test if absent. */
  public static List<JsonNode> jsonLines(String name) {
    Path p = require(name);
    try {
      List<JsonNode> rows = new ArrayList<>();
      for (String line : Files.readAllLines(p)) {
        if (!line.isBlank()) {
          rows.add(JSON.readTree(line));
        }
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes a JSON tree as compact text (for feeding corpus objects to the parsers). */
  public static String compact(JsonNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
