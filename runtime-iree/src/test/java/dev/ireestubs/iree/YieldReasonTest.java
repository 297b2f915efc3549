package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.vmfb.VmfbAttributes;
import dev.ireestubs.vmfb.VmfbContainer;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbSchemaEra;
import dev.ireestubs.vmfb.YieldReach;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which functions runtime-iree refuses as yielding ({@link FunctionAttributes#yieldReason}): a
 * yield in the function's module, or in another loaded module's export it reaches through an
 * import; never for imports of IREE's native modules ({@code hal.fence.await} waits through a wait
 * frame, which IREE resumes), nor for an export whose bytecode was not read. No library needed.
 */
class YieldReasonTest {

  private static final YieldReach NONE =
      new YieldReach(Optional.empty(), List.of(), Optional.empty());

  private static VmfbExport export(String name, YieldReach reach) {
    return new VmfbExport(
        name,
        0,
        Optional.of("0i_i"),
        VmfbAttributes.empty(),
        Optional.empty(),
        BytecodeTypes.none(),
        reach);
  }

  private static YieldReach calls(String... imports) {
    return new YieldReach(Optional.empty(), List.of(imports), Optional.empty());
  }

  private static VmfbModule module(String name, VmfbExport... exports) {
    return new VmfbModule(
        name + ".vmfb",
        VmfbContainer.ZIP,
        true,
        64,
        "IREE",
        VmfbSchemaEra.FUNCTION_SIGNATURES_2023,
        name,
        0,
        Optional.empty(),
        VmfbAttributes.empty(),
        List.of(exports),
        List.of(),
        List.of(),
        List.of(),
        List.of());
  }

  private static final List<VmfbModule> MODULES =
      List.of(
          module(
              "a",
              export(
                  "spin",
                  new YieldReach(
                      Optional.of("function 0 runs vm.yield at offset 0x00000001"),
                      List.of(),
                      Optional.empty())),
              export("plain", NONE),
              export("unread", YieldReach.unread("bytecode version 14.0 is not one ...")),
              export("self", calls("a.self"))),
          module(
              "b",
              export("awaits", calls("hal.fence.await", "hal.fence.signal", "io_parameters.load")),
              export("viaImport", calls("hal.fence.await", "a.spin")),
              export("viaPlain", calls("a.plain", "a.unread", "missing.f"))));

  private static Optional<String> reason(String name) {
    return FunctionAttributes.yieldReason(name, MODULES);
  }

  @Test
  void aYieldInTheModuleIsAReason() {
    assertThat(reason("a.spin"))
        .hasValue("in module a, function 0 runs vm.yield at offset 0x00000001");
  }

  @Test
  void aYieldInAnotherModuleReachedThroughAnImportIsAReason() {
    assertThat(reason("b.viaImport"))
        .hasValue(
            "it calls the import a.spin: in module a, function 0 runs vm.yield at offset"
                + " 0x00000001");
  }

  @Test
  void callsIntoIreesNativeModulesAreNotYields() {
    assertThat(reason("b.awaits")).isEmpty();
  }

  @Test
  void functionsThatReachNoYieldOrCannotBeReadAreNotRefused() {
    assertThat(reason("a.plain")).isEmpty();
    assertThat(reason("a.unread")).isEmpty();
    assertThat(reason("a.self")).isEmpty(); // a cycle ends
    assertThat(reason("b.viaPlain")).isEmpty(); // an import of no loaded module included
    assertThat(reason("c.none")).isEmpty();
  }

  @Test
  void aFunctionThatYieldsSaysWhyItIsNotCalled() {
    IreeFunction f =
        new IreeFunction(
            "a.spin", MemorySegment.NULL, "0i_i", Map.of(), BytecodeTypes.none(), reason("a.spin"));
    assertThat(f.yields()).isTrue();
    assertThat(f.yieldRefusal())
        .startsWith(
            "a.spin (calling convention 0i_i) may run vm.yield (in module a, function 0 runs"
                + " vm.yield at offset 0x00000001), and IREE's runtime cannot run a function that"
                + " yields");
    assertThat(new IreeFunction("a.plain", MemorySegment.NULL, "0i_i", Map.of()).yields())
        .isFalse();
  }
}
