package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.host.HostModule;
import dev.ireestubs.ndarray.FloatArray;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The reused pattern of a synchronous call (inputs made once, the result closed) through the
 * generated stub {@link Adder} on a host module instead of IREE's runtime, for JMH's GC profiler
 * ({@code exec:exec@host-gc}): heap bytes per call on the embedded backend, which issue #36 asks to
 * be at least as good as IREE's (at most 256 B for this pattern). The body, a {@link
 * HostModule.Builder#valueFunction value function} as fakes register theirs, adds the two arrays
 * into a new one, as a real body would: the call's bytes include that array, which the module hands
 * over to the caller (the benchmark's close of the result gives its memory back to the pool). Needs
 * neither IREE's library nor {@code ../shared}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HostCallBenchmark {

  private HostModule module;
  private Adder adder;
  private FloatArray a;
  private FloatArray b;

  @Setup(Level.Trial)
  public void setUp() {
    module =
        HostModule.builder("module")
            .valueFunction("add", Adder.DECLARATION, HostCallBenchmark::add)
            .build();
    adder = new Iree_Adder(module);
    a = FloatArray.of(new float[] {1, 2, 3, 4}, 4);
    b = FloatArray.of(new float[] {10, 20, 30, 40}, 4);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    a.close();
    b.close();
    module.close();
  }

  /** The body: {@code a + b} into a new array, which the caller owns. */
  private static Object add(List<Object> arguments) {
    FloatArray x = (FloatArray) arguments.get(0);
    FloatArray y = (FloatArray) arguments.get(1);
    FloatArray sum = FloatArray.zeros(4);
    for (int i = 0; i < 4; i++) {
      sum.setFlat(x.getFlat(i) + y.getFlat(i), i);
    }
    return sum;
  }

  /** Inputs made once and reused; the result closed. */
  @Benchmark
  public float reused() {
    try (FloatArray sum = adder.add(a, b)) {
      return sum.getFlat(3);
    }
  }
}
