package dev.ireestubs.architecture;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import dev.ireestubs.abi.AbiType;
import java.net.URISyntaxException;
import org.junit.jupiter.api.Test;

/**
 * The runtime's packages keep their layers ({@link LayeringRules} says which may use which): the
 * build fails when a package imports one it must not. The rules are also run on a fixture that
 * breaks them ({@code fixture.invoke} using {@code fixture.internal}), so a rule that could no
 * longer fail would be noticed.
 */
class LayeringTest {

  /** The runtime's own classes: its compiled main classes, nothing from the tests. */
  private static final JavaClasses RUNTIME = runtimeClasses();

  private static JavaClasses runtimeClasses() {
    try {
      return new ClassFileImporter()
          .importLocations(
              java.util.Set.of(
                  Location.of(
                      AbiType.class.getProtectionDomain().getCodeSource().getLocation().toURI())));
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theRuntimeHasItsClasses() {
    // A rule over no classes passes whatever it says: make sure the import found the runtime.
    assertThat(RUNTIME.containPackage("dev.ireestubs.internal")).isTrue();
    assertThat(RUNTIME.containPackage("dev.ireestubs.invoke")).isTrue();
    assertThat(RUNTIME.size()).isGreaterThan(150);
  }

  @Test
  void eachPackageUsesOnlyThePackagesBelowIt() {
    LayeringRules.layers("dev.ireestubs").check(RUNTIME);
  }

  @Test
  void noPackagesUseEachOther() {
    LayeringRules.noCycles("dev.ireestubs").check(RUNTIME);
  }

  @Test
  void theRuntimeUsesNoCompilerApi() {
    LayeringRules.noCompilerApi("dev.ireestubs").check(RUNTIME);
  }

  @Test
  void onlyAbiReadsJson() {
    LayeringRules.jsonInAbiOnly("dev.ireestubs").check(RUNTIME);
  }

  @Test
  void theRulesFailOnAForbiddenImport() {
    String root = "dev.ireestubs.architecture.fixture";
    JavaClasses fixture = new ClassFileImporter().importPackages(root);
    assertThat(fixture.containPackage(root + ".invoke")).isTrue();
    for (ArchRule rule :
        java.util.List.of(LayeringRules.layers(root), LayeringRules.noCycles(root))) {
      AssertionError e = assertThrows(AssertionError.class, () -> rule.check(fixture));
      assertThat(e).hasMessageThat().contains("fixture.invoke.UsesInternal");
      assertThat(e).hasMessageThat().contains("fixture.internal.Helper");
    }
  }
}
