package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.iree.IreeIncompatibleModuleException.Reason;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vmfb.RuntimeGeneration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A module of IREE 3.12's format (HAL 0.7, {@code ../shared/iree-reflection/hal07/}) on the 3.11
 * runtime: iree-stubs refuses it before IREE resolves its imports, naming both sides and both
 * fixes, where IREE alone says {@code required module 'hal' version mismatch; have 6 but require
 * 7}; a 3.12-made module without HAL imports loads. With a library of the 3.12 line, the reverse: a
 * 3.11 module is refused. Skipped without a runtime library, and each test (with a message) when
 * the library found is not of the generation it shows.
 */
class RuntimeGenerationIntegrationTest {

  private static final String HAL07_ADD = "hal07/2026-08_djl-iree-engine_add_hal07.vmfb";
  private static final String HAL07_IDENTITY =
      "hal07/2026-03_elodin_identity_i64_x86_64_hal07.vmfb";

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  private static IreeLibrary library311() {
    IreeLibrary library = IREE.runtime().library();
    String message =
        "SKIPPED: the runtime library found is IREE "
            + library.release().orElse("of an unknown release")
            + ", not a 3.11 one with BUILD-INFO: the refusal of 3.12-format modules is shown on"
            + " a 3.11 runtime";
    if (library.generation() != RuntimeGeneration.IREE_3_11_AND_EARLIER) {
      System.out.println(message);
    }
    assumeTrue(library.generation() == RuntimeGeneration.IREE_3_11_AND_EARLIER, message);
    return library;
  }

  @Test
  void onA312RuntimeA311ModuleIsRefusedByIreeStubs() throws IOException {
    // Runs when the library found is of the 3.12 line (-Diree.runtime.library=.../3.12.../lib/...).
    IreeLibrary library = IREE.runtime().library();
    String message =
        "SKIPPED: the runtime library found is IREE "
            + library.release().orElse("of an unknown release")
            + ", not of the 3.12 line: the refusal of 3.11 modules is shown on a 3.12 runtime";
    if (library.generation() != RuntimeGeneration.IREE_3_12_AND_LATER) {
      System.out.println(message);
    }
    assumeTrue(library.generation() == RuntimeGeneration.IREE_3_12_AND_LATER, message);
    Path vmfb = SharedData.require("vmfb/2026-08_djl-iree-engine_add_bc17.vmfb");
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeIncompatibleModuleException e =
          assertThrows(IreeIncompatibleModuleException.class, () -> session.load(vmfb));
      System.out.println("refusal: " + e.getMessage());
      assertThat(e.reason()).isEqualTo(Reason.RUNTIME_GENERATION);
      assertThat(e)
          .hasMessageThat()
          .contains(
              "it was compiled by IREE ≤ 3.11 (hal 0.6), its hal.command_buffer.dispatch import"
                  + " has calling convention 0rriiiiICiDCiirIID_v; this runtime is IREE "
                  + library.release().get()
                  + " (hal 0.7)");
      assertThat(e).hasMessageThat().contains("Recompile it with an IREE 3.12+ compiler");
    }
  }

  @Test
  void theLibraryKnowsItsRelease() {
    IreeLibrary library = library311();
    assertThat(library.release()).isPresent();
    assertThat(library.release().get()).startsWith("3.11.");
    assertThat(library.toString()).contains("; IREE " + library.release().get() + " (hal 0.6))");
  }

  @Test
  void aHal07ModuleIsRefusedByIreeStubsNamingBothSidesAndBothFixes() throws IOException {
    IreeLibrary library = library311();
    Path vmfb = SharedData.require(HAL07_ADD);
    IreeIncompatibleModuleException e;
    try (IreeSession session = IREE.runtime().newSession()) {
      e = assertThrows(IreeIncompatibleModuleException.class, () -> session.load(vmfb));
    }
    System.out.println("refusal: " + e.getMessage());
    assertThat(e.reason()).isEqualTo(Reason.RUNTIME_GENERATION);
    assertThat(e.moduleGeneration()).isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
    assertThat(e.runtimeGeneration()).isEqualTo(RuntimeGeneration.IREE_3_11_AND_EARLIER);
    assertThat(e.statusCode()).isEqualTo(IreeStatusCode.INCOMPATIBLE.code());
    assertThat(e)
        .hasMessageThat()
        .startsWith(
            vmfb
                + ": cannot load this module on this runtime: it was compiled by IREE 3.12+ (hal"
                + " 0.7), its hal.command_buffer.dispatch import has calling convention"
                + " 0rrIiiiICiDCiirIID_v; this runtime is IREE "
                + library.release().get()
                + " (hal 0.6)");
    assertThat(e).hasMessageThat().contains("Recompile it with an IREE 3.11 compiler");
    assertThat(e).hasMessageThat().contains("or run it on an IREE 3.12+ runtime");
    assertThat(e).hasMessageThat().doesNotContain("version mismatch"); // IREE's text: not reached
  }

  @Test
  void theSameRefusalFromMemoryAndInAPool() throws IOException {
    library311();
    byte[] bytes = Files.readAllBytes(SharedData.require(HAL07_ADD));
    try (IreeSession session = IREE.runtime().newSession()) {
      IreeIncompatibleModuleException e =
          assertThrows(
              IreeIncompatibleModuleException.class, () -> session.load(bytes, "add_hal07"));
      assertThat(e).hasMessageThat().startsWith("add_hal07: cannot load this module");
      // The session is unharmed: a module of its own generation still loads.
      session.load(SharedData.require("vmfb/2026-08_djl-iree-engine_add_bc17.vmfb"));
      assertThat(session.functionNames()).contains("module.add");
    }
    try (IreeSessionPool pool = IREE.runtime().newPool(Device.LOCAL_SYNC, 2)) {
      IreeIncompatibleModuleException e =
          assertThrows(
              IreeIncompatibleModuleException.class,
              () -> pool.load(SharedData.require(HAL07_ADD)));
      assertThat(e.reason()).isEqualTo(Reason.RUNTIME_GENERATION);
    }
  }

  @Test
  void aModuleOfTheNewFormatWithoutHalImportsLoads() throws IOException {
    library311();
    try (IreeSession session = IREE.runtime().newSession()) {
      session.load(SharedData.require(HAL07_IDENTITY));
      assertThat(session.functionNames()).contains("module.identity_i64");
    }
  }
}
