package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.iree.IreeIncompatibleModuleException.Reason;
import dev.ireestubs.vmfb.HalRequirement;
import dev.ireestubs.vmfb.RuntimeGeneration;
import dev.ireestubs.vmfb.VmfbAttributes;
import dev.ireestubs.vmfb.VmfbContainer;
import dev.ireestubs.vmfb.VmfbDependency;
import dev.ireestubs.vmfb.VmfbImport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbSchemaEra;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runtime library's release and generation as its {@code BUILD-INFO} gives them, and the decision
 * to refuse a module of the other generation before IREE sees it (no runtime needed).
 */
class RuntimeReleaseTest {

  private static final String SHA =
      "768999c8fb58983dc5746d6dbe734474c31058d617665c53cf5c09904e0d1f14";

  @TempDir Path dir;

  private static String buildInfo(String version, String extra) {
    return "iree.version="
        + version
        + "\nplatform=linux-x86_64\nlibrary=libiree_runtime.so\nlibrary.sha256="
        + SHA
        + "\nlibrary.size=1\n"
        + extra;
  }

  private static RuntimeRelease release(String version) {
    return RuntimeRelease.of(BuildInfo.parse(buildInfo(version, ""), "test"));
  }

  private static VmfbModule module(long hal, String dispatch) {
    return new VmfbModule(
        "m.vmfb",
        VmfbContainer.SIZE_PREFIXED,
        true,
        4,
        "IREE",
        VmfbSchemaEra.FUNCTION_SIGNATURES_2023,
        "module",
        0,
        Optional.empty(),
        VmfbAttributes.empty(),
        List.of(),
        List.of(),
        List.of(new VmfbImport(HalRequirement.DISPATCH_IMPORT, Optional.of(dispatch), false)),
        List.of(),
        List.of(new VmfbDependency("hal", hal, false)));
  }

  @Test
  void releasesMapToHalVersions() {
    assertThat(RuntimeRelease.halVersionOf("3.11.0")).isEqualTo(6);
    assertThat(RuntimeRelease.halVersionOf("3.10.2")).isEqualTo(6);
    assertThat(RuntimeRelease.halVersionOf("2.9.0")).isEqualTo(6);
    assertThat(RuntimeRelease.halVersionOf("3.12.0rc20260822")).isEqualTo(7);
    assertThat(RuntimeRelease.halVersionOf("3.13.1")).isEqualTo(7);
    assertThat(RuntimeRelease.halVersionOf("4.0.0")).isEqualTo(7);
    assertThat(RuntimeRelease.halVersionOf("3.12")).isEqualTo(-1);
    assertThat(RuntimeRelease.halVersionOf("../../x")).isEqualTo(-1);
  }

  @Test
  void buildInfoGivesTheReleaseAndItsGeneration() {
    RuntimeRelease r311 = release("3.11.0");
    assertThat(r311.version()).hasValue("3.11.0");
    assertThat(r311.generation()).isEqualTo(RuntimeGeneration.IREE_3_11_AND_EARLIER);
    assertThat(r311.describe()).isEqualTo("3.11.0 (hal 0.6)");
    RuntimeRelease r312 = release("3.12.0rc20260822");
    assertThat(r312.generation()).isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
    assertThat(r312.describe()).isEqualTo("3.12.0rc20260822 (hal 0.7)");
    // The script's hal.module.version entry wins over the name.
    RuntimeRelease recorded =
        RuntimeRelease.of(BuildInfo.parse(buildInfo("3.11.0", "hal.module.version=0.7\n"), "t"));
    assertThat(recorded.halVersion()).isEqualTo(7);
    RuntimeRelease odd = release("custom-build");
    assertThat(odd.generation()).isEqualTo(RuntimeGeneration.UNKNOWN);
    assertThat(odd.describe()).isEqualTo("custom-build");
  }

  @Test
  void theBuildInfoBesideTheLibraryIsReadAndAnythingElseIsUnknown() throws IOException {
    Path library = dir.resolve("libiree_runtime.so");
    Files.writeString(library, "not read");
    assertThat(RuntimeRelease.beside(library)).isEqualTo(RuntimeRelease.unknown());
    assertThat(RuntimeRelease.unknown().describe())
        .isEqualTo("of an unknown release (no BUILD-INFO)");

    Files.writeString(dir.resolve("BUILD-INFO"), buildInfo("3.12.0rc20260822", ""));
    assertThat(RuntimeRelease.beside(library).version()).hasValue("3.12.0rc20260822");

    Path other = dir.resolve("libother.so");
    assertThat(RuntimeRelease.beside(other)).isEqualTo(RuntimeRelease.unknown());

    Files.writeString(dir.resolve("BUILD-INFO"), "iree.version=3.11.0\n"); // incomplete
    assertThat(RuntimeRelease.beside(library)).isEqualTo(RuntimeRelease.unknown());
  }

  @Test
  void aModuleOfTheOtherGenerationIsRefusedAndItsOwnPasses() {
    VmfbModule old = module(6, "0rriiiiICiDCiirIID_v");
    VmfbModule current = module(7, "0rrIiiiICiDCiirIID_v");
    RuntimeRelease r311 = release("3.11.0");
    RuntimeRelease r312 = release("3.12.0rc20260822");

    ModuleLoader.checkGeneration("a", Optional.of(old), r311);
    ModuleLoader.checkGeneration("b", Optional.of(current), r312);
    ModuleLoader.checkGeneration("c", Optional.of(current), RuntimeRelease.unknown());
    ModuleLoader.checkGeneration("d", Optional.of(old), RuntimeRelease.unknown());
    ModuleLoader.checkGeneration("e", Optional.empty(), r312); // unreadable: IREE decides

    IreeIncompatibleModuleException onNew =
        assertThrows(
            IreeIncompatibleModuleException.class,
            () -> ModuleLoader.checkGeneration("old.vmfb", Optional.of(old), r312));
    assertThat(onNew.reason()).isEqualTo(Reason.RUNTIME_GENERATION);
    assertThat(onNew.moduleGeneration()).isEqualTo(RuntimeGeneration.IREE_3_11_AND_EARLIER);
    assertThat(onNew.runtimeGeneration()).isEqualTo(RuntimeGeneration.IREE_3_12_AND_LATER);
    assertThat(onNew)
        .hasMessageThat()
        .startsWith(
            "old.vmfb: cannot load this module on this runtime: it was compiled by IREE ≤ 3.11"
                + " (hal 0.6), its hal.command_buffer.dispatch import has calling convention"
                + " 0rriiiiICiDCiirIID_v; this runtime is IREE 3.12.0rc20260822 (hal 0.7)");
    assertThat(onNew)
        .hasMessageThat()
        .contains(
            "Recompile it with an IREE 3.12+ compiler (the release of this runtime), or run"
                + " it on an IREE 3.11 runtime (runtime-iree/scripts/build-iree-runtime.sh --version"
                + " 3.11.0 builds one; -Diree.runtime.version=3.11.0 selects it)");

    IreeIncompatibleModuleException onOld =
        assertThrows(
            IreeIncompatibleModuleException.class,
            () -> ModuleLoader.checkGeneration("new.vmfb", Optional.of(current), r311));
    assertThat(onOld)
        .hasMessageThat()
        .contains(
            "compiled by IREE 3.12+ (hal 0.7), its hal.command_buffer.dispatch import has"
                + " calling convention 0rrIiiiICiDCiirIID_v; this runtime is IREE 3.11.0 (hal 0.6)");
    assertThat(onOld)
        .hasMessageThat()
        .contains(
            "Recompile it with an IREE 3.11 compiler (pip install"
                + " iree-base-compiler==3.11.0), or run it on an IREE 3.12+ runtime");
  }
}
