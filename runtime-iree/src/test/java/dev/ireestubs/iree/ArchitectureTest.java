package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * runtime-iree's layering, from the bottom: the C API layer ({@link #LAYER}: the downcall classes,
 * their layouts and symbol lookup, and the per-generation {@link CApi} implementations) uses only
 * itself, Java, and the few values it is given or throws ({@link #LAYER_MAY_USE}), and nothing
 * outside it names a generation ({@link #GENERATIONS}); the session layer ({@link #SESSION_LAYER}:
 * the native state of a session and what works on it, the call path, marshaller, fences) receives
 * that state and names no engine and no public face ({@link #ABOVE_SESSIONS}); and no classes of
 * the artifact depend on each other in a circle ({@link #noClassCycles}), each class a slice of its
 * own but the public faces ({@link #FACES}), whose public signatures name each other, and the
 * library loading ({@link #LOADING}). Each rule is also run with a fixture that breaks it, so a
 * rule that could no longer fail would be noticed.
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
  static final Set<String> GENERATIONS = Set.of("CApi", "CApiGenerations", "CApi311", "CApi312");

  /** The native state of a session and what works on it: below the engine and the faces. */
  static final Set<String> SESSION_LAYER =
      Set.of(
          "RuntimeNatives",
          "SessionNatives",
          "CallPath",
          "SessionInvoker",
          "SubmissionWindow",
          "Marshaller",
          "BufferTransfer",
          "ImportedViews",
          "Fences",
          "FenceWaiter",
          "Deliveries",
          "InFlight",
          "InFlightList",
          "NativeFence",
          "NativeRef",
          "IreeFunction");

  /** What the session layer must not name: the engine and the public faces above it. */
  static final Set<String> ABOVE_SESSIONS =
      Set.of(
          "Engine",
          "EngineLoading",
          "EngineCalls",
          "NativeSession",
          "ModuleLoader",
          "SharedModule",
          "IreeRuntime",
          "IreeSession",
          "IreeSessionPool",
          "IreeBackend");

  /**
   * The public faces, one slice of the cycle rule: a runtime makes sessions and pools, and a
   * session names its runtime, in the public API.
   */
  static final Set<String> FACES =
      Set.of("IreeRuntime", "IreeSession", "IreeSessionPool", "IreeBackend");

  /**
   * Finding and loading the library, one slice of the cycle rule: these classes name each other (a
   * library, its origin, its locations, and the one open that checks and loads it, which reports
   * the origin in its messages). The directory checks ({@code PrivateDirectories}) and the libc
   * downcalls ({@code Libc}) sit below them, each a slice of its own.
   */
  static final Set<String> LOADING =
      Set.of("IreeLibrary", "LibraryLocator", "ClassPathLibrary", "LibraryLoader");

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

  /**
   * Every top-level class of runtime-iree a slice of its own, but {@code faces} one together and
   * {@link #LOADING} one together.
   */
  static SliceAssignment byClass(Set<String> faces) {
    return new SliceAssignment() {
      @Override
      public SliceIdentifier getIdentifierOf(JavaClass c) {
        String name = c.getName();
        if (!name.startsWith(PACKAGE + ".") || name.indexOf('.', PACKAGE.length() + 1) >= 0) {
          return SliceIdentifier.ignore();
        }
        String simple = name.substring(PACKAGE.length() + 1);
        int nested = simple.indexOf('$');
        String top = nested < 0 ? simple : simple.substring(0, nested);
        if (faces.contains(top)) {
          return SliceIdentifier.of("the public faces");
        }
        return SliceIdentifier.of(LOADING.contains(top) ? "the library loading" : top);
      }

      @Override
      public String getDescription() {
        return "runtime-iree's classes (a nested class with its own; the public faces as one, the"
            + " library loading as one)";
      }
    };
  }

  /** No class cycles in runtime-iree, at the granularity of {@link #byClass}. */
  static ArchRule noClassCycles(Set<String> faces) {
    return slices()
        .assignedFrom(byClass(faces))
        .should()
        .beFreeOfCycles()
        .because("runtime-iree's classes are layered: each uses only those below it");
  }

  /** The session layer names no engine and no face: it receives what it needs. */
  static ArchRule sessionLayerReachesNotUp(Set<String> layer) {
    return noClasses()
        .that(named(layer, "the session layer"))
        .should()
        .dependOnClassesThat(named(ABOVE_SESSIONS, "the engine or a public face"))
        .because(
            "the session layer receives a session's native state (SessionNatives) instead of"
                + " reaching back into a session, a pool or the engine");
  }

  @Test
  void theImportHasTheLayer() {
    // A rule over no classes passes whatever it says: make sure the import found them.
    for (String name : LAYER) {
      assertThat(MAIN.contain(PACKAGE + "." + name)).isTrue();
    }
    assertThat(MAIN.contain(IreeSession.class)).isTrue();
    for (String name : SESSION_LAYER) {
      assertThat(MAIN.contain(PACKAGE + "." + name)).isTrue();
    }
    for (String name : ABOVE_SESSIONS) {
      assertThat(MAIN.contain(PACKAGE + "." + name)).isTrue();
    }
  }

  @Test
  void theCApiLayerImportsNothingAboveIt() {
    layerUsesNothingAbove(LAYER).check(MAIN);
  }

  @Test
  void nothingAboveTheLayerNamesAGeneration() {
    generationsStayInTheLayer(LAYER).check(MAIN);
  }

  @Test
  void noClassesDependOnEachOtherInACircle() {
    noClassCycles(FACES).check(MAIN);
  }

  @Test
  void theSessionLayerNamesNoEngineAndNoFace() {
    sessionLayerReachesNotUp(SESSION_LAYER).check(MAIN);
  }

  /** With IreeSession a slice of its own: it and IreeRuntime name each other, a circle. */
  @Test
  void aCircleFailsTheCycleRule() {
    Set<String> without = new HashSet<>(FACES);
    without.remove("IreeSession");
    AssertionError e = assertThrows(AssertionError.class, () -> noClassCycles(without).check(MAIN));
    assertThat(e).hasMessageThat().contains("IreeSession");
  }

  /** With NativeSession counted in the session layer: it names ModuleLoader, above it. */
  @Test
  void aSessionLayerClassReachingUpFailsTheRule() {
    Set<String> withIt = new HashSet<>(SESSION_LAYER);
    withIt.add("NativeSession");
    AssertionError e =
        assertThrows(AssertionError.class, () -> sessionLayerReachesNotUp(withIt).check(MAIN));
    assertThat(e).hasMessageThat().contains("NativeSession");
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
