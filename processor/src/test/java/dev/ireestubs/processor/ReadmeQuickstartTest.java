package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.ireestubs.testing.TestModules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's Quickstart compiles as written: every code block marked {@code <!-- quickstart:Name.java
 * -->} is compiled with the processor, against a module with the declaration the Quickstart
 * quotes, so that the README cannot drift from the API.
 */
class ReadmeQuickstartTest {

  private static final Pattern BLOCK =
      Pattern.compile("<!-- quickstart:(\\w+)\\.java[^>]*-->\\s*```java\\n(.*?)```", Pattern.DOTALL);

  @TempDir Path models;

  @Test
  void theQuickstartCompiles() throws IOException {
    Path readme = Paths.get("..", "README.md");
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    List<JavaFileObject> sources = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      sources.add(JavaFileObjects.forSourceString("com.acme." + m.group(1), m.group(2)));
    }
    assertWithMessage("quickstart blocks in README.md").that(sources).hasSize(2);
    TestModules.Spec add =
        TestModules.spec()
            .name("module")
            .bytecodeVersion(17, 0)
            .function(
                "add",
                "0rr_r",
                "iree.abi.declaration",
                "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>)"
                    + " -> (%output0: tensor<4xf32>)");
    add.export("add", 0, null);
    Files.createDirectories(models.resolve("models"));
    Files.write(models.resolve("models/add.vmfb"), add.ireeZip());

    Compilation c =
        javac()
            .withProcessors(new IreeStubsProcessor())
            .withOptions("-Airee.reflectionDir=" + models)
            .compile(sources);

    assertThat(c).succeededWithoutWarnings();
    assertThat(c.generatedSourceFile("com.acme.Iree_Adder").isPresent()).isTrue();
  }
}
