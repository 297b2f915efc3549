package dev.ireestubs.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.ireestubs.testing.DocBlocks;
import dev.ireestubs.testing.DocBlocks.Block;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java fragments of README.md and docs/*.md that use this artifact ({@code <!-- java:fragment
 * micrometer -->}) compile, each in a method whose class declares the names they use ({@link
 * DocBlocks#wrap}).
 */
class DocsMicrometerBlocksTest {

  @TempDir Path dir;

  @Test
  void theMicrometerFragmentsCompile() throws IOException {
    List<Block> fragments = DocBlocks.blocks("fragment", "micrometer");
    assertFalse(fragments.isEmpty(), "no micrometer fragments found in README.md and docs/");
    Map<String, String> sources = new LinkedHashMap<>();
    for (int i = 0; i < fragments.size(); i++) {
      sources.put(
          "com/acme/Fragment" + i + ".java", DocBlocks.wrap("micrometer", fragments.get(i), i));
    }
    assertEquals(
        List.of(),
        DocBlocks.compile(dir, sources, false),
        "compiling " + fragments.size() + " fragments");
  }
}
