package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.testing.DocBlocks;
import dev.ireestubs.testing.DocBlocks.Block;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java block of README.md and docs/*.md compiles as a user would paste it (see {@link
 * DocBlocks} for the markers): README's quickstart and every compilation unit here, with the
 * processor, against modules with the declarations the pages quote; the fragments and units that
 * need IREE's runtime or Micrometer in runtime-iree's and micrometer's tests. A block with no
 * marker fails.
 */
class DocsCodeBlocksTest {

  @TempDir Path dir;

  @Test
  void everyJavaBlockSaysHowItIsChecked() {
    List<Block> blocks = DocBlocks.javaBlocks();
    Map<String, Integer> counts = new TreeMap<>();
    for (Block b : blocks) {
      assertWithMessage(
              "the Java block at %s has no marker (<!-- java:unit -->, <!-- java:fragment"
                  + " CONTEXT -->, <!-- java:skip REASON -->) before it",
              b.where())
          .that(b.kind())
          .isNotEqualTo("unmarked");
      if (b.kind().equals("fragment") || !b.context().isEmpty()) {
        assertWithMessage("context of the %s at %s", b.kind(), b.where())
            .that(DocBlocks.CONTEXTS)
            .contains(b.context());
      }
      if (b.kind().equals("fragment")) {
        assertWithMessage(
                "the fragment at %s must begin with a comment '// a fragment: ...' naming what it"
                    + " uses undeclared, so that a reader knows",
                b.where())
            .that(b.code().strip())
            .startsWith("// a fragment: ");
      }
      if (b.kind().equals("unit") && !b.context().isEmpty()) {
        assertWithMessage(
                "context of the unit at %s (only runtime-iree's test compiles units)", b.where())
            .that(b.context())
            .isEqualTo("iree");
      }
      if (b.kind().equals("skip")) {
        assertWithMessage("reason for skipping the block at %s", b.where())
            .that(b.argument())
            .isNotEmpty();
      }
      String key = (b.kind() + " " + b.context()).trim();
      counts.merge(key, 1, Integer::sum);
    }
    System.out.println("Java blocks in README.md and docs/: " + blocks.size() + " " + counts);
    assertWithMessage("Java blocks found").that(blocks.size()).isGreaterThan(5);
  }

  @Test
  void theQuickstartCompilesWithoutWarnings() throws IOException {
    List<Block> quickstart =
        DocBlocks.blocks("unit", "").stream()
            .filter(b -> b.page().equals("README.md") && b.marker().startsWith("quickstart:"))
            .collect(Collectors.toList());
    assertWithMessage("quickstart blocks in README.md").that(quickstart).hasSize(2);
    DocBlocks.writeModels(dir);
    Map<String, String> sources = new LinkedHashMap<>();
    quickstart.forEach(b -> sources.put(DocBlocks.path(b), b.code()));
    assertWithMessage("compiling README's quickstart")
        .that(DocBlocks.compile(dir, sources, true))
        .isEmpty();
    assertWithMessage("the generated stub")
        .that(Files.isRegularFile(dir.resolve("generated/com/acme/Iree_Adder.java")))
        .isTrue();
  }

  @Test
  void everyCompilationUnitCompilesWithItsPage() throws IOException {
    Map<String, List<Block>> byPage =
        DocBlocks.blocks("unit", "").stream()
            .collect(Collectors.groupingBy(Block::page, TreeMap::new, Collectors.toList()));
    assertWithMessage("pages with compilation units").that(byPage.size()).isAtLeast(4);
    for (Map.Entry<String, List<Block>> page : byPage.entrySet()) {
      Path pageDir = dir.resolve(page.getKey().replace('/', '_'));
      DocBlocks.writeModels(pageDir);
      Map<String, String> sources = new LinkedHashMap<>();
      for (Block b : page.getValue()) {
        String path = DocBlocks.path(b);
        assertWithMessage("two units of %s are both %s", page.getKey(), path)
            .that(sources.put(path, b.code()))
            .isNull();
      }
      assertWithMessage("compiling the Java blocks of %s", page.getKey())
          .that(DocBlocks.compile(pageDir, sources, true))
          .isEmpty();
    }
  }

  /** Each dependency a page tells users to add is one the BOM manages. */
  @Test
  void everyDependencySnippetNamesAnArtifactOfTheBom() throws IOException {
    String bom = Files.readString(DocBlocks.root().resolve("bom/pom.xml"), StandardCharsets.UTF_8);
    Pattern snippet =
        Pattern.compile("<!-- maven:dependency -->\\s*\\n\\s*```xml\\n(.*?)```", Pattern.DOTALL);
    Pattern artifact = Pattern.compile("<artifactId>([^<]+)</artifactId>");
    int found = 0;
    for (String page : DocBlocks.pages()) {
      Matcher m =
          snippet.matcher(Files.readString(DocBlocks.root().resolve(page), StandardCharsets.UTF_8));
      while (m.find()) {
        Matcher a = artifact.matcher(m.group(1));
        while (a.find()) {
          found++;
          assertWithMessage("%s names %s, which the BOM does not manage", page, a.group(1))
              .that(bom)
              .contains("<artifactId>" + a.group(1) + "</artifactId>");
        }
      }
    }
    assertWithMessage("dependency snippets found").that(found).isAtLeast(3);
  }

  @Test
  void everyDiagnosticTagIsDocumented() throws IOException {
    String page =
        Files.readString(DocBlocks.root().resolve("docs/diagnostics.md"), StandardCharsets.UTF_8);
    for (Tag tag : Tag.values()) {
      assertWithMessage("docs/diagnostics.md lists %s", tag.prefix().trim())
          .that(page)
          .contains("`" + tag.prefix().trim() + "`");
    }
  }
}
