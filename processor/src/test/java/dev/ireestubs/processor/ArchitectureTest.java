package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor's packages are its pipeline: each step reads only the steps before it. What each
 * package may read is written here ({@link #MAY_READ}), next to the rule that checks it on the
 * compiled classes; a package missing from the table, or a dependency the table does not allow,
 * fails the build ({@link #aStepReadingALaterStepFailsTheRule} shows it on a forbidden call).
 */
class ArchitectureTest {

  private static final String ROOT = "dev.ireestubs.processor";

  /**
   * What each step's package may read besides itself (and Java, the runtime, derive and JavaPoet),
   * in pipeline order. The processor itself (the root package) runs them all, and no step reads it;
   * model, printing, diagnostics and names read no other package.
   */
  static final Map<String, List<String>> MAY_READ = mayRead();

  private static Map<String, List<String>> mayRead() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put("declaration", List.of("diagnostics"));
    m.put("source", List.of("declaration", "diagnostics", "names"));
    m.put("derivation", List.of("source", "declaration", "diagnostics"));
    m.put("binding", List.of("source", "declaration", "model", "diagnostics", "names"));
    m.put("model", List.of());
    m.put("writing", List.of("model", "printing", "names"));
    m.put("printing", List.of());
    m.put("diagnostics", List.of());
    m.put("names", List.of());
    return m;
  }

  /** The layering: {@link #MAY_READ}, every class of the processor in a layer. */
  static final ArchRule LAYERS = layers();

  private static LayeredArchitecture layers() {
    LayeredArchitecture rule =
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture()
            .layer("processor")
            .definedBy(ROOT);
    for (String step : MAY_READ.keySet()) {
      rule = rule.layer(step).definedBy(ROOT + "." + step + "..");
    }
    rule = rule.whereLayer("processor").mayNotBeAccessedByAnyLayer();
    for (Map.Entry<String, List<String>> step : MAY_READ.entrySet()) {
      rule =
          step.getValue().isEmpty()
              ? rule.whereLayer(step.getKey()).mayNotAccessAnyLayer()
              : rule.whereLayer(step.getKey())
                  .mayOnlyAccessLayers(step.getValue().toArray(String[]::new));
    }
    return rule;
  }

  /**
   * Past the declaration, no step sees the compiler: the binder, the model, the writer, the printer
   * and the naming rules work on plain values (diagnostics' locations are opaque to them).
   */
  static final ArchRule NO_COMPILER_TYPES_PAST_THE_DECLARATION =
      noClasses()
          .that()
          .resideInAnyPackage(
              ROOT + ".binding..",
              ROOT + ".model..",
              ROOT + ".writing..",
              ROOT + ".printing..",
              ROOT + ".names..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "javax.lang.model.type..",
              "javax.lang.model.util..",
              "javax.annotation.processing..",
              "com.sun.source..")
          .orShould()
          .dependOnClassesThat()
          .haveNameMatching(
              "javax\\.lang\\.model\\.element\\.(Element|.*Element|AnnotationMirror|AnnotationValue)");

  /** The processor reads reflection only through the runtime's parsers: no JSON library. */
  static final ArchRule NO_JSON_LIBRARY =
      noClasses()
          .that()
          .resideInAPackage(ROOT + "..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.fasterxml..");

  private static JavaClasses processor;

  @BeforeAll
  static void importTheProcessor() {
    processor = new ClassFileImporter().importPath(classesOf(IreeStubsProcessor.class));
    assertThat(processor.contain(IreeStubsProcessor.class)).isTrue();
  }

  @Test
  void eachStepReadsOnlyTheStepsBeforeIt() {
    LAYERS.check(processor);
  }

  @Test
  void noCompilerTypesPastTheDeclaration() {
    NO_COMPILER_TYPES_PAST_THE_DECLARATION.check(processor);
  }

  @Test
  void noJsonLibrary() {
    NO_JSON_LIBRARY.check(processor);
  }

  /** A writer that calls the binder: the rule names the class, the call and the layers. */
  @Test
  void aStepReadingALaterStepFailsTheRule(@TempDir Path dir) throws IOException {
    JavaClasses withIt =
        withClass(
            dir,
            "dev.ireestubs.processor.writing.ReachesBack",
            "package dev.ireestubs.processor.writing;",
            "final class ReachesBack {",
            "  Object bind() {",
            "    return dev.ireestubs.processor.binding.InterfaceBinder.bind(null, null, null);",
            "  }",
            "}");
    AssertionError e = assertThrows(AssertionError.class, () -> LAYERS.check(withIt));
    assertThat(e).hasMessageThat().contains("ReachesBack.bind()");
    assertThat(e).hasMessageThat().contains("InterfaceBinder.bind(");
  }

  /** A class in a package the table does not name fails it too: each new package is placed. */
  @Test
  void aPackageOutsideTheTableFailsTheRule(@TempDir Path dir) throws IOException {
    JavaClasses withIt =
        withClass(
            dir,
            "dev.ireestubs.processor.stray.Stray",
            "package dev.ireestubs.processor.stray;",
            "final class Stray {}");
    AssertionError e = assertThrows(AssertionError.class, () -> LAYERS.check(withIt));
    assertThat(e).hasMessageThat().contains("Stray");
  }

  /** A binder that asks the compiler about an element fails its rule. */
  @Test
  void aBinderReadingAnElementFailsTheRule(@TempDir Path dir) throws IOException {
    JavaClasses withIt =
        withClass(
            dir,
            "dev.ireestubs.processor.binding.ReadsElements",
            "package dev.ireestubs.processor.binding;",
            "final class ReadsElements {",
            "  String name(javax.lang.model.element.TypeElement e) {",
            "    return e.getSimpleName().toString();",
            "  }",
            "}");
    AssertionError e =
        assertThrows(
            AssertionError.class, () -> NO_COMPILER_TYPES_PAST_THE_DECLARATION.check(withIt));
    assertThat(e).hasMessageThat().contains("ReadsElements");
  }

  /** The processor's classes and {@code name}, compiled from {@code lines} against them. */
  private static JavaClasses withClass(Path dir, String name, String... lines) throws IOException {
    Compilation c = Compiler.javac().compile(JavaFileObjects.forSourceLines(name, lines));
    assertThat(c.status()).isEqualTo(Compilation.Status.SUCCESS);
    for (JavaFileObject f : c.generatedFiles()) {
      if (f.getKind() == JavaFileObject.Kind.CLASS) {
        Path out = dir.resolve(f.getName().replaceFirst("^/?CLASS_OUTPUT/", ""));
        Files.createDirectories(out.getParent());
        try (InputStream in = f.openInputStream()) {
          Files.copy(in, out);
        }
      }
    }
    return new ClassFileImporter().importPaths(classesOf(IreeStubsProcessor.class), dir);
  }

  /** The directory (or jar) {@code type} was loaded from. */
  private static Path classesOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
