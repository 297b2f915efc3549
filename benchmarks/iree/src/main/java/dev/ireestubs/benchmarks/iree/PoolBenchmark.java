package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.iree.Device;
import dev.ireestubs.iree.IreeLibrary;
import dev.ireestubs.iree.IreeRuntime;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Throughput of micro_speech's {@code tf2onnx} on local-sync, through the generated stub, from one
 * thread and from two at once, on a pool of two sessions ({@code backend=pool}) and, to compare, on
 * one session that serialises its calls ({@code backend=session}). Each thread passes its own copy
 * of the "yes" features. Run by {@link ServingBenchmarkMain}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PoolBenchmark {

  /** {@code pool}: an IreeSessionPool of 2; {@code session}: one IreeSession. */
  @Param({"pool", "session"})
  public String backend;

  private IreeRuntime runtime;
  private ModuleBackend modules;
  private Speech speech;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    runtime = IreeRuntime.create(IreeLibrary.load());
    modules =
        backend.equals("pool")
            ? runtime.newPool(Device.LOCAL_SYNC, 2).load(AsyncBenchmarkMain.file(Speech.FILE))
            : runtime.newSession(Device.LOCAL_SYNC).load(AsyncBenchmarkMain.file(Speech.FILE));
    speech = new Iree_Speech(modules);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    runtime.close();
  }

  /**
   * One thread's input, its own copy of the "yes" features, and what the thread's calls cost it:
   * the CPU time it spent in them ({@code cpuNanos}) and how many it made ({@code calls}), summed
   * by JMH; on a machine shared with other work the CPU time per call tells what the wall time
   * cannot (whether two threads' calls slow each other).
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Input {
    UByteArray yes;

    /** CPU nanoseconds this thread spent in its calls. */
    public long cpuNanos;

    /** The calls this thread made. */
    public long calls;

    @Setup(Level.Iteration)
    public void reset() {
      cpuNanos = 0;
      calls = 0;
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      byte[] bytes = Files.readAllBytes(AsyncBenchmarkMain.file(Speech.YES));
      yes = UByteArray.zeros(1, 49, 40, 1);
      for (int i = 0; i < bytes.length; i++) {
        yes.setFlat(bytes[i] & 0xFF, i);
      }
    }
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private float call(Input input) {
    long cpu = THREADS.getCurrentThreadCpuTime();
    try (FloatArray logits = speech.tf2onnx(input.yes)) {
      return logits.get(0, 2);
    } finally {
      input.cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu;
      input.calls++;
    }
  }

  /** Calls from one thread. */
  @Benchmark
  @Threads(1)
  public float oneThread(Input input) {
    return call(input);
  }

  /** Calls from two threads at once (the figure is both threads' calls together). */
  @Benchmark
  @Threads(2)
  public float twoThreads(Input input) {
    return call(input);
  }
}
