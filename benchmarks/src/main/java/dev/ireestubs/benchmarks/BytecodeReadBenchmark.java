package dev.ireestubs.benchmarks;

import dev.ireestubs.testing.SharedData;
import dev.ireestubs.testing.TestBytecode;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What reading a module costs now that {@link VmfbReader} also reads every export's types out of
 * its function body: synthetic modules of growing size (each function a body shaped like a real
 * {@code f$async}: constants, two asserts, a queue op with its fences, a create, a return; every
 * one exported, so every one is analysed), to show the cost per MB stays flat; and the real modules
 * of {@code ../shared/iree-reflection} when that folder is there. The setup prints each module's
 * size, so that the time per call gives ms per MB.
 *
 * <pre>
 * mvn -q -pl benchmarks -am package -DskipTests exec:exec \
 *   -Dbenchmark.args="BytecodeReadBenchmark -f 1 -wi 5 -i 10 -w 2s -r 2s -prof gc -jvmArgs -Xmx4g"
 * </pre>
 *
 * <p>(The largest synthetic module allocates 120 MB per read: give the fork a heap that holds a
 * few, or the collector's time dominates.) Measured on the 2-core build machine: 15.4, 11.2 and
 * 12.9 ms per MB for 64, 1,024 and 16,384 functions (17 KB, 270 KB, 4.3 MB), 28 bytes allocated per
 * byte of module at every size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BytecodeReadBenchmark {

  /** Exported functions in the synthetic module. */
  @Param({"64", "1024", "16384"})
  public int functions;

  /** A real module of {@code ../shared/iree-reflection}, or {@code none} for the synthetic one. */
  @Param({
    "none",
    "models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb",
    "vmfb/2026-03_elodin_matmul_x86_64_bc17.vmfb",
    "vmfb/2024-08_iree.gd_movenet_tflite_int8_llvm-cpu_bc15_argattrs.vmfb"
  })
  public String real;

  private byte[] module;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    if (real.equals("none")) {
      module = synthetic(functions);
    } else {
      Optional<Path> dir = SharedData.directory();
      if (dir.isEmpty() || functions != 64) {
        // The real modules are measured once, under the first size; without ../shared, not at all.
        module = null;
        return;
      }
      module = Files.readAllBytes(dir.get().resolve(real));
    }
    VmfbModule m = VmfbReader.read(module, "bench.vmfb");
    long typed =
        m.exports().stream().filter(e -> e.bytecodeTypes().signature().isPresent()).count();
    System.out.printf(
        "%n%s: %,d bytes, %d exports, %d typed from bytecode%n",
        real.equals("none") ? "synthetic, " + functions + " functions" : real,
        module.length,
        m.exports().size(),
        typed);
  }

  /** Reads the module: its FlatBuffer, its imports, and its exports' bytecode types. */
  @Benchmark
  public Object read() throws VmfbFormatException {
    return module == null ? null : VmfbReader.read(module, "bench.vmfb");
  }

  /** A module of {@code n} exported functions, each with the body of a real f$async. */
  static byte[] synthetic(int n) {
    TestModules.Spec spec =
        TestModules.spec()
            .bytecodeVersion(17, 0)
            .imports(
                "hal.buffer_view.assert", "0rriiCID_v",
                "hal.buffer_view.create", "0rIIiiCID_r",
                "hal.device.queue.execute", "0rIrrCrD_v");
    byte[] body = body();
    for (int i = 0; i < n; i++) {
      spec.function("f" + i, "0rrrr_r").export("f" + i, i, null).body(i, body);
    }
    return spec.sizePrefixed();
  }

  private static byte[] body() {
    TestBytecode code = new TestBytecode();
    code.block();
    code.constI32(TestBytecode.i32(0), 0x21000020)
        .constI32(TestBytecode.i32(1), 1)
        .constI64(TestBytecode.i32(2), 1)
        .constI64(TestBytecode.i32(4), 49)
        .constI64(TestBytecode.i32(6), 40);
    for (int view = 0; view < 2; view++) {
      code.callVariadic(
          TestBytecode.importOrdinal(0),
          new int[] {1, 1, 1, 1, 4},
          new int[] {
            TestBytecode.ref(view), TestBytecode.ref(9), TestBytecode.i32(0), TestBytecode.i32(1),
            TestBytecode.i32(2), TestBytecode.i32(4), TestBytecode.i32(6), TestBytecode.i32(2)
          },
          new int[0]);
    }
    code.call(
        TestBytecode.importOrdinal(2),
        new int[] {
          TestBytecode.ref(8),
          TestBytecode.i32(2),
          TestBytecode.ref(2),
          TestBytecode.ref(3),
          TestBytecode.ref(7)
        },
        new int[0]);
    int[] create = new int[7];
    Arrays.fill(create, TestBytecode.i32(2));
    create[0] = TestBytecode.move(7);
    create[3] = TestBytecode.i32(0);
    create[4] = TestBytecode.i32(1);
    code.callVariadic(
        TestBytecode.importOrdinal(1),
        new int[] {1, 1, 1, 1, 1, 2},
        create,
        new int[] {TestBytecode.ref(0)});
    return code.ret(TestBytecode.move(0)).bytes();
  }
}
