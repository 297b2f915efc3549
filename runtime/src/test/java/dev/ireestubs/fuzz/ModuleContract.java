package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.refusedOr;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import dev.ireestubs.vmfb.YieldReach;
import java.util.List;
import java.util.Optional;

/**
 * What reading an untrusted module may do, as the processor, derive mode and {@code inspect} use
 * it: {@link VmfbReader#read(byte[], String)} gives a module or throws a {@link
 * VmfbFormatException} with a detail; then each export's signature ({@link VmfbExport#signature()},
 * the resolution everything uses) is resolved, or refused with an {@link AbiParseException} or the
 * documented {@link IllegalArgumentException} for an export with no reflection and no calling
 * convention; its declaration and V0 structure are parsed as the processor does; a bytecode problem
 * is a short message, and so are the export's yield facts. Any other exception escapes: a finding.
 * Shared by {@link VmfbReaderFuzzTest} and the mutation sweep ({@link VmfbMutationSweepTest}).
 */
final class ModuleContract {

  private ModuleContract() {}

  /** Checks one input against the contract; throws (an assertion or the escaping exception). */
  static void check(byte[] data, String source) {
    VmfbModule module;
    try {
      module = VmfbReader.read(data, source);
    } catch (VmfbFormatException e) {
      if (e.getMessage() == null || e.detail().isEmpty()) {
        throw new AssertionError("a VmfbFormatException without a detail", e);
      }
      return;
    }
    module.exportNames();
    for (VmfbExport export : module.exports()) {
      Optional<Reflection.Resolved> resolved = resolve(export);
      if (resolved.isPresent() && resolved.get().source().equals(Reflection.DECLARATION)) {
        // The processor and derive mode parse it again for argument names.
        export.declaration().map(Declaration::parse);
      }
      refusedOr(export::v0Reflection).flatMap(v0 -> v0).ifPresent(v0 -> refusedOr(v0::structure));
      export
          .bytecodeTypes()
          .problem()
          .ifPresent(
              p -> {
                if (p.isEmpty() || p.length() > 4096) {
                  throw new AssertionError("a bytecode problem of " + p.length() + " characters");
                }
              });
      checkYields(export);
    }
  }

  /** The yield facts of an export are there, with short messages. */
  static void checkYields(VmfbExport export) {
    YieldReach reach = export.yieldReach();
    for (Optional<String> text : List.of(reach.yieldAt(), reach.unread())) {
      text.ifPresent(
          t -> {
            if (t.isEmpty() || t.length() > 4096) {
              throw new AssertionError("a yield message of " + t.length() + " characters");
            }
          });
    }
    if (reach.imports().size() > 65536) {
      throw new AssertionError(reach.imports().size() + " imports reached");
    }
  }

  private static Optional<Reflection.Resolved> resolve(VmfbExport export) {
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
