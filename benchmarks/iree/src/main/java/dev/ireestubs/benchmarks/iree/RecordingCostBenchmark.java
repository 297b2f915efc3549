package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.iree.IreeLibrary;
import dev.ireestubs.iree.IreeRuntime;
import dev.ireestubs.iree.IreeSession;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.VmList;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the JFR event {@code dev.ireestubs.Call} costs a call: the same call in a JVM where the
 * event is left out ({@code -Ddev.ireestubs.jfr=false}: {@code *WithoutEvent}), in one with the
 * event class present and no recording ({@code *JfrOff}: the default), and in one recording it
 * ({@code -XX:StartFlightRecording}: {@code *Recording}). The calls: a host module's {@code add} of
 * two 4xf32 arrays (the cheapest call a backend makes, where a fixed cost shows most) and IREE's
 * {@code add} of {@code 2026-08_djl-iree-engine_add_bc17.vmfb} on local-sync, both through the
 * backend function with a prebuilt argument list, in batches of {@value #BATCH} calls whose CPU
 * time the benchmark counts. The call statistics are counted in every case. Run by {@link
 * ServingBenchmarkMain}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RecordingCostBenchmark {

  private static final String WITHOUT = "-Ddev.ireestubs.jfr=false";
  private static final String RECORDING =
      "-XX:StartFlightRecording:maxsize=64m,filename=target/recording-cost.jfr";

  private static final String ADD =
      "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
          + " tensor<4xf32>)";

  private HostModule host;
  private BackendFunction hostAdd;
  private IreeRuntime runtime;
  private IreeSession session;
  private BackendFunction ireeAdd;
  private VmList arguments;
  private VmList sum;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    FloatArray a = FloatArray.of(new float[] {1, 2, 3, 4}, 4);
    FloatArray b = FloatArray.of(new float[] {10, 20, 30, 40}, 4);
    arguments = VmList.of(a.asBufferView(), b.asBufferView());
    sum = VmList.of(FloatArray.of(new float[] {11, 22, 33, 44}, 4).asBufferView());
    host = HostModule.builder("module").function("add", ADD, args -> sum).build();
    hostAdd = host.function("module.add");
    runtime = IreeRuntime.create(IreeLibrary.load());
    session = runtime.newSession().load(IreeBenchmarkMain.module());
    ireeAdd = session.function("module.add");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    host.close();
    runtime.close();
  }

  /**
   * Calls per measured operation: a batch, so that reading the CPU clock costs nothing per call.
   */
  static final int BATCH = 1_000;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /**
   * The CPU time the measuring thread spent in its batches ({@code cpuNanos}) and the calls they
   * made ({@code calls}), summed by JMH: on a machine shared with other work the CPU time per call
   * scatters far less than the wall time.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Cpu {
    /** CPU nanoseconds spent in the batches. */
    public long cpuNanos;

    /** Calls made. */
    public long calls;

    @Setup(Level.Iteration)
    public void reset() {
      cpuNanos = 0;
      calls = 0;
    }
  }

  private Object hostBatch(Cpu cpu) {
    long start = THREADS.getCurrentThreadCpuTime();
    Object last = null;
    for (int i = 0; i < BATCH; i++) {
      last = hostAdd.invoke(arguments); // the prebuilt result list, not closed
    }
    cpu.cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
    cpu.calls += BATCH;
    return last;
  }

  private int ireeBatch(Cpu cpu) {
    long start = THREADS.getCurrentThreadCpuTime();
    int sum = 0;
    for (int i = 0; i < BATCH; i++) {
      try (VmList out = ireeAdd.invoke(arguments)) {
        sum += out.size();
      }
    }
    cpu.cpuNanos += THREADS.getCurrentThreadCpuTime() - start;
    cpu.calls += BATCH;
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  @Fork(jvmArgsAppend = WITHOUT)
  public Object hostWithoutEvent(Cpu cpu) {
    return hostBatch(cpu);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public Object hostJfrOff(Cpu cpu) {
    return hostBatch(cpu);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  @Fork(jvmArgsAppend = RECORDING)
  public Object hostRecording(Cpu cpu) {
    return hostBatch(cpu);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  @Fork(jvmArgsAppend = WITHOUT)
  public int ireeWithoutEvent(Cpu cpu) {
    return ireeBatch(cpu);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int ireeJfrOff(Cpu cpu) {
    return ireeBatch(cpu);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  @Fork(jvmArgsAppend = RECORDING)
  public int ireeRecording(Cpu cpu) {
    return ireeBatch(cpu);
  }
}
