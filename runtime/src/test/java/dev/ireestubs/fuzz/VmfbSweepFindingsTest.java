package dev.ireestubs.fuzz;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.testing.ByteSweep;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The findings of the mutation sweep ({@link VmfbMutationSweepTest}) as regression inputs: each
 * record of test-support's {@code vmfb-sweep-findings.txt} applied to the corpus keeps {@link
 * ModuleContract} (skipped with a message when the corpus is absent), and a module this test writes
 * itself shows each bug without the corpus.
 */
class VmfbSweepFindingsTest {

  @Test
  void everyRecordedFindingIsReadOrRefused() throws IOException {
    Path corpus = SharedData.requireDirectory();
    List<ByteSweep.Mutation> findings = ByteSweep.findings();
    assertThat(findings).isNotEmpty();
    for (ByteSweep.Mutation m : findings) {
      VmfbMutationSweepTest.check(m.apply(corpus), m);
    }
  }

  /**
   * Issue 35's finding (the coarse-fences module of 2022-11 with byte 10472 or 5604 zeroed): two
   * exports of one function with different calling conventions. The function was analysed under the
   * first export's, and the second export's signature indexed its facts past their end.
   */
  @Test
  void twoExportsOfOneFunctionWithDifferentConventions() throws IOException {
    byte[] bytes =
        TestModules.spec()
            .schema(TestModules.Schema.S2022_08)
            .bytecodeVersion(13, 0)
            .function("f", "0rrr_r")
            .export("f", 0, "0rrr_r")
            .export("g", 0, "0rrrr_r")
            .sizePrefixed();

    VmfbModule module = VmfbReader.read(bytes, "two-exports.vmfb");
    ModuleContract.check(bytes, "two-exports.vmfb");

    VmfbExport g = module.export("g").orElseThrow();
    assertThat(g.bytecodeTypes().problem().orElseThrow())
        .isEqualTo(
            "export 'g' has calling convention 0rrrr_r, but its function 0 has 0rrr_r (from the"
                + " module's function table or another export of it); its body was not read for"
                + " the export's types");
    assertThat(g.signature().source()).isEqualTo("calling convention");
    assertThat(module.export("f").orElseThrow().bytecodeTypes().problem()).isEmpty();
  }
}
