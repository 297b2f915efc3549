package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.vm.Fence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The fault suite's engine: seeded cycles that open a session or a pool with the real micro_speech
 * model, put calls in flight (asynchronous ones, synchronous ones on other threads, some chained
 * behind a fence, some cancelled or timed out, one failed by the device), close the arguments
 * before, during or after, and then close the backend (at once, after a short timeout, waiting,
 * from two threads at once) or the whole runtime. Every future must complete within a minute, with
 * the "yes" logits or a declared exception, and the process must survive; afterwards nothing native
 * may be left once the device has caught up. {@link CloseFaultsIntegrationTest} runs a bounded
 * number of cycles in {@code mvn verify}; the same cycles run as a soak for minutes (see
 * CONTRIBUTING).
 */
final class CloseFaults {

  /** How the backend is made. */
  enum Backend {
    SESSION,
    POOL
  }

  /** How a cycle ends. */
  enum Closing {
    /** {@code close(Duration.ZERO)}. */
    AT_ONCE,
    /** {@code close(1..5 ms)}. */
    SHORTLY,
    /** {@code close()}: waits for the calls. */
    WAITING,
    /** {@code close(ZERO)} and {@code close()} from two threads at once. */
    RACING,
    /** {@code IreeRuntime.close()} of a runtime of the cycle's own, the backend still open. */
    RUNTIME
  }

  /** One cycle, drawn from a seeded {@link Random}. */
  record Scenario(
      Device device,
      Backend backend,
      Closing closing,
      int asyncCalls,
      int syncThreads,
      boolean chained,
      boolean cancelSome,
      boolean timeoutSome,
      boolean deviceFailure,
      ArgumentClose argumentClose) {

    static Scenario draw(Random random, Device device, Backend backend, List<Closing> closings) {
      int[] counts = {0, 1, 24};
      return new Scenario(
          device,
          backend,
          closings.get(random.nextInt(closings.size())),
          counts[random.nextInt(counts.length)],
          random.nextInt(3),
          random.nextInt(4) == 0,
          random.nextInt(4) == 0,
          random.nextInt(4) == 0,
          random.nextInt(6) == 0,
          ArgumentClose.values()[random.nextInt(ArgumentClose.values().length)]);
    }
  }

  /** When the cycle's argument array is closed. */
  enum ArgumentClose {
    /** Right after the calls are submitted, before the close (IREE holds it pinned). */
    BEFORE_CLOSE,
    /** On another thread, while the backend closes. */
    DURING_CLOSE,
    /** After every future completed. */
    AFTER
  }

  /** What the cycles saw, summed. */
  static final class Tally {
    final AtomicLong cycles = new AtomicLong();
    final AtomicLong calls = new AtomicLong();
    final AtomicLong succeeded = new AtomicLong();
    final AtomicLong failedByClose = new AtomicLong();
    final AtomicLong cancelled = new AtomicLong();
    final AtomicLong timedOut = new AtomicLong();
    final AtomicLong failedOnDevice = new AtomicLong();

    @Override
    public String toString() {
      return cycles
          + " cycles, "
          + calls
          + " calls: "
          + succeeded
          + " gave the yes logits, "
          + failedByClose
          + " failed by the close, "
          + failedOnDevice
          + " failed on the device, "
          + cancelled
          + " cancelled, "
          + timedOut
          + " timed out";
    }
  }

  private static final String ASYNC = "module.tf2onnx$async";
  private static final String SYNC = "module.tf2onnx";

  /** How long any one future may take before the suite calls it a hang. */
  private static final long HANG_SECONDS = 60;

  private final IreeRuntime shared;
  private final Tally tally = new Tally();

  CloseFaults(IreeRuntime shared) {
    this.shared = shared;
  }

  Tally tally() {
    return tally;
  }

  /** Runs one cycle; throws (an assertion) when a future hangs or ends in an undeclared way. */
  void run(Scenario s, Random random) throws Exception {
    IreeRuntime runtime =
        s.closing() == Closing.RUNTIME ? IreeRuntime.create(shared.library()) : shared;
    ModuleBackend backend = open(runtime, s);
    UByteArray yes = MicroSpeech.yes();
    List<Future<?>> futures = new ArrayList<>();
    List<FencedFuture<Object>> calls = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    List<Throwable> syncFailures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> syncThreads = startSyncCallers(backend, yes, s, stop, syncFailures);
    DynamicFunction async = DynamicFunction.of(backend.function(ASYNC));
    CompletableFuture<Void> gate = new CompletableFuture<>();
    for (int i = 0; i < s.asyncCalls(); i++) {
      Fence wait = s.chained() && i == 0 ? Fence.of(gate) : null;
      if (s.chained() && i > 0 && !calls.isEmpty()) {
        wait = calls.get(calls.size() - 1).signal();
      }
      FencedFuture<Object> call =
          wait == null ? async.callAsync(yes) : async.callAsync(List.of(yes), Map.of(), wait);
      calls.add(call);
    }
    if (s.deviceFailure() && !calls.isEmpty() && calls.get(0).signal() instanceof NativeFence f) {
      f.failOnDevice("the accelerator overheated (fault suite)");
    }
    if (s.chained()) {
      gate.complete(null);
    }
    for (FencedFuture<Object> call : calls) {
      int pick = random.nextInt(8);
      if (s.cancelSome() && pick == 0) {
        call.cancel(true);
      } else if (s.timeoutSome() && pick == 1) {
        call.orTimeout(random.nextInt(3), TimeUnit.MILLISECONDS);
      }
      futures.add(call);
    }
    tally.calls.addAndGet(calls.size());
    if (s.argumentClose() == ArgumentClose.BEFORE_CLOSE) {
      yes.close();
    }
    Thread argumentCloser = null;
    if (s.argumentClose() == ArgumentClose.DURING_CLOSE) {
      argumentCloser = new Thread(yes::close, "fault-suite-argument-closer");
      argumentCloser.start();
    }
    close(runtime, backend, s, random);
    stop.set(true);
    for (Future<?> future : futures) {
      check(future, s);
    }
    for (Thread t : syncThreads) {
      t.join(TimeUnit.SECONDS.toMillis(HANG_SECONDS));
      assertWithMessage("a synchronous caller still runs after the close: " + s)
          .that(t.isAlive())
          .isFalse();
    }
    if (!syncFailures.isEmpty()) {
      throw new AssertionError(
          "a synchronous caller ended in an undeclared way: " + s, syncFailures.get(0));
    }
    if (argumentCloser != null) {
      argumentCloser.join();
    }
    if (s.argumentClose() == ArgumentClose.AFTER) {
      yes.close();
    }
    tally.cycles.incrementAndGet();
  }

  private static ModuleBackend open(IreeRuntime runtime, Scenario s) throws IOException {
    Path file = Corpus.require(MicroSpeech.FILE);
    return switch (s.backend()) {
      case SESSION -> runtime.newSession(s.device()).load(file);
      case POOL -> runtime.newPool(s.device(), 2).load(file);
    };
  }

  /**
   * Threads that call {@code tf2onnx} synchronously until the backend refuses them as closed (or
   * {@code stop}); each result is checked and closed, the last one read again after the close. A
   * caller ends on a close, or, after a device failure, on the failure IREE's queue gives the calls
   * behind it (ABORTED); any other end goes to {@code failures}.
   */
  private List<Thread> startSyncCallers(
      ModuleBackend backend,
      UByteArray yes,
      Scenario s,
      AtomicBoolean stop,
      List<Throwable> failures) {
    DynamicFunction sync = DynamicFunction.of(backend.function(SYNC));
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < s.syncThreads(); i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  callUntilClosed(sync, yes, s, stop);
                } catch (RuntimeException | Error e) {
                  failures.add(e);
                }
              },
              "fault-suite-sync-caller-" + i);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    return threads;
  }

  private void callUntilClosed(
      DynamicFunction sync, UByteArray yes, Scenario s, AtomicBoolean stop) {
    FloatArray kept = null;
    for (int n = 0; n < 10_000 && !stop.get(); n++) {
      try {
        FloatArray logits = (FloatArray) sync.call(yes);
        tally.calls.incrementAndGet();
        tally.succeeded.incrementAndGet();
        if (kept != null) {
          kept.close();
        }
        kept = logits; // a result that outlives the close
      } catch (IllegalStateException closed) {
        break; // the backend, or the argument, is closed
      } catch (IreeInvocationException failed) {
        if (!s.deviceFailure()) {
          throw failed;
        }
        assertThat(failed.statusCode()).isEqualTo(IreeStatusCode.ABORTED.code());
        tally.calls.incrementAndGet();
        tally.failedOnDevice.incrementAndGet();
        break;
      }
    }
    if (kept != null) {
      MicroSpeech.assertYes(kept); // read after the close
      kept.close();
    }
  }

  private static void close(IreeRuntime runtime, ModuleBackend backend, Scenario s, Random random)
      throws InterruptedException {
    switch (s.closing()) {
      case AT_ONCE -> closeWith(backend, Duration.ZERO);
      case SHORTLY -> closeWith(backend, Duration.ofMillis(1 + random.nextInt(5)));
      case WAITING -> backend.close();
      case RACING -> {
        Thread other = new Thread(() -> closeWith(backend, Duration.ZERO), "fault-suite-closer");
        other.start();
        backend.close();
        other.join();
      }
      case RUNTIME -> runtime.close();
    }
  }

  private static void closeWith(ModuleBackend backend, Duration timeout) {
    if (backend instanceof IreeSession session) {
      session.close(timeout);
    } else {
      ((IreeSessionPool) backend).close(timeout);
    }
  }

  /** Waits for one future and checks it ended in a way the scenario allows. */
  private void check(Future<?> future, Scenario s) throws InterruptedException {
    try {
      Object result = future.get(HANG_SECONDS, TimeUnit.SECONDS);
      FloatArray logits = (FloatArray) result;
      MicroSpeech.assertYes(logits);
      logits.close();
      tally.succeeded.incrementAndGet();
    } catch (TimeoutException e) {
      throw new AssertionError("a future did not complete in " + HANG_SECONDS + " s: " + s, e);
    } catch (CancellationException e) {
      assertWithMessage("cancelled without a cancel: " + s).that(s.cancelSome()).isTrue();
      tally.cancelled.incrementAndGet();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
      if (cause instanceof TimeoutException) {
        assertWithMessage("timed out without orTimeout: " + s).that(s.timeoutSome()).isTrue();
        tally.timedOut.incrementAndGet();
      } else if (cause instanceof IllegalStateException closed) {
        assertThat(closed).hasMessageThat().contains("was closed while the call was");
        tally.failedByClose.incrementAndGet();
      } else if (cause instanceof IreeInvocationException failed) {
        // A device failure, and on local-task the calls IREE's queue aborts after it; a chained
        // call behind a failed or closed call does not run.
        assertWithMessage("a call failed in IREE without a device failure or a chain: " + s)
            .that(s.deviceFailure() || s.chained())
            .isTrue();
        tally.failedOnDevice.incrementAndGet();
      } else {
        throw new AssertionError("an undeclared failure: " + s, e.getCause());
      }
    }
  }

  /**
   * Waits until the device has finished every call a close gave up on and every session, pool and
   * runtime the cycles made is released: nothing native is kept once the device is idle.
   */
  static void awaitNothingKept(IreeRuntime runtime, int liveBefore) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_SECONDS);
    while (System.nanoTime() < deadline
        && (runtime.callsStillOnDevice() != 0 || Retention.live() > liveBefore)) {
      Thread.sleep(10);
    }
    assertWithMessage("calls the device has not finished a minute after the last close")
        .that(runtime.callsStillOnDevice())
        .isEqualTo(0);
    assertWithMessage("native sessions, pools or runtimes not released")
        .that(Retention.live())
        .isAtMost(liveBefore);
  }

  /** Threads that keep both cores busy while the cycles run, as a loaded CI machine is. */
  static AutoCloseable cpuHogs(int count) {
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> hogs = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Thread t =
          new Thread(
              () -> {
                long x = 1;
                while (!stop.get()) {
                  x = x * 6364136223846793005L + 1442695040888963407L;
                }
                if (x == 42) {
                  System.out.print(""); // keeps the loop from being removed
                }
              },
              "fault-suite-cpu-hog-" + i);
      t.setDaemon(true);
      t.start();
      hogs.add(t);
    }
    return () -> {
      stop.set(true);
      for (Thread t : hogs) {
        t.join();
      }
    };
  }

  /** Resident memory, threads and native objects now, for the soak's start and end lines. */
  static String footprint() throws IOException {
    long fds;
    try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
      fds = open.count();
    } catch (IOException e) {
      fds = -1;
    }
    return "resident "
        + NativeMemory.residentSetSize().orElse(-1) / 1024
        + " KiB, malloc in use "
        + NativeMemory.mallocInUse().orElse(-1) / 1024
        + " KiB, "
        + Thread.activeCount()
        + " threads, "
        + Retention.live()
        + " native sessions/pools/runtimes, "
        + BufferTransfer.pinnedCount()
        + " pinned arguments, "
        + fds
        + " open file descriptors";
  }
}
