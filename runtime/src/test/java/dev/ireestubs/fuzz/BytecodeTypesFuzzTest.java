package dev.ireestubs.fuzz;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.fuzz.FuzzContract.bounded;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.testing.TestBytecode;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fuzz target for the bytecode reader (types read out of function bodies): the input's first byte
 * picks the bytecode version (13, 15, 16 or 17), the rest is the body of {@code f$async} (calling
 * convention {@code 0rrr_r}) in a module whose {@code f} ({@code 0r_r}) calls it as IREE's
 * synchronous wrappers do, with the imports a real module has (assert, create, fences, a queue op).
 * Within the cost bounds of {@link FuzzContract}, reading the module gives a module or a {@link
 * VmfbFormatException}, and resolving each export gives a signature, with a warning when its body
 * could not be read, and each export's yield facts are there with short messages; no other
 * exception.
 *
 * <p>The seeds ({@code seed-*}) are bodies written with the project's {@link TestBytecode}, shaped
 * like the real modules of {@code ../shared/iree-reflection} (the micro_speech model's {@code
 * tf2onnx$async}: asserts, a queue op with the fences, a create, a return; one with a {@code
 * vm.yield} before the return, which both exports reach); {@link
 * #theSeedsAreTheOnesThisClassWrites} keeps them equal to {@link #seeds()} (run it with {@code
 * -Dfuzz.writeSeeds=true} to write them again).
 */
class BytecodeTypesFuzzTest {

  private static final int[] VERSIONS = {13, 15, 16, 17};

  @FuzzTest
  void read(byte[] data) {
    bounded("VmfbReader.read (bytecode types)", data.length, () -> check(data));
  }

  private static void check(byte[] data) {
    if (data.length == 0) {
      return;
    }
    int major = VERSIONS[data[0] & 3];
    byte[] body = Arrays.copyOfRange(data, 1, data.length);
    VmfbModule module;
    try {
      module = VmfbReader.read(module(major, body), "fuzz.vmfb");
    } catch (VmfbFormatException e) {
      if (e.detail().isEmpty()) {
        throw new AssertionError("a VmfbFormatException without a detail", e);
      }
      return;
    }
    for (VmfbExport e : module.exports()) {
      try {
        e.signature();
      } catch (AbiParseException ex) {
        FuzzContract.requireMessage(ex);
      }
      e.bytecodeTypes()
          .problem()
          .ifPresent(
              p -> {
                if (p.isEmpty() || p.length() > 4096) {
                  throw new AssertionError("a bytecode problem of " + p.length() + " characters");
                }
              });
      ModuleContract.checkYields(e);
    }
  }

  /** The module around a fuzzed body: {@code f$async} is function 0, {@code f} function 1. */
  static byte[] module(int major, byte[] asyncBody) {
    TestModules.Spec spec =
        TestModules.spec()
            .bytecodeVersion(major, 0)
            .imports(
                "hal.buffer_view.assert", "0rriiCID_v",
                "hal.buffer_view.create", "0rIIiiCID_r",
                "hal.fence.create", "0rI_r",
                "hal.fence.await", "0iICrD_i",
                "hal.device.queue.execute", "0rIrrCrD_v")
            .function("f$async", "0rrr_r")
            .function("f", "0r_r")
            .body(0, asyncBody)
            .body(1, sync(major));
    if (major >= 14) {
      spec.export("f$async", 0, null).export("f", 1, null);
    } else {
      spec.schema(TestModules.Schema.S2022_08)
          .export("f$async", 0, "0rrr_r")
          .export("f", 1, "0r_r");
    }
    return spec.sizePrefixed();
  }

  /** {@code f}: a null wait fence, a new signal fence, the call, the await, the return. */
  private static byte[] sync(int major) {
    TestBytecode sync = new TestBytecode();
    if (major >= 15) {
      sync.block();
    }
    sync.constRefZero(TestBytecode.ref(1)).constI64(TestBytecode.i32(2), 0);
    sync.call(
        TestBytecode.importOrdinal(2),
        new int[] {TestBytecode.ref(5), TestBytecode.i32(2)},
        new int[] {TestBytecode.ref(3)});
    sync.call(
        0,
        new int[] {TestBytecode.move(0), TestBytecode.move(1), TestBytecode.ref(3)},
        new int[] {TestBytecode.ref(0)});
    sync.callVariadic(
        TestBytecode.importOrdinal(3),
        new int[] {1, 1, 1},
        new int[] {TestBytecode.i32(0), TestBytecode.i32(2), TestBytecode.move(3)},
        new int[] {TestBytecode.i32(0)});
    return sync.ret(TestBytecode.move(0)).bytes();
  }

  /** An async body as IREE writes them, with or without block markers. */
  private static byte[] asyncBody(boolean blocks, int elementType, int rank) {
    return asyncBody(blocks, elementType, rank, false);
  }

  /** The same, with a {@code vm.yield} before the return when {@code yields} (blocks only). */
  private static byte[] asyncBody(boolean blocks, int elementType, int rank, boolean yields) {
    TestBytecode code = new TestBytecode();
    if (blocks) {
      code.block();
    }
    code.constI32(TestBytecode.i32(0), 0x21000020)
        .constI32(TestBytecode.i32(1), 1)
        .constI32(TestBytecode.i32(2), elementType)
        .constI64(TestBytecode.i32(4), 1)
        .constI64(TestBytecode.i32(6), 49);
    int[] dims = new int[rank];
    Arrays.fill(dims, TestBytecode.i32(6));
    int[] operands = new int[4 + rank];
    operands[0] = TestBytecode.ref(0);
    operands[1] = TestBytecode.ref(6);
    operands[2] = TestBytecode.i32(2);
    operands[3] = TestBytecode.i32(1);
    System.arraycopy(dims, 0, operands, 4, rank);
    code.callVariadic(
        TestBytecode.importOrdinal(0), new int[] {1, 1, 1, 1, rank}, operands, new int[0]);
    code.call(
        TestBytecode.importOrdinal(4),
        new int[] {
          TestBytecode.ref(7),
          TestBytecode.i32(4),
          TestBytecode.ref(1),
          TestBytecode.ref(2),
          TestBytecode.ref(8)
        },
        new int[0]);
    code.callVariadic(
        TestBytecode.importOrdinal(1),
        new int[] {1, 1, 1, 1, 1, 2},
        new int[] {
          TestBytecode.move(8),
          TestBytecode.i32(4),
          TestBytecode.i32(6),
          TestBytecode.i32(0),
          TestBytecode.i32(1),
          TestBytecode.i32(4),
          TestBytecode.i32(6)
        },
        new int[] {TestBytecode.ref(0)});
    if (yields) {
      int resume = code.label();
      code.yieldTo(resume);
      code.place(resume);
    }
    return code.ret(TestBytecode.move(0)).bytes();
  }

  /** The seeds, by file name: the version byte, then the body. */
  static Map<String, byte[]> seeds() {
    Map<String, byte[]> seeds = new LinkedHashMap<>();
    seeds.put("seed-bc17-async", withVersion(3, asyncBody(true, 0x10000008, 4)));
    seeds.put("seed-bc16-async-rank1", withVersion(2, asyncBody(true, 0x21000020, 1)));
    seeds.put("seed-bc15-async-scalar", withVersion(1, asyncBody(true, 0x21000010, 0)));
    seeds.put("seed-bc13-async", withVersion(0, asyncBody(false, 0x12000008, 2)));
    seeds.put("seed-bc17-async-yield", withVersion(3, asyncBody(true, 0x21000020, 2, true)));
    return seeds;
  }

  private static byte[] withVersion(int version, byte[] body) {
    byte[] b = new byte[body.length + 1];
    b[0] = (byte) version;
    System.arraycopy(body, 0, b, 1, body.length);
    return b;
  }

  @Test
  void theSeedsAreTheOnesThisClassWrites() throws IOException {
    Path dir = Path.of("src/test/resources/dev/ireestubs/fuzz/BytecodeTypesFuzzTestInputs/read");
    for (Map.Entry<String, byte[]> seed : seeds().entrySet()) {
      Path file = dir.resolve(seed.getKey());
      if (Boolean.getBoolean("fuzz.writeSeeds")) {
        Files.createDirectories(dir);
        Files.write(file, seed.getValue());
      }
      assertThat(Files.readAllBytes(file)).isEqualTo(seed.getValue());
      // Each seed reads, and types both functions.
      VmfbModule m =
          VmfbReader.read(
              module(
                  VERSIONS[seed.getValue()[0] & 3],
                  Arrays.copyOfRange(seed.getValue(), 1, seed.getValue().length)),
              "seed");
      for (VmfbExport e : m.exports()) {
        assertThat(e.bytecodeTypes().signature()).isPresent();
        // f$async yields, and so does f, which calls it.
        assertThat(e.yieldReach().yields()).isEqualTo(seed.getKey().endsWith("-yield"));
      }
    }
  }
}
