package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.testing.TestBytecode.i32;
import static dev.ireestubs.testing.TestBytecode.importOrdinal;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.testing.TestBytecode;
import dev.ireestubs.testing.TestModules;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Whether an export's calls may reach {@code vm.yield} ({@link VmfbExport#yieldReach()}), on bodies
 * written with {@link TestBytecode}: a yield in the function itself, in a function it calls through
 * {@code vm.call} or {@code vm.call.yieldable} (at any depth, recursion included), the imports its
 * calls reach, and bodies that cannot be read. The functions take and return i32 only, which the
 * reader of types skips: the yield pass reads them all, and adds nothing to the types.
 */
class YieldReachTest {

  private static final int[] I0 = {i32(0)};

  /** Imports: hal.fence.await 0, other.spin 1. */
  private static TestModules.Spec spec() {
    return TestModules.spec()
        .bytecodeVersion(17, 0)
        .imports("hal.fence.await", "0iICrD_i", "other.spin", "0i_i");
  }

  /** A block that runs {@code vm.yield} to a second block, which returns i0. */
  private static byte[] yieldOnce() {
    TestBytecode code = new TestBytecode();
    code.block();
    int resume = code.label();
    code.yieldTo(resume);
    code.place(resume);
    return code.ret(i32(0)).bytes();
  }

  /** A block that calls {@code callee} (an internal ordinal or an import) and returns i0. */
  private static byte[] calls(int callee) {
    TestBytecode code = new TestBytecode();
    code.block();
    return code.call(callee, I0, I0).ret(i32(0)).bytes();
  }

  private static byte[] callsYieldable(int callee) {
    TestBytecode code = new TestBytecode();
    code.block();
    int resume = code.label();
    code.callYieldable(callee, I0, resume, I0);
    code.place(resume);
    return code.ret(i32(0)).bytes();
  }

  private static byte[] returns() {
    TestBytecode code = new TestBytecode();
    code.block();
    return code.ret(i32(0)).bytes();
  }

  /** Calls itself and then function {@code other}. */
  private static byte[] recursive(int self, int other) {
    TestBytecode code = new TestBytecode();
    code.block();
    return code.call(self, I0, I0).call(other, I0, I0).ret(i32(0)).bytes();
  }

  private static final String[] NAMES = {
    "spins",
    "calls",
    "callsYieldable",
    "awaits",
    "plain",
    "recursive",
    "importer",
    "bad",
    "callsBad"
  };

  private static VmfbModule module() throws VmfbFormatException {
    TestModules.Spec s = spec();
    for (String name : NAMES) {
      s.function(name, "0i_i");
    }
    for (int i = 0; i < NAMES.length; i++) {
      s.export(NAMES[i], i, null);
    }
    TestBytecode await = new TestBytecode();
    await.block();
    await
        .constI32(i32(1), -1)
        .callVariadic(
            importOrdinal(0), new int[] {1, 1, 0}, new int[] {i32(1), i32(2)}, new int[] {i32(0)})
        .ret(i32(0));
    s.body(0, yieldOnce())
        .body(1, calls(0))
        .body(2, callsYieldable(1))
        .body(3, await.bytes())
        .body(4, returns())
        .body(5, recursive(5, 4))
        .body(6, calls(importOrdinal(1)))
        .body(7, new TestBytecode().raw(0x79, 0xC7, 0, 0).bytes())
        .body(8, calls(7));
    return VmfbReader.read(s.sizePrefixed(), "yields.vmfb");
  }

  private static YieldReach reach(VmfbModule m, String export) {
    return m.export(export).orElseThrow().yieldReach();
  }

  @Test
  void aYieldInTheFunctionItselfIsFound() throws Exception {
    YieldReach r = reach(module(), "spins");
    assertThat(r.yields()).isTrue();
    assertThat(r.yieldAt()).hasValue("function 0 runs vm.yield at offset 0x00000001");
    assertThat(r.unread()).isEmpty();
  }

  @Test
  void aYieldInACalleeIsFoundThroughAPlainCallAndAYieldableOne() throws Exception {
    VmfbModule m = module();
    assertThat(reach(m, "calls").yieldAt())
        .hasValue("function 0 runs vm.yield at offset 0x00000001, reached through calls 1 -> 0");
    assertThat(reach(m, "callsYieldable").yieldAt())
        .hasValue(
            "function 0 runs vm.yield at offset 0x00000001, reached through calls 2 -> 1 -> 0");
  }

  @Test
  void functionsWithoutAYieldDoNotYieldAndListTheImportsTheyCall() throws Exception {
    VmfbModule m = module();
    YieldReach awaits = reach(m, "awaits");
    assertThat(awaits.yields()).isFalse();
    assertThat(awaits.imports()).containsExactly("hal.fence.await");
    assertThat(awaits.unread()).isEmpty();
    assertThat(reach(m, "plain"))
        .isEqualTo(new YieldReach(Optional.empty(), List.of(), Optional.empty()));
    assertThat(reach(m, "recursive"))
        .isEqualTo(new YieldReach(Optional.empty(), List.of(), Optional.empty()));
    assertThat(reach(m, "importer").imports()).containsExactly("other.spin");
  }

  @Test
  void aBodyThatCannotBeReadLeavesTheAnswerUnread() throws Exception {
    VmfbModule m = module();
    YieldReach bad = reach(m, "callsBad");
    assertThat(bad.yields()).isFalse();
    assertThat(bad.unread())
        .hasValue(
            "function 7 (bytecode 17.x): unknown opcode 0xC7 for bytecode 17.x at offset"
                + " 0x00000001, reached through calls 8 -> 7");
    assertThat(reach(m, "spins").unread()).isEmpty();
  }

  @Test
  void readingForYieldsAddsNothingToTheTypes() throws Exception {
    for (VmfbExport e : module().exports()) {
      assertThat(e.bytecodeTypes()).isEqualTo(BytecodeTypes.none());
    }
  }

  @Test
  void aModuleOfAVersionTheReaderDoesNotDecodeIsUnread() throws Exception {
    VmfbModule m =
        VmfbReader.read(
            spec()
                .bytecodeVersion(14, 0)
                .function("spins", "0i_i")
                .export("spins", 0, null)
                .body(0, yieldOnce())
                .sizePrefixed(),
            "v14.vmfb");
    YieldReach r = reach(m, "spins");
    assertThat(r.yields()).isFalse();
    assertThat(r.unread().orElseThrow()).startsWith("bytecode version 14.0 is not one");
  }

  @Test
  void anExportMadeWithoutReadingIsUnread() {
    VmfbExport e =
        new VmfbExport("f", 0, Optional.of("0i_i"), VmfbAttributes.empty(), Optional.empty());
    assertThat(e.yieldReach().unread()).hasValue(VmfbExport.YIELDS_NOT_READ);
  }
}
