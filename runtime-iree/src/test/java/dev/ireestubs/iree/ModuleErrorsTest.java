package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.iree.IreeIncompatibleModuleException.Reason;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vmfb.BytecodeVersion;
import dev.ireestubs.vmfb.VmfbReader;
import dev.ireestubs.vmfb.VmfbSchemaEra;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** IREE's refusals to load a module (texts from iree-runtime-c-api.md, section 3). */
class ModuleErrorsTest {

  private static final String BYTECODE =
      "iree/vm/bytecode/verifier.c:91: INVALID_ARGUMENT; bytecode version mismatch; runtime"
          + " supports 17.0, module has 15.0";
  private static final String IMPORT =
      "iree/vm/context.c:275: INTERNAL; import function hal.command_buffer.dispatch signature"
          + " mismatch between module and source hal; expected 0rriiiiICiDCiirIID_v but got"
          + " 0rrIiiiICiDCiirIID_v";
  private static final String DEPENDENCY =
      "INVALID_ARGUMENT; required module 'hal' version mismatch; have 6 but require 7";
  private static final String TARGET =
      "INCOMPATIBLE; HAL device '__device_0' not found or unavailable:"
          + " #hal.device.target<\"local\", [#hal.executable.target<\"llvm-cpu\","
          + " \"embedded-elf-arm_64\">]>";

  @Test
  void classifiesEachKindOfVersionTrouble() {
    assertThat(ModuleErrors.classify(3, BYTECODE)).hasValue(Reason.BYTECODE_VERSION);
    assertThat(ModuleErrors.classify(13, IMPORT)).hasValue(Reason.IMPORT_SIGNATURE);
    assertThat(ModuleErrors.classify(3, DEPENDENCY)).hasValue(Reason.DEPENDENCY_VERSION);
    assertThat(ModuleErrors.classify(18, TARGET)).hasValue(Reason.TARGET);
    assertThat(ModuleErrors.classify(18, "something new")).hasValue(Reason.TARGET);
    assertThat(
            ModuleErrors.classify(
                5, "NOT_FOUND; no provider registered that handles scopes like 'model'"))
        .isEmpty();
  }

  @Test
  void bytecodeMismatchSaysWhichReleasesWroteBothVersions() {
    IreeInvocationException e =
        loadFailure(
            "old.vmfb",
            3,
            BYTECODE,
            Optional.of(new BytecodeVersion(15, 0)),
            Optional.empty(),
            "local-sync");
    assertThat(e).isInstanceOf(IreeIncompatibleModuleException.class);
    IreeIncompatibleModuleException x = (IreeIncompatibleModuleException) e;
    assertThat(x.reason()).isEqualTo(Reason.BYTECODE_VERSION);
    assertThat(x.statusCode()).isEqualTo(3);
    assertThat(x.bytecodeVersion()).hasValue(new BytecodeVersion(15, 0));
    assertThat(e)
        .hasMessageThat()
        .startsWith("old.vmfb: IREE's runtime cannot load this module (INVALID_ARGUMENT): ");
    assertThat(e).hasMessageThat().contains(BYTECODE);
    assertThat(e)
        .hasMessageThat()
        .contains(
            "The module has bytecode version 15.0 (written by IREE releases from 2023-03 up to"
                + " 3.9); this runtime reads bytecode 17.0 (IREE 3.11 and the 3.12"
                + " pre-releases)");
    assertThat(e)
        .hasMessageThat()
        .contains("A .vmfb runs only on a runtime of the IREE release that compiled it");
  }

  @Test
  void importSignatureMismatchBlamesTheReleaseEvenWhenBytecodeMatches() {
    IreeInvocationException e =
        loadFailure(
            "add.vmfb",
            13,
            IMPORT,
            Optional.of(new BytecodeVersion(17, 0)),
            Optional.empty(),
            "local-sync");
    assertThat(((IreeIncompatibleModuleException) e).reason()).isEqualTo(Reason.IMPORT_SIGNATURE);
    assertThat(e).hasMessageThat().contains("(INTERNAL)");
    assertThat(e).hasMessageThat().contains("even if the bytecode version matches");
    assertThat(e).hasMessageThat().contains("bytecode version 17.0 (written by IREE 3.11");
    assertThat(e).hasMessageThat().contains(ModuleErrors.RELEASE_RULE);
  }

  @Test
  void anotherTargetSaysToRecompileForThisMachine() {
    IreeInvocationException e =
        loadFailure(
            "arm.vmfb",
            18,
            TARGET,
            Optional.of(new BytecodeVersion(17, 0)),
            Optional.empty(),
            "local-task");
    assertThat(((IreeIncompatibleModuleException) e).reason()).isEqualTo(Reason.TARGET);
    assertThat(e.statusCode()).isEqualTo(18);
    assertThat(e).hasMessageThat().contains("embedded-elf-arm_64");
    assertThat(e).hasMessageThat().contains("driver local-task");
    assertThat(e).hasMessageThat().contains(System.getProperty("os.arch"));
    assertThat(e).hasMessageThat().contains(ModuleErrors.RELEASE_RULE + ", built for the target");
  }

  @Test
  void otherFailuresKeepIreesTextAndCode() {
    // Not a module iree-stubs' reader could read: nothing to add to IREE's word.
    String text = "INVALID_ARGUMENT; FlatBuffer verification failed: identifier mismatch";
    IreeInvocationException e =
        loadFailure("junk.vmfb", 3, text, Optional.empty(), Optional.empty(), "local-sync");
    assertThat(e).isNotInstanceOf(IreeIncompatibleModuleException.class);
    assertThat(e.statusCode()).isEqualTo(3);
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("junk.vmfb: IREE's runtime cannot load this module (INVALID_ARGUMENT): " + text);
  }

  @Test
  void aFlatBufferFailureOnAnOlderLayoutIsTheReleaseMismatchItIs() {
    String text =
        "INVALID_ARGUMENT; FlatBuffer verification failed: vector count exceeds representable"
            + " vector size; loading bytecode module at 'old.vmfb'";
    IreeInvocationException e =
        loadFailure(
            "old.vmfb",
            3,
            text,
            Optional.of(new BytecodeVersion(13, 0)),
            Optional.of(VmfbSchemaEra.DEPENDENCIES_2022),
            "local-sync");
    IreeIncompatibleModuleException x = (IreeIncompatibleModuleException) e;
    assertThat(x.reason()).isEqualTo(Reason.BYTECODE_VERSION);
    assertThat(x.bytecodeVersion()).hasValue(new BytecodeVersion(13, 0));
    assertThat(e).hasMessageThat().contains(text);
    assertThat(e)
        .hasMessageThat()
        .contains(
            "The module has bytecode version 13.0 (written by an IREE release before 2023-03), in"
                + " a layout (2022-08+");
    assertThat(e).hasMessageThat().contains("that IREE 3.x runtimes do not read");
    assertThat(e).hasMessageThat().contains(ModuleErrors.RELEASE_RULE);

    IreeInvocationException ancient =
        loadFailure(
            "2021.vmfb",
            3,
            "INVALID_ARGUMENT; FlatBuffer verification failed: identifier mismatch",
            Optional.empty(),
            Optional.of(VmfbSchemaEra.INTERNAL_FUNCTIONS_2020),
            "local-sync");
    assertThat(((IreeIncompatibleModuleException) ancient).reason())
        .isEqualTo(Reason.BYTECODE_VERSION);
    assertThat(ancient)
        .hasMessageThat()
        .contains(
            "The module has no bytecode version: its layout (2020-09+ (internal_functions,"
                + " calling conventions)) was written by an IREE release before 2022-05");

    // The current layout failing verification is a damaged file, not another release.
    IreeInvocationException damaged =
        loadFailure(
            "bad.vmfb",
            3,
            "INVALID_ARGUMENT; FlatBuffer verification failed: identifier mismatch",
            Optional.of(new BytecodeVersion(17, 0)),
            Optional.of(VmfbSchemaEra.FUNCTION_SIGNATURES_2023),
            "local-sync");
    assertThat(damaged).isNotInstanceOf(IreeIncompatibleModuleException.class);
  }

  @Test
  void aModuleThatNeedsParametersSaysWhatIsMissing() {
    for (String text :
        new String[] {
          "NOT_FOUND; required module 'io_parameters' not registered on the context",
          "NOT_FOUND; no provider registered that handles scopes like 'model'; while invoking"
              + " native function io_parameters.load"
        }) {
      IreeInvocationException e =
          loadFailure("scale.vmfb", 5, text, Optional.empty(), Optional.empty(), "local-sync");
      assertThat(e).isNotInstanceOf(IreeIncompatibleModuleException.class);
      assertThat(e.statusCode()).isEqualTo(5);
      assertThat(e)
          .hasMessageThat()
          .startsWith("scale.vmfb: IREE's runtime cannot load this module (NOT_FOUND): " + text);
      assertThat(e).hasMessageThat().contains("The module imports IREE's io_parameters module");
      assertThat(e).hasMessageThat().contains("external parameter archives (.irpa");
      assertThat(e).hasMessageThat().contains("--parameters=SCOPE=FILE.irpa");
      assertThat(e).hasMessageThat().contains("Parameters.builder().scope(SCOPE, file)");
    }
    assertThat(
            loadFailure(
                "scale.vmfb",
                5,
                "NOT_FOUND; no provider registered that handles scopes like 'model'",
                Optional.empty(),
                Optional.empty(),
                "local-sync"))
        .hasMessageThat()
        .contains("(it asks for scope 'model')");
  }

  @Test
  void releasesOfEachBytecodeVersion() {
    assertThat(ModuleErrors.releasesWriting(new BytecodeVersion(17, 0))).contains("3.11");
    assertThat(ModuleErrors.releasesWriting(new BytecodeVersion(16, 0))).isEqualTo("IREE 3.10");
    assertThat(ModuleErrors.releasesWriting(new BytecodeVersion(15, 0))).contains("up to 3.9");
    assertThat(ModuleErrors.releasesWriting(new BytecodeVersion(13, 0))).contains("before 2023-03");
    assertThat(ModuleErrors.releasesWriting(new BytecodeVersion(18, 0)))
        .contains("newer than 3.11");
  }

  @Test
  void theVersionReportedIsTheOneInTheModule() throws IOException {
    // What the session passes: the reader's view of a real bytecode-15 module.
    var module =
        VmfbReader.read(SharedData.require("vmfb/2024-12_iree-tutorial_matmul_3in_bc15.vmfb"));
    IreeInvocationException e =
        loadFailure(
            module.sourceName(),
            3,
            BYTECODE,
            module.bytecodeVersion(),
            Optional.empty(),
            "local-sync");
    assertThat(e).hasMessageThat().contains("The module has bytecode version 15.0");
  }

  /** {@link ModuleErrors#loadFailure} in a session that binds no parameter scopes. */
  private static IreeInvocationException loadFailure(
      String source,
      int statusCode,
      String ireeText,
      Optional<BytecodeVersion> moduleVersion,
      Optional<VmfbSchemaEra> layout,
      String driver) {
    return ModuleErrors.loadFailure(
        source, statusCode, ireeText, moduleVersion, layout, driver, Optional.empty());
  }
}
