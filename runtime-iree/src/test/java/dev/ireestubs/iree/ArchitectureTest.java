package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * runtime-iree's C API layer sits at the bottom of the artifact: the downcall classes, their
 * layouts and symbol lookup, and the per-generation {@link CApi} implementations ({@link #LAYER})
 * use only each other, Java, and the few values they are given or throw ({@link #LAYER_MAY_USE});
 * and nothing outside the layer names a generation ({@link #GENERATIONS}). Each rule is also run
 * with a fixture that breaks it, so a rule that could no longer fail would be noticed.
 */
class ArchitectureTest {

  /** The classes of the C API layer (with their nested classes). */
  static final Set<String> LAYER =
      Set.of(
          "Native",
          "NativeSymbols",
          "Layouts",
          "CApi",
          "CApiGenerations",
          "CApi311",
          "CApi312",
          "SessionCalls",
          "ListCalls",
          "BufferViewCalls",
          "BufferCalls",
          "ParameterCalls",
          "FenceCalls",
          "StatusCalls");

  /**
   * What the layer may use above it: the library's release it is given (and what that record is
   * made of), the exceptions it throws and the status codes they carry.
   */
  static final Set<String> LAYER_MAY_USE =
      Set.of(
          "dev.ireestubs.iree.RuntimeRelease",
          "dev.ireestubs.iree.IreeLibraryException",
          "dev.ireestubs.iree.IreeStatusCode",
          "dev.ireestubs.invoke.IreeInvocationException",
          "dev.ireestubs.vmfb.RuntimeGeneration");

  /** The generation-specific classes: known only inside the layer. */
  static final Set<String> GENERATIONS =
      Set.of("CApi", "CApiGenerations", "CApi311", "CApi312");

  private static final String PACKAGE = "dev.ireestubs.iree";

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages(PACKAGE);

  /** Classes named (with their nested classes) by {@code simpleNames} in runtime-iree's package. */
  static DescribedPredicate<JavaClass> named(Set<String> simpleNames, String description) {
    return DescribedPredicate.describe(
        description,
        c -> {
          String name = c.getName();
          if (!name.startsWith(PACKAGE + ".") || name.indexOf('.', PACKAGE.length() + 1) >= 0) {
            return false;
          }
          String simple = name.substring(PACKAGE.length() + 1);
          int nested = simple.indexOf('$');
          return simpleNames.contains(nested < 0 ? simple : simple.substring(0, nested));
        });
  }

  /** The layer {@code layer} uses only itself, Java and {@link #LAYER_MAY_USE}. */
  static ArchRule layerUsesNothingAbove(Set<String> layer) {
    DescribedPredicate<JavaClass> inLayer = named(layer, "the C API layer");
    DescribedPredicate<JavaClass> above =
        DescribedPredicate.describe(
            "classes above the C API layer",
            c ->
                c.getPackageName().startsWith("dev.ireestubs")
                    && !inLayer.test(c)
                    && !LAYER_MAY_USE.contains(c.getName()));
    return noClasses()
        .that(inLayer)
        .should()
        .dependOnClassesThat(above)
        .because("the C API layer is at the bottom of runtime-iree: it imports nothing above it");
  }

  /** Outside the layer, nothing names a generation of the C API. */
  static ArchRule generationsStayInTheLayer(Set<String> layer) {
    return noClasses()
        .that(DescribedPredicate.not(named(layer, "the C API layer")))
        .should()
        .dependOnClassesThat(named(GENERATIONS, "a generation of the C API"))
        .because("nothing above the C API layer knows which generation it talks to");
  }

  @Test
  void theImportHasTheLayer() {
    // A rule over no classes passes whatever it says: make sure the import found them.
    for (String name : LAYER) {
      assertThat(MAIN.contain(PACKAGE + "." + name)).isTrue();
    }
    assertThat(MAIN.contain(IreeSession.class)).isTrue();
  }

  @Test
  void theCApiLayerImportsNothingAboveIt() {
    layerUsesNothingAbove(LAYER).check(MAIN);
  }

  @Test
  void nothingAboveTheLayerNamesAGeneration() {
    generationsStayInTheLayer(LAYER).check(MAIN);
  }

  /** With a class above the layer counted in it (ModuleLoader, which calls IreeSession's parts). */
  @Test
  void aLayerClassUsingOneAboveFailsTheRule() {
    Set<String> withIt = new HashSet<>(LAYER);
    withIt.add("ModuleLoader");
    AssertionError e =
        assertThrows(AssertionError.class, () -> layerUsesNothingAbove(withIt).check(MAIN));
    assertThat(e).hasMessageThat().contains("ModuleLoader");
  }

  /** With Native left out of the layer: it names CApi, so the generations leak above the layer. */
  @Test
  void aClassAboveNamingAGenerationFailsTheRule() {
    Set<String> without = new HashSet<>(LAYER);
    without.remove("Native");
    AssertionError e =
        assertThrows(AssertionError.class, () -> generationsStayInTheLayer(without).check(MAIN));
    assertThat(e).hasMessageThat().contains("Native");
  }
}
