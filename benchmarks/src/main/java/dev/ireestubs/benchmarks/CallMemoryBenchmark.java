package dev.ireestubs.benchmarks;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.host.HostFunction;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A stub called in a loop with a Java-array argument, which it copies into native memory each call:
 * {@code float[1][224][224][3]} ({@code classify}) and {@code float[150528]} ({@code sum}), 600 KB
 * each. The bodies ignore their argument and return a number, so what is measured is the stub's
 * copy and what becomes of its memory: freed when the call ends, or left to a garbage collection
 * (fresh memory every call, its pages faulted in anew). {@code backend=raw} checks nothing ({@link
 * RawBackend}); {@code backend=host} is a {@link HostModule}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CallMemoryBenchmark {

  /** {@code raw}: a backend that checks nothing; {@code host}: a {@link HostModule}. */
  @Param({"raw", "host"})
  public String backend;

  private ArrayModel stub;
  private final float[][][][] image = new float[1][224][224][3];
  private final float[] flat = new float[150528];

  @Setup
  public void setUp() {
    stub = new Iree_ArrayModel(backend(backend));
  }

  /** The module {@link ArrayModel} binds to: a host module, or the raw backend over it. */
  static ModuleBackend backend(String kind) {
    HostFunction one = args -> VmList.of(VmValue.f32(1f));
    return RawBackend.builder("arrays")
        .function("classify", AbiJson.parseFunction(ArrayModel.CLASSIFY_ABI), one)
        .function("sum", AbiJson.parseFunction(ArrayModel.SUM_ABI), one)
        .build(kind.equals("raw"));
  }

  /** {@code float[1][224][224][3]} through the stub. */
  @Benchmark
  public float image4D() {
    return stub.classify(image);
  }

  /** {@code float[150528]} through the stub. */
  @Benchmark
  public float flat() {
    return stub.sum(flat);
  }
}
