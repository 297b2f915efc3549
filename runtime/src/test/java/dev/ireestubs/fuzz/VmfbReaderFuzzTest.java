package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.bounded;
import static dev.ireestubs.fuzz.FuzzContract.refusedOr;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.util.Optional;

/**
 * Fuzz target for the compiled-module reader ({@link VmfbReader}): bare and size-prefixed
 * FlatBuffers and ZIP archives of every schema layout. Within the cost bounds of {@link
 * FuzzContract}, reading either gives a module or throws a {@link VmfbFormatException}; then every
 * export's reflection is resolved as the processor and {@code inspect} do, which gives a signature
 * or throws an {@code AbiParseException}, or the documented {@code IllegalArgumentException} for an
 * export with no reflection and no calling convention.
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
    VmfbModule module;
    try {
      module = VmfbReader.read(data, "fuzz.vmfb");
    } catch (VmfbFormatException e) {
      if (e.getMessage() == null || e.detail().isEmpty()) {
        throw new AssertionError("a VmfbFormatException without a detail", e);
      }
      return;
    }
    module.exportNames();
    for (VmfbExport export : module.exports()) {
      resolve(export);
      refusedOr(export::v0Reflection).flatMap(v0 -> v0).ifPresent(v0 -> refusedOr(v0::structure));
    }
  }

  private static Optional<dev.ireestubs.abi.Reflection.Resolved> resolve(VmfbExport export) {
    try {
      return Optional.of(export.signature());
    } catch (AbiParseException e) {
      FuzzContract.requireMessage(e);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      if (export.callingConvention().filter(c -> !c.isEmpty()).isEmpty()
          && e.getMessage().startsWith("no usable reflection among the attributes")) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
