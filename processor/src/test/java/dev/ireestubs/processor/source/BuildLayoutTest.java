package dev.ireestubs.processor.source;

import static com.google.common.truth.Truth.assertThat;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.ireestubs.processor.IreeStubsProcessor;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor under the conditions real builds create, with real files rather than
 * compile-testing's in-memory ones: Gradle's (resources stay in {@code src/main/resources}, outside
 * the class output; the source path is empty) and Maven's (resources copied to the class output).
 * Also checks the record of model files written beside each stub, which build tools use to notice a
 * changed model.
 */
class BuildLayoutTest {

  private static final String ABI = "{\"add\": {\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"],\"v\":1}}";

  private static final String ADDER =
      "package com.acme.models;\n"
          + "import dev.ireestubs.annotations.IreeModule;\n"
          + "@IreeModule(name = \"m\", abi = \"models/adder.abi.json\")\n"
          + "public interface Adder {\n"
          + "  int add(int a, int b);\n"
          + "}\n";

  @TempDir Path project;

  /** Gradle: resources are processed into build/resources, not the class output. */
  @Test
  void findsResourcesBesideTheSourceFolderAsUnderGradle() throws IOException {
    Path model = write("src/main/resources/models/adder.abi.json", ABI);
    write("src/main/java/com/acme/models/Adder.java", ADDER);

    Result r =
        compile("build/classes/java/main", "build/generated/sources/annotationProcessor/java/main");

    assertThat(r.errors).isEmpty();
    Path stub =
        project.resolve(
            "build/generated/sources/annotationProcessor/java/main/com/acme/models/Iree_Adder.java");
    assertThat(Files.exists(stub)).isTrue();
    assertThat(
            Files.exists(
                project.resolve("build/classes/java/main/com/acme/models/Iree_Adder.class")))
        .isTrue();
    String record = Files.readString(stub.resolveSibling("Iree_Adder" + InputRecord.SUFFIX), UTF_8);
    assertThat(record).contains("source com.acme.models.Adder\n");
    assertThat(record).contains("stub com.acme.models.Iree_Adder\n");
    assertThat(record)
        .contains(
            "input "
                + Files.size(model)
                + " "
                + InputRecord.fingerprint(model)
                + " "
                + model.toAbsolutePath().toRealPath()
                + "\n");
  }

  /** Maven: the resources plugin copies resources into the class output before compiling. */
  @Test
  void prefersTheClassOutputCopyAsUnderMaven() throws IOException {
    write(
        "src/main/resources/models/adder.abi.json",
        "{\"add\": {\"a\":[\"i64\"],\"r\":[],\"v\":1}}");
    Path copy = write("target/classes/models/adder.abi.json", ABI);
    write("src/main/java/com/acme/models/Adder.java", ADDER);

    Result r = compile("target/classes", "target/generated-sources/annotations");

    assertThat(r.errors).isEmpty();
    String record =
        Files.readString(
            project.resolve(
                "target/generated-sources/annotations/com/acme/models/Iree_Adder"
                    + InputRecord.SUFFIX),
            UTF_8);
    assertThat(record).contains(" " + copy.toAbsolutePath().toRealPath() + "\n");
  }

  @Test
  void aNestedInterfaceRecordsItsTopLevelSource() throws IOException {
    write("src/main/resources/models/adder.abi.json", ABI);
    write(
        "src/main/java/com/acme/models/Models.java",
        "package com.acme.models;\n"
            + "import dev.ireestubs.annotations.IreeModule;\n"
            + "public final class Models {\n"
            + "  @IreeModule(name = \"m\", abi = \"models/adder.abi.json\")\n"
            + "  public interface Adder { int add(int a, int b); }\n"
            + "}\n");

    Result r = compile("build/classes", "build/generated");

    assertThat(r.errors).isEmpty();
    String record =
        Files.readString(
            project.resolve(
                "build/generated/com/acme/models/Iree_Models_Adder" + InputRecord.SUFFIX),
            UTF_8);
    assertThat(record).contains("source com.acme.models.Models\n");
    assertThat(record).contains("stub com.acme.models.Iree_Models_Adder\n");
  }

  @Test
  void aMissingFileNamesEveryPlaceLookedIn() throws IOException {
    Files.createDirectories(project.resolve("src/main/resources"));
    write("src/main/java/com/acme/models/Adder.java", ADDER);

    Result r = compile("build/classes", "build/generated");

    assertThat(r.errors).hasSize(1);
    assertThat(r.errors.get(0)).contains("[IreeBadReflection]");
    assertThat(r.errors.get(0))
        .contains(
            "the resources beside the sources ("
                + project.resolve("src/main/resources").toAbsolutePath());
  }

  @Test
  void resourceFoldersBesideNeedThePathToEndInThePackage() throws IOException {
    Path resources = Files.createDirectories(project.resolve("src/main/resources"));
    Path source = project.resolve("src/main/java/com/acme/A.java");

    assertThat(ReflectionLoader.resourceFoldersBeside(source, "com.acme"))
        .containsExactly(resources);
    assertThat(ReflectionLoader.resourceFoldersBeside(source, "org.acme")).isEmpty();
    assertThat(ReflectionLoader.resourceFoldersBeside(project.resolve("src/main/java/A.java"), ""))
        .containsExactly(resources);
    assertThat(ReflectionLoader.resourceFoldersBeside(project.resolve("src/test/java/A.java"), ""))
        .isEmpty();
  }

  @Test
  void theFingerprintIsTheContentsSha256() throws IOException {
    assertThat(InputRecord.fingerprint(write("abc", "abc")))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(InputRecord.fingerprint(write("empty", "")))
        .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }

  private Path write(String relative, String text) throws IOException {
    Path file = project.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, UTF_8);
    return file;
  }

  private record Result(List<String> errors) {}

  /** Compiles every source under src/main/java as Gradle does: empty source path, -d and -s. */
  private Result compile(String classes, String generated) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path out = Files.createDirectories(project.resolve(classes));
    Path gen = Files.createDirectories(project.resolve(generated));
    List<File> sources = new ArrayList<>();
    try (var walk = Files.walk(project.resolve("src/main/java"))) {
      walk.filter(p -> p.toString().endsWith(".java")).forEach(p -> sources.add(p.toFile()));
    }
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, UTF_8)) {
      List<String> options =
          List.of(
              "-d",
              out.toString(),
              "-s",
              gen.toString(),
              "-sourcepath",
              "",
              "-classpath",
              System.getProperty("java.class.path"),
              "-implicit:none");
      JavaCompiler.CompilationTask task =
          javac.getTask(
              null, files, diagnostics, options, null, files.getJavaFileObjectsFromFiles(sources));
      task.setProcessors(List.of(new IreeStubsProcessor()));
      task.call();
    }
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        errors.add(d.getMessage(Locale.ROOT));
      }
    }
    return new Result(errors);
  }
}
