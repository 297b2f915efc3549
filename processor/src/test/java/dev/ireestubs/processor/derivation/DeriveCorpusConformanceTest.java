package dev.ireestubs.processor.derivation;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.google.testing.compile.Compilation;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Derive mode over every real {@code .vmfb} of {@code ../shared/iree-reflection/vmfb} (skipped with
 * a message when the folder is absent): a {@code package-info.java} with {@code @IreeClient} per
 * module, all in one compilation, derives interfaces whose stubs compile with no error.
 */
class DeriveCorpusConformanceTest {

  @Test
  void everyRealModuleDerivesAClientThatCompiles() throws IOException {
    Path dir = SharedData.require("vmfb");
    List<String> modules;
    try (Stream<Path> s = Files.list(dir)) {
      modules =
          s.map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".vmfb") && !n.startsWith("LFS-POINTER"))
              .sorted()
              .collect(Collectors.toList());
    }
    assertThat(modules.size()).isAtLeast(30);
    List<JavaFileObject> sources = new ArrayList<>();
    for (int i = 0; i < modules.size(); i++) {
      sources.add(
          DeriveModeTest.packageInfo(
              String.format("corpus.m%02d", i),
              "@IreeClient(vmfb = "
                  + ProcessorTester.lit(modules.get(i))
                  + ", name = \"Client\")"));
    }
    ProcessorTester t = new ProcessorTester(dir);
    Compilation c = t.compile(sources.toArray(JavaFileObject[]::new));
    List<String> errors =
        c.diagnostics().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
            .map(ProcessorTester::format)
            .collect(Collectors.toList());
    assertWithMessage("errors deriving clients for %s", modules).that(errors).isEmpty();
    for (int i = 0; i < modules.size(); i++) {
      String pkg = String.format("corpus.m%02d", i);
      assertWithMessage("%s: stub of the derived client", modules.get(i))
          .that(c.generatedSourceFile(pkg + ".Iree_Client").isPresent())
          .isTrue();
    }
    // Every module's exports are methods or left out; the stubs of them were all written.
    int methods = t.models.stream().mapToInt(m -> m.functions().size()).sum();
    System.out.println(
        "derive conformance: " + modules.size() + " modules, " + methods + " methods");
    assertThat(t.models).hasSize(modules.size());
  }
}
