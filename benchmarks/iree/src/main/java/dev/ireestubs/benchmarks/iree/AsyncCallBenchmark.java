package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.iree.Device;
import dev.ireestubs.iree.IreeLibrary;
import dev.ireestubs.iree.IreeRuntime;
import dev.ireestubs.iree.IreeSession;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
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
import org.openjdk.jmh.annotations.TearDown;

/**
 * micro_speech on IREE's runtime (local-task unless {@code device} says otherwise), through the
 * generated stub, per call: a synchronous call ({@link #sync}); the calling thread's share of an
 * asynchronous call, submission only ({@link #submit}, with at most 8 calls kept in flight by a
 * drain outside the measurement); and the steady state of {@link Window#inFlight} asynchronous
 * calls kept in flight ({@link #window}: each operation waits for the oldest call and submits a new
 * one, so its time is the inverse of the throughput). Run by {@link AsyncBenchmarkMain}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AsyncCallBenchmark {

  /** The device, {@code local-task} or {@code local-sync}. */
  @Param({"LOCAL_TASK"})
  public String device;

  private IreeRuntime runtime;
  private IreeSession session;
  private Speech speech;
  private UByteArray yes;
  private final ArrayDeque<CompletableFuture<FloatArray>> pending = new ArrayDeque<>();

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    runtime = IreeRuntime.create(IreeLibrary.load());
    session = runtime.newSession(Device.valueOf(device)).load(AsyncBenchmarkMain.file(Speech.FILE));
    speech = new Iree_Speech(session);
    byte[] bytes = Files.readAllBytes(AsyncBenchmarkMain.file(Speech.YES));
    yes = UByteArray.zeros(1, 49, 40, 1);
    for (int i = 0; i < bytes.length; i++) {
      yes.setFlat(bytes[i] & 0xFF, i);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    drainAll();
    runtime.close();
  }

  private void drainAll() {
    while (!pending.isEmpty()) {
      pending.poll().join().close();
    }
  }

  /** Keeps {@link #submit}'s calls in flight at most 8, waiting outside the measurement. */
  @Setup(Level.Invocation)
  public void drain() {
    while (pending.size() >= 8) {
      pending.poll().join().close();
    }
  }

  /** A synchronous call of {@code tf2onnx}: the calling thread waits for the result. */
  @Benchmark
  public float sync() {
    try (FloatArray logits = speech.tf2onnx(yes)) {
      return logits.get(0, 2);
    }
  }

  /** The submission of an asynchronous call: what the calling thread spends on it. */
  @Benchmark
  @SuppressWarnings("FutureReturnValueIgnored") // kept in pending and awaited after the iteration
  public Object submit() {
    CompletableFuture<FloatArray> f = speech.tf2onnxAsync(yes);
    pending.add(f);
    return f;
  }

  /** One call of {@code inFlight} kept in flight: wait for the oldest, submit the next. */
  @Benchmark
  public float window(Window w) {
    while (w.calls.size() < w.inFlight) {
      w.calls.add(speech.tf2onnxAsync(yes));
    }
    try (FloatArray logits = w.calls.poll().join()) {
      w.calls.add(speech.tf2onnxAsync(yes));
      return logits.get(0, 2);
    }
  }

  /** The calls {@link #window} keeps in flight. */
  @State(Scope.Thread)
  public static class Window {
    /** Asynchronous calls kept in flight. */
    @Param({"1", "2", "4", "8"})
    public int inFlight;

    final ArrayDeque<CompletableFuture<FloatArray>> calls = new ArrayDeque<>();

    /** Completes the calls in flight, before the session can close. */
    @TearDown(Level.Iteration)
    public void drain() {
      while (!calls.isEmpty()) {
        calls.poll().join().close();
      }
    }
  }
}
