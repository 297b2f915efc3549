package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stub generated in a named module compiles, whether or not its module-info reads {@code
 * java.compiler} (where {@code @Generated} lives): javac over files, the runtime and annotations as
 * automatic modules on the module path, as an application module of docs/integration.md has them.
 */
class NamedModuleTest {

  private static final String ADDER =
      String.join(
          "\n",
          "package com.acme;",
          "import dev.ireestubs.annotations.IreeFunction;",
          "import dev.ireestubs.annotations.IreeModule;",
          "import dev.ireestubs.ndarray.FloatArray;",
          "@IreeModule(name = \"module\")",
          "public interface Adder {",
          "  @IreeFunction(abi = \"sync func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (%r:"
              + " tensor<4xf32>)\")",
          "  FloatArray add(FloatArray a, FloatArray b);",
          "}");

  @TempDir static Path jars;
  private static String modulePath;

  @TempDir Path dir;

  /** The runtime and annotations as jars named as their artifacts name their modules. */
  @BeforeAll
  static void modulePath() throws IOException, URISyntaxException {
    modulePath =
        asJar(FloatArray.class, "dev.ireestubs.runtime")
            + File.pathSeparator
            + asJar(IreeModule.class, "dev.ireestubs.annotations");
  }

  /** The jar {@code type} came from, or one made of its class directory (a reactor build's). */
  private static Path asJar(Class<?> type, String moduleName)
      throws IOException, URISyntaxException {
    Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (Files.isRegularFile(location)) {
      return location;
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().putValue("Automatic-Module-Name", moduleName);
    Path jar = jars.resolve(moduleName + ".jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest);
        Stream<Path> files = Files.walk(location)) {
      for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        out.putNextEntry(new JarEntry(location.relativize(p).toString().replace('\\', '/')));
        Files.copy(p, out);
        out.closeEntry();
      }
    }
    return jar;
  }

  /** Compiles module-info and the interface with the processor; the generated stub's source. */
  private String compile(String moduleInfo) throws IOException {
    Path src = Files.createDirectories(dir.resolve("src/com/acme"));
    List<File> files = new ArrayList<>();
    files.add(Files.writeString(dir.resolve("src/module-info.java"), moduleInfo).toFile());
    files.add(Files.writeString(src.resolve("Adder.java"), ADDER).toFile());
    Path out = Files.createDirectories(dir.resolve("out"));
    Path generated = Files.createDirectories(dir.resolve("generated"));
    JavacOnFiles.compile(
        files,
        List.of("--module-path", modulePath, "-d", out.toString(), "-s", generated.toString()),
        new IreeStubsProcessor());
    assertThat(Files.exists(out.resolve("com/acme/Iree_Adder.class"))).isTrue();
    return Files.readString(generated.resolve("com/acme/Iree_Adder.java"));
  }

  @Test
  void aModuleThatDoesNotReadJavaCompilerGetsAStubWithoutGenerated() throws IOException {
    String stub =
        compile(
            "module com.acme { requires dev.ireestubs.runtime; requires static"
                + " dev.ireestubs.annotations; }");
    assertThat(stub).doesNotContain("@Generated");
  }

  @Test
  void aModuleThatReadsJavaCompilerGetsAStubMarkedGenerated() throws IOException {
    String stub =
        compile(
            "module com.acme { requires dev.ireestubs.runtime; requires static"
                + " dev.ireestubs.annotations; requires static java.compiler; }");
    assertThat(stub).contains("@Generated(");
  }
}
