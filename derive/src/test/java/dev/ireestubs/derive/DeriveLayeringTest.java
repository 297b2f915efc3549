package dev.ireestubs.derive;

import static com.google.common.truth.Truth.assertThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Derive mode reads modules and signatures (the runtime's {@code abi} and {@code vmfb}) and writes
 * source text: it calls nothing a running application does (no backend, no values, nothing of what
 * generated code calls).
 */
class DeriveLayeringTest {

  @Test
  void deriveUsesOnlyTheModelAndTheModuleReader() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.ireestubs.derive");
    assertThat(classes.size()).isGreaterThan(5);
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.ireestubs.internal..",
            "dev.ireestubs.invoke..",
            "dev.ireestubs.host..",
            "dev.ireestubs.vm..",
            "dev.ireestubs.ndarray..")
        .because("derive mode is for tools: it reads signatures and modules and writes source")
        .check(classes);
  }
}
