package dev.ireestubs.pydm;

import static com.google.common.truth.Truth.assertThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * IREEPyDM sits on the runtime's user API and SPI (abi, vm, ndarray, invoke) and, like every
 * package a user holds types of, never on {@code internal} (what generated code calls) or on a
 * backend ({@code host}). The runtime's own layers: its {@code LayeringTest}.
 */
class PyDmLayeringTest {

  @Test
  void pyDmUsesOnlyTheRuntimesApi() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.ireestubs.pydm");
    assertThat(classes.size()).isGreaterThan(20);
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.ireestubs.internal..", "dev.ireestubs.host..")
        .because("PyDM's types are held by users: internal is below nothing a user holds")
        .check(classes);
  }
}
