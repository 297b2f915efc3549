package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.bounded;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.vmfb.VmfbReader;

/**
 * Fuzz target for the compiled-module reader ({@link VmfbReader}): bare and size-prefixed
 * FlatBuffers and ZIP archives of every schema layout. Within the cost bounds of {@link
 * FuzzContract}, the input keeps {@link ModuleContract}: reading either gives a module or throws a
 * {@code VmfbFormatException}; then every export's reflection is resolved as the processor and
 * {@code inspect} do, which gives a signature or throws one of the documented exceptions.
 *
 * <p>The seeds ({@code seed-*}) are small modules of each schema layout and container, written by
 * this project's own module builder (the test suite's {@code TestModules}), not compiled by IREE.
 */
class VmfbReaderFuzzTest {

  @FuzzTest
  @DictionaryEntries({
    "IREE",
    "BMOD",
    "PK\u0003\u0004",
    "PK\u0001\u0002",
    "PK\u0005\u0006",
    "module.fb"
  })
  void read(byte[] data) {
    bounded("VmfbReader.read", data.length, () -> check(data));
  }

  private static void check(byte[] data) {
    ModuleContract.check(data, "fuzz.vmfb");
  }
}
