package dev.ireestubs.vmfb;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.testing.TestBytecode.i32;
import static dev.ireestubs.testing.TestBytecode.importOrdinal;
import static dev.ireestubs.testing.TestBytecode.move;
import static dev.ireestubs.testing.TestBytecode.ref;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.testing.TestBytecode;
import dev.ireestubs.testing.TestModules;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The types {@link VmfbReader} reads out of function bodies: written with {@link TestBytecode} as
 * IREE's compiler lays them out (asserts of each argument, a create for each result, fences, a
 * synchronous wrapper calling its {@code $async} twin), and bodies it must not trust.
 */
class BytecodeTypesTest {

  static final int F32 = 0x21000020;
  static final int UI8 = 0x12000008;
  static final int DENSE = 1;

  /** Imports, in order: assert 0, create 1, fence.create 2, fence.await 3, queue.execute 4. */
  static TestModules.Spec spec() {
    return TestModules.spec()
        .bytecodeVersion(17, 0)
        .imports(
            "hal.buffer_view.assert", "0rriiCID_v",
            "hal.buffer_view.create", "0rIIiiCID_r",
            "hal.fence.create", "0rI_r",
            "hal.fence.await", "0iICrD_i",
            "hal.device.queue.execute", "0rIrrCrD_v");
  }

  /** Asserts argument ref {@code view} is {@code element} with dims in the i64 registers. */
  static TestBytecode assertView(
      TestBytecode code, int view, int element, int encoding, int... dims) {
    int[] operands = new int[4 + dims.length];
    operands[0] = view;
    operands[1] = ref(15);
    operands[2] = element;
    operands[3] = encoding;
    System.arraycopy(dims, 0, operands, 4, dims.length);
    return code.callVariadic(
        importOrdinal(0), new int[] {1, 1, 1, 1, dims.length}, operands, new int[0]);
  }

  static TestBytecode create(
      TestBytecode code, int result, int element, int encoding, int... dims) {
    int[] operands = new int[5 + dims.length];
    operands[0] = ref(14);
    operands[1] = i32(12);
    operands[2] = i32(12);
    operands[3] = element;
    operands[4] = encoding;
    System.arraycopy(dims, 0, operands, 5, dims.length);
    return code.callVariadic(
        importOrdinal(1), new int[] {1, 1, 1, 1, 1, dims.length}, operands, new int[] {result});
  }

  /** Constants: i0 f32, i1 dense, i2 ui8, i4:5 = 1, i6:7 = 4, i8:9 = 49. */
  static TestBytecode constants(TestBytecode code) {
    return code.constI32(i32(0), F32)
        .constI32(i32(1), DENSE)
        .constI32(i32(2), UI8)
        .constI64(i32(4), 1)
        .constI64(i32(6), 4)
        .constI64(i32(8), 49);
  }

  static VmfbExport read(TestModules.Spec spec, String export) throws VmfbFormatException {
    return VmfbReader.read(spec.sizePrefixed(), "test.vmfb").export(export).orElseThrow();
  }

  @Test
  void argumentsAreTypedByTheirAssertsAndResultsByTheirCreates() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    constants(code);
    assertView(code, ref(0), i32(2), i32(1), i32(4), i32(8));
    assertView(code, ref(1), i32(0), i32(1), i32(6));
    create(code, ref(2), i32(0), i32(1), i32(4), i32(6));
    code.ret(move(2));
    VmfbExport e =
        read(
            spec().function("main", "0rr_r").export("main", 0, null).body(0, code.bytes()), "main");
    Reflection.Resolved r = e.signature();
    assertThat(r.source()).isEqualTo("bytecode");
    assertThat(r.signature().format()).isEqualTo(ReflectionFormat.BYTECODE);
    assertThat(r.signature().toString())
        .isEqualTo("(tensor<1x49xui8>, tensor<4xf32>) -> (tensor<1x4xf32>)");
  }

  @Test
  void aDimThatIsNotAConstantIsDynamic() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    constants(code);
    // i10:11 is never written: its value is not known.
    assertView(code, ref(0), i32(0), i32(1), i32(10), i32(6));
    code.ret(ref(0));
    VmfbExport e =
        read(spec().function("main", "0r_r").export("main", 0, null).body(0, code.bytes()), "main");
    assertThat(e.signature().signature().toString())
        .isEqualTo("(tensor<?x4xf32>) -> (tensor<?x4xf32>)");
  }

  @Test
  void anUnknownElementTypeOrAnotherEncodingLeavesTheArgumentOpaque() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    constants(code);
    code.constI32(i32(3), 0x00000020); // opaque 32-bit: no element type
    code.constI32(i32(13), 2); // not dense row-major
    assertView(code, ref(0), i32(3), i32(1), i32(6));
    assertView(code, ref(1), i32(0), i32(13), i32(6));
    assertView(code, ref(2), i32(0), i32(1), i32(6));
    code.ret();
    VmfbExport e =
        read(
            spec().function("main", "0rrr_v").export("main", 0, null).body(0, code.bytes()),
            "main");
    assertThat(e.signature().signature().toString()).isEqualTo("(ref, ref, tensor<4xf32>) -> ()");
  }

  @Test
  void aRegisterReusedForAnotherValueNoLongerHoldsTheArgument() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    constants(code);
    create(code, ref(0), i32(0), i32(1), i32(6)); // r0 now holds a new view
    assertView(code, ref(0), i32(2), i32(1), i32(6));
    code.ret(ref(0));
    VmfbExport e =
        read(spec().function("main", "0r_r").export("main", 0, null).body(0, code.bytes()), "main");
    assertThat(e.signature().signature().toString()).isEqualTo("(ref) -> (tensor<4xf32>)");
  }

  @Test
  void registersJoinAtBlocksThroughTheirRemaps() throws Exception {
    TestBytecode code = new TestBytecode();
    int entry = code.block();
    int left = code.label();
    int right = code.label();
    int join = code.label();
    constants(code);
    code.constI32(i32(13), 0).condBr(i32(13), left, right);
    code.place(left).constI64(i32(10), 4).br(join, i32(10), i32(20), i32(11), i32(21));
    code.place(right)
        .constI64(i32(10), 4)
        .constI64(i32(6), 5)
        .br(join, i32(10), i32(20), i32(11), i32(21));
    code.place(join);
    // i20:21 is 4 on both paths; i6:7 is 4 on one and 5 on the other.
    assertView(code, ref(0), i32(0), i32(1), i32(20), i32(6));
    code.ret();
    VmfbExport e =
        read(
            spec()
                .function("main", "0r_v")
                .export("main", 0, null)
                .registers(32, 16)
                .body(0, code.bytes()),
            "main");
    assertThat(entry).isEqualTo(0);
    assertThat(e.signature().signature().toString()).isEqualTo("(tensor<4x?xf32>) -> ()");
  }

  /** micro_speech's shape: f$async asserts and creates; f calls it with a null and a new fence. */
  static TestModules.Spec syncAndAsync() {
    TestBytecode async = new TestBytecode();
    async.block();
    constants(async);
    assertView(async, ref(0), i32(2), i32(1), i32(4), i32(8));
    async.call(importOrdinal(4), new int[] {ref(14), i32(4), ref(1), ref(2), ref(13)}, new int[0]);
    create(async, ref(0), i32(0), i32(1), i32(4), i32(6));
    async.ret(move(0));
    TestBytecode sync = new TestBytecode();
    int done = sync.label();
    sync.block();
    sync.constRefZero(ref(1)).constI64(i32(2), 0);
    sync.call(importOrdinal(2), new int[] {ref(5), i32(2)}, new int[] {ref(3)});
    sync.call(0, new int[] {move(0), move(1), ref(3)}, new int[] {ref(0)});
    sync.callVariadic(
        importOrdinal(3),
        new int[] {1, 1, 1},
        new int[] {i32(0), i32(2), move(3)},
        new int[] {i32(0)});
    sync.br(done);
    sync.place(done).ret(move(0));
    return spec()
        .function("f$async", "0rrr_r")
        .function("f", "0r_r")
        .export("f$async", 0, null)
        .export("f", 1, null)
        .body(0, async.bytes())
        .body(1, sync.bytes());
  }

  @Test
  void theSynchronousWrapperTakesItsTypesFromTheAsyncFunctionItCalls() throws Exception {
    VmfbModule m = VmfbReader.read(syncAndAsync().sizePrefixed(), "test.vmfb");
    FunctionSignature async = m.export("f$async").orElseThrow().signature().signature();
    assertThat(async.model()).isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
    assertThat(async.toString()).isEqualTo("async (tensor<1x49xui8>) -> (tensor<1x4xf32>)");
    FunctionSignature sync = m.export("f").orElseThrow().signature().signature();
    assertThat(sync.toString()).isEqualTo("(tensor<1x49xui8>) -> (tensor<1x4xf32>)");
  }

  @Test
  void aDeclarationRanksBeforeTheBytecode() throws Exception {
    byte[] bytes =
        spec()
            .function(
                "f",
                "0r_r",
                "iree.abi.declaration",
                "sync func @f(%a: tensor<9xf32>) -> (%b: tensor<9xf32>)")
            .export("f", 0, null)
            .body(0, new TestBytecode().raw(0x79).ret(ref(0)).bytes())
            .sizePrefixed();
    VmfbExport e = VmfbReader.read(bytes, "t.vmfb").export("f").orElseThrow();
    assertThat(e.signature().source()).isEqualTo(Reflection.DECLARATION);
  }

  @Test
  void recursionEndsAndTypesNothingItCannotSee() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    code.call(0, new int[] {ref(0)}, new int[] {ref(0)});
    code.ret(ref(0));
    VmfbExport e =
        read(spec().function("main", "0r_r").export("main", 0, null).body(0, code.bytes()), "main");
    assertThat(e.bytecodeTypes()).isEqualTo(BytecodeTypes.none());
    assertThat(e.signature().source()).isEqualTo("calling convention");
  }

  // ---------------------------------------------------------------- bodies not to trust

  private static String problem(byte[] body, int major) throws VmfbFormatException {
    VmfbExport e = read(oneFunction(major, "0r_r").body(0, body), "main");
    assertThat(e.bytecodeTypes().signature()).isEmpty();
    Reflection.Resolved r = e.signature();
    assertThat(r.source()).isEqualTo("calling convention");
    assertThat(r.warnings()).hasSize(1);
    assertThat(r.warnings().get(0)).startsWith("its bytecode could not be read for types (");
    return e.bytecodeTypes().problem().orElseThrow();
  }

  /** A module of one export {@code main}, in the layout of bytecode {@code major}'s time. */
  static TestModules.Spec oneFunction(int major, String cconv) {
    TestModules.Spec s = spec().bytecodeVersion(major, 0).function("main", cconv);
    return major >= 14
        ? s.export("main", 0, null)
        : s.schema(TestModules.Schema.S2022_08).export("main", 0, cconv);
  }

  @Test
  void anUnknownOpcodeIsAReason() throws Exception {
    assertThat(problem(new TestBytecode().raw(0x79, 0xC7, 0, 0).bytes(), 17))
        .isEqualTo(
            "function 0 (bytecode 17.x): unknown opcode 0xC7 for bytecode 17.x at offset 0x00000001");
  }

  @Test
  void anOpOfALaterVersionIsUnknownToAnEarlierOne() throws Exception {
    byte[] body = new TestBytecode().raw(0x79).raw(0x85, 0, 0, 0).ret(ref(0)).bytes();
    assertThat(problem(body, 15)).contains("unknown opcode 0x85 for bytecode 15.x");
  }

  @Test
  void aSwitchOfBytecode15IsNotGuessed() throws Exception {
    byte[] body =
        new TestBytecode().raw(0x79, 0x1F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0).ret(ref(0)).bytes();
    assertThat(problem(body, 15))
        .contains("vm.switch.i32 at offset 0x00000001: its encoding changed");
  }

  @Test
  void aRegisterOutOfRangeIsAReason() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    code.constI32(i32(200), 1).ret(ref(0));
    assertThat(problem(code.bytes(), 17))
        .contains("vm.const.i32 at offset 0x00000001: expected an i32 register in range");
  }

  @Test
  void anOpRunningPastTheBodyIsAReason() throws Exception {
    assertThat(problem(new TestBytecode().raw(0x79, 0x0D, 1, 2).bytes(), 17))
        .contains("runs past the end of the function");
  }

  @Test
  void aBranchIntoAnOpIsAReason() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    code.raw(0x56, 3, 0, 0, 0, 0, 0); // vm.br to offset 3, inside itself
    assertThat(problem(code.bytes(), 17)).contains("does not start a block");
  }

  @Test
  void aBodyWithoutBlocksIsAReasonFromBytecode15On() throws Exception {
    assertThat(problem(new TestBytecode().ret(ref(0)).bytes(), 17)).contains("is not in a block");
  }

  @Test
  void argumentsThatDoNotFitTheRegistersAreAReason() throws Exception {
    VmfbExport e =
        read(
            spec()
                .registers(16, 1)
                .function("main", "0rr_r")
                .export("main", 0, null)
                .body(0, new TestBytecode().raw(0x79).ret(ref(0)).bytes()),
            "main");
    assertThat(e.bytecodeTypes().problem().orElseThrow())
        .contains("its calling convention needs 2 ref and 0 i32 registers for its arguments");
  }

  @Test
  void anUnknownVersionIsAReason() throws Exception {
    assertThat(problem(new TestBytecode().ret(ref(0)).bytes(), 12))
        .isEqualTo("bytecode version 12.0 is not one this reader decodes (13, 15, 16 and 17)");
  }

  @Test
  void bytecode13HasNoBlockMarkers() throws Exception {
    TestBytecode code = new TestBytecode();
    constants(code);
    assertView(code, ref(0), i32(0), i32(1), i32(6));
    code.ret(ref(0)).raw(0, 0, 0); // padding after the last terminator
    VmfbExport e = read(oneFunction(13, "0r_r").body(0, code.bytes()), "main");
    assertThat(e.signature().signature().toString())
        .isEqualTo("(tensor<4xf32>) -> (tensor<4xf32>)");
  }

  @Test
  void aDescriptorOutsideTheBytecodeIsAMalformedModule() {
    // A body longer than the bytecode: the descriptor is patched after writing.
    byte[] bytes =
        spec()
            .function("main", "0r_r")
            .export("main", 0, null)
            .body(0, new byte[] {0x79, 0x5A})
            .sizePrefixed();
    // The descriptor's length (2) sits right after its offset (0) in the 20-byte struct.
    int at = indexOf(bytes, new byte[] {0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0});
    bytes[at + 4] = 0x7F;
    VmfbFormatException e =
        assertThrows(VmfbFormatException.class, () -> VmfbReader.read(bytes, "t.vmfb"));
    assertThat(e.detail()).contains("function_descriptors[0]");
    assertThat(e.detail()).contains("of bytecode_data");
  }

  @Test
  void workIsBoundedByTheBytecodesSize() throws Exception {
    // Many constants, then a chain of blocks: each block copies what the registers know. Within
    // the budget the work grows with the product; past it the reader stops with a reason.
    TestBytecode code = new TestBytecode();
    code.block();
    int constants = 4000;
    for (int i = 0; i < constants; i++) {
      code.constI32(i32(i), i);
    }
    int next = code.label();
    code.br(next);
    for (int b = 0; b < 4000; b++) {
      code.place(next);
      next = code.label();
      code.br(next);
    }
    code.place(next).ret(ref(0));
    String why =
        read(
                spec()
                    .function("main", "0r_r")
                    .export("main", 0, null)
                    .registers(8192, 16)
                    .body(0, code.bytes()),
                "main")
            .bytecodeTypes()
            .problem()
            .orElseThrow();
    assertThat(why).contains("took more than its budget of");
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }

  @Test
  void anAssertOfAnotherSignatureIsNotRead() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    constants(code);
    assertView(code, ref(0), i32(0), i32(1), i32(6));
    code.ret(ref(0));
    TestModules.Spec s =
        spec()
            .imports("hal.buffer_view.assert", "0rriCID_v")
            .function("main", "0r_r")
            .export("main", 0, null)
            .body(0, code.bytes());
    assertThat(read(s, "main").bytecodeTypes()).isEqualTo(BytecodeTypes.none());
  }

  @Test
  void theModelAttributeStillAppliesToABytecodeSignature() throws Exception {
    TestBytecode code = new TestBytecode();
    code.block();
    constants(code);
    assertView(code, ref(0), i32(0), i32(1), i32(6));
    code.ret(ref(0));
    VmfbExport e =
        read(
            spec()
                .function("main", "0rrr_r", "iree.abi.model", "coarse-fences")
                .export("main", 0, null)
                .body(0, code.bytes()),
            "main");
    assertThat(e.signature().signature().toString())
        .isEqualTo("async (tensor<4xf32>) -> (tensor<4xf32>)");
    assertThat(Reflection.resolve(Map.of(), "0rrr_r", e.bytecodeTypes()).signature().model())
        .isEqualTo(FunctionSignature.CallingModel.SYNC);
  }
}
