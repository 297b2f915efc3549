package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.testing.DocBlocks;
import dev.ireestubs.testing.DocReferences;
import dev.ireestubs.testing.DocReferences.Finding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every page's links reach a file and a heading, and every class, member, property and variable a
 * page names exists (see {@link DocReferences} for what is read how). The planted cases show that
 * each check fails when it should.
 */
class DocsReferencesTest {

  private static final DocReferences DOCS = DocReferences.forCheckout();

  @Test
  void everyLinkReachesAFileAndAHeading() {
    List<Finding> findings = new ArrayList<>();
    List<String> pages = DOCS.pages();
    pages.forEach(page -> findings.addAll(DOCS.brokenLinks(page)));
    System.out.println("links checked on " + pages.size() + " pages");
    assertWithMessage("broken links").that(findings).isEmpty();
  }

  @Test
  void everyNamedClassMemberPropertyAndVariableExists() {
    List<Finding> findings = new ArrayList<>();
    DOCS.pages().forEach(page -> findings.addAll(DOCS.unknownNames(page)));
    assertWithMessage("names the code does not have").that(findings).isEmpty();
  }

  @Test
  void theIndexNamesWhatFragmentsLeaveUndeclared() throws Exception {
    String index = java.nio.file.Files.readString(DocBlocks.root().resolve("docs/index.md"));
    for (String context : DocBlocks.CONTEXTS) {
      for (String name : DocBlocks.fragmentNames(context)) {
        assertWithMessage("docs/index.md's list of the names %s fragments use", context)
            .that(index)
            .contains("`" + name + "`");
      }
    }
  }

  @Test
  void aPlantedBrokenAnchorFails() {
    assertThat(DOCS.brokenLinks("docs/index.md", "See [setup](setup.md#no-such-heading)."))
        .hasSize(1);
    assertThat(DOCS.brokenLinks("docs/index.md", "See [setup](setup.md#maven).")).isEmpty();
    assertThat(DOCS.brokenLinks("docs/index.md", "See [missing](missing.md).")).hasSize(1);
    assertThat(DOCS.brokenLinks("docs/index.md", "See [here](index.md).")).hasSize(1);
    assertThat(DOCS.brokenLinks("docs/index.md", "See [data](../../shared/x.md).")).hasSize(1);
  }

  @Test
  void aPlantedUnknownMethodFails() {
    assertThat(DOCS.check("IreeSession.noSuchMethod()")).contains("IreeSession has no member");
    assertThat(DOCS.check("session.noSuchMethod(x)")).contains("reads as a IreeSession");
    assertThat(DOCS.check("IreeBackend.open")).isNull();
    assertThat(DOCS.check("NoSuchClass.open()")).contains("no class NoSuchClass");
    assertThat(DOCS.check("ForkJoinPool.commonPool()")).isNull();
    assertThat(DOCS.check("ForkJoinPool.noSuchPool()")).contains("has no public member");
  }

  @Test
  void aPlantedUnknownPropertyOrVariableFails() {
    assertThat(DOCS.check("-Diree.no.such.property=1")).contains("no source");
    assertThat(DOCS.check("-Diree.runtime.library=/x/libiree_runtime.so")).isNull();
    assertThat(DOCS.check("IREE_NO_SUCH_VARIABLE")).contains("no source");
    assertThat(DOCS.check("IREE_RUNTIME_LIBRARY")).isNull();
  }

  @Test
  void headingsBecomeGitHubAnchors() {
    assertThat(DocReferences.slug("Get IREE's runtime")).isEqualTo("get-irees-runtime");
    assertThat(DocReferences.slug("`IreeSession` and `close()`"))
        .isEqualTo("ireesession-and-close");
    assertThat(DocReferences.slug("Types from the bytecode")).isEqualTo("types-from-the-bytecode");
  }
}
