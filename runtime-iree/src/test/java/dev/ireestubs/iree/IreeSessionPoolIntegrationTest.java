package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.iree.models.Iree_Scale2;
import dev.ireestubs.iree.models.Iree_Speech;
import dev.ireestubs.iree.models.Scale2;
import dev.ireestubs.iree.models.Speech;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.vm.Fence;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A pool of sessions over one loaded module, on IREE's runtime, through generated stubs: many
 * threads get each their own results (sixteen inputs with sixteen different results, so a result
 * handed to the wrong caller fails), none is lost, results outlive their session's turn and the
 * pool, the wait for a free session is fair and bounded, closing follows the session's rules, and
 * parameter archives are bound once for every session. Skipped without a runtime library or without
 * {@code ../shared}.
 */
class IreeSessionPoolIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  private static IreeSessionPool pool(Device device, int size) throws IOException {
    return IREE.runtime().newPool(device, size).load(Corpus.require(Speech.FILE));
  }

  @ParameterizedTest
  @EnumSource(Device.class)
  void manyThreadsThroughTheStubEachGetTheirOwnResults(Device device) throws Exception {
    SpeechInputs inputs = new SpeechInputs(IREE.runtime(), device);
    int threads = 8;
    int callsEach = 40;
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    try (IreeSessionPool pool = pool(device, 4)) {
      Speech speech = new Iree_Speech(pool);
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t;
        done.add(
            executor.submit(
                () -> {
                  Random random = new Random(seed);
                  int checked = 0;
                  for (int i = 0; i < callsEach; i++) {
                    int k = random.nextInt(SpeechInputs.COUNT);
                    try (UByteArray x = inputs.input(k);
                        FloatArray y = speech.tf2onnx(x)) {
                      inputs.assertResultOf(k, y);
                      checked++;
                    }
                  }
                  return checked;
                }));
      }
      int checked = 0;
      for (Future<Integer> f : done) {
        checked += f.get(120, TimeUnit.SECONDS);
      }
      assertThat(checked).isEqualTo(threads * callsEach);
      assertThat(pool.statistics().getCalls()).isEqualTo(threads * callsEach);
      assertThat(pool.statistics().getFailures()).isEqualTo(0);
    } finally {
      executor.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(Device.class)
  void asynchronousCallsFromManyThreadsEachGetTheirOwnResults(Device device) throws Exception {
    SpeechInputs inputs = new SpeechInputs(IREE.runtime(), device);
    int threads = 6;
    int callsEach = 30; // all in flight at once: 180 calls over the device's shared window
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    try (IreeSessionPool pool = pool(device, 3)) {
      Speech speech = new Iree_Speech(pool);
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        done.add(
            executor.submit(
                () -> {
                  List<CompletableFuture<FloatArray>> calls = new ArrayList<>();
                  for (int i = 0; i < callsEach; i++) {
                    try (UByteArray x = inputs.input((first + i) % SpeechInputs.COUNT)) {
                      calls.add(speech.tf2onnxAsync(x)); // the stub ends its copies in time
                    }
                  }
                  int checked = 0;
                  for (int i = 0; i < callsEach; i++) {
                    try (FloatArray y = calls.get(i).get(60, TimeUnit.SECONDS)) {
                      inputs.assertResultOf((first + i) % SpeechInputs.COUNT, y);
                      checked++;
                    }
                  }
                  return checked;
                }));
      }
      int checked = 0;
      for (Future<Integer> f : done) {
        checked += f.get(120, TimeUnit.SECONDS);
      }
      assertThat(checked).isEqualTo(threads * callsEach);
      assertThat(pool.statistics().getCalls()).isEqualTo(threads * callsEach);
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void resultsStayValidAfterTheirSessionWentBackAndAfterThePoolClosed() throws Exception {
    SpeechInputs inputs = new SpeechInputs(IREE.runtime(), Device.LOCAL_SYNC);
    List<FloatArray> kept = new ArrayList<>();
    List<Integer> of = new ArrayList<>();
    try (IreeSessionPool pool = pool(Device.LOCAL_SYNC, 2)) {
      Speech speech = new Iree_Speech(pool);
      for (int i = 0; i < 64; i++) {
        int k = i % SpeechInputs.COUNT;
        try (UByteArray x = inputs.input(k)) {
          kept.add(speech.tf2onnx(x));
          of.add(k);
        }
      }
      for (int i = 0; i < kept.size(); i++) {
        inputs.assertResultOf(of.get(i), kept.get(i)); // after the sessions served other calls
      }
    }
    for (int i = 0; i < kept.size(); i++) {
      inputs.assertResultOf(of.get(i), kept.get(i)); // after the pool released everything
      kept.get(i).close();
    }
  }

  @Test
  void everySessionAppendsTheOneModuleAndServesCalls() throws Exception {
    SpeechInputs inputs = new SpeechInputs(IREE.runtime(), Device.LOCAL_SYNC);
    try (IreeSessionPool pool = pool(Device.LOCAL_SYNC, 3)) {
      assertThat(pool.size()).isEqualTo(3);
      assertThat(pool.device()).isEqualTo(Device.LOCAL_SYNC);
      assertThat(pool.functionNames()).containsAtLeast("module.tf2onnx", "module.tf2onnx$async");
      assertThat(pool.statistics().getModules()).containsExactly("module");
      // Each session has run the module's initialiser: hold the other two, call on the third.
      Speech speech = new Iree_Speech(pool);
      int[] held = {pool.take("test"), pool.take("test"), pool.take("test")};
      for (int i = 0; i < held.length; i++) {
        pool.giveBack(held[i]);
        try (UByteArray x = inputs.input(5);
            FloatArray y = speech.tf2onnx(x)) {
          inputs.assertResultOf(5, y);
        }
        held[i] = pool.take("test");
      }
      for (int seat : held) {
        pool.giveBack(seat);
      }
      // A second module of the same name is refused, as a session refuses it; the pool goes on.
      IllegalArgumentException twice =
          assertThrows(
              IllegalArgumentException.class, () -> pool.load(Corpus.require(Speech.FILE)));
      assertThat(twice).hasMessageThat().contains("module");
      try (UByteArray x = inputs.input(1);
          FloatArray y = new Iree_Speech(pool).tf2onnx(x)) {
        inputs.assertResultOf(1, y);
      }
      // From memory too.
      pool.load(
          java.nio.ByteBuffer.wrap(
              Files.readAllBytes(Corpus.require("vmfb/2026-06_eerie_mul_vmvx_bc17.vmfb"))),
          "mul.vmfb");
      assertThat(pool.functionNames()).contains("arithmetic.simple_mul");
      assertThat(pool.statistics().getModules()).containsExactly("module", "arithmetic").inOrder();
    }
  }

  @Test
  void callsWaitForAFreeSessionInTheOrderTheyCame() throws Exception {
    try (IreeSessionPool pool = pool(Device.LOCAL_SYNC, 1)) {
      int held = pool.take("test");
      List<String> order = Collections.synchronizedList(new ArrayList<>());
      Thread first = waiter(pool, "first", order);
      awaitWaiting(pool, 1);
      Thread second = waiter(pool, "second", order);
      awaitWaiting(pool, 2);
      pool.giveBack(held);
      first.join(10_000);
      second.join(10_000);
      assertThat(order).containsExactly("first", "second").inOrder();
    }
  }

  /** A thread that takes the session, notes its name while it holds it, and gives it back. */
  private static Thread waiter(IreeSessionPool pool, String name, List<String> order) {
    Thread t =
        new Thread(
            () -> {
              int taken = pool.take(name);
              order.add(name);
              pool.giveBack(taken);
            });
    t.start();
    return t;
  }

  private static void awaitWaiting(IreeSessionPool pool, int n) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (pool.waiting() < n && System.nanoTime() < end) {
      Thread.sleep(1);
    }
    assertThat(pool.waiting()).isEqualTo(n);
  }

  @Test
  void aCallThatWaitsLongerThanTheBoundFails() throws Exception {
    try (IreeSessionPool pool =
            IREE.runtime()
                .newPool(Device.LOCAL_SYNC, 1, Duration.ofMillis(50))
                .load(Corpus.require(Speech.FILE));
        UByteArray yes = MicroSpeech.yes()) {
      Speech speech = new Iree_Speech(pool);
      int held = pool.take("test");
      long start = System.nanoTime();
      IreeInvocationException e =
          assertThrows(IreeInvocationException.class, () -> speech.tf2onnx(yes));
      assertThat(System.nanoTime() - start).isAtLeast(TimeUnit.MILLISECONDS.toNanos(50));
      assertThat(e.statusCode()).isEqualTo(IreeStatusCode.DEADLINE_EXCEEDED.code());
      assertThat(e)
          .hasMessageThat()
          .isEqualTo(
              "module.tf2onnx: all 1 sessions of the pool stayed busy for 50 ms (the pool's"
                  + " maxWait): make the pool larger, let calls wait longer, or send fewer calls"
                  + " at once");
      // An asynchronous call fails its future the same way.
      ExecutionException async =
          assertThrows(
              ExecutionException.class, () -> speech.tf2onnxAsync(yes).get(10, TimeUnit.SECONDS));
      assertThat(async).hasCauseThat().isInstanceOf(IreeInvocationException.class);
      assertThat(pool.statistics().getFailures()).isEqualTo(2);
      pool.giveBack(held);
      MicroSpeech.assertYes(speech.tf2onnx(yes));
      assertThat(pool.statistics().getCalls()).isEqualTo(3);
    }
  }

  @Test
  void anInterruptedWaitFailsTheCallAndKeepsTheInterrupt() throws Exception {
    try (IreeSessionPool pool = pool(Device.LOCAL_SYNC, 1);
        UByteArray yes = MicroSpeech.yes()) {
      Speech speech = new Iree_Speech(pool);
      int held = pool.take("test");
      AtomicInteger code = new AtomicInteger();
      AtomicInteger interrupted = new AtomicInteger();
      Thread t =
          new Thread(
              () -> {
                try {
                  speech.tf2onnx(yes);
                } catch (IreeInvocationException e) {
                  code.set(e.statusCode());
                  interrupted.set(Thread.currentThread().isInterrupted() ? 1 : 0);
                }
              });
      t.start();
      awaitWaiting(pool, 1);
      t.interrupt();
      t.join(10_000);
      assertThat(code.get()).isEqualTo(IreeStatusCode.CANCELLED.code());
      assertThat(interrupted.get()).isEqualTo(1);
      pool.giveBack(held);
    }
  }

  @Test
  void closingWakesTheWaitingCallsAndRefusesNewOnes() throws Exception {
    IreeSessionPool pool = pool(Device.LOCAL_SYNC, 1);
    Speech speech = new Iree_Speech(pool);
    pool.take("test"); // never given back: the calls below wait until the pool closes
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Thread t =
          new Thread(
              () -> {
                try (UByteArray yes = MicroSpeech.yes()) {
                  speech.tf2onnx(yes);
                } catch (RuntimeException e) {
                  failures.add(e);
                }
              });
      t.start();
      threads.add(t);
    }
    awaitWaiting(pool, 3);
    pool.close();
    for (Thread t : threads) {
      t.join(10_000);
      assertThat(t.isAlive()).isFalse();
    }
    assertThat(failures).hasSize(3);
    for (Throwable f : failures) {
      assertThat(f).isInstanceOf(IllegalStateException.class);
      assertThat(f).hasMessageThat().contains("pool (local-sync) is closed");
    }
    assertThat(pool.isClosed()).isTrue();
    assertThrows(IllegalStateException.class, () -> pool.lookup("module.tf2onnx"));
    assertThrows(IllegalStateException.class, () -> speech.tf2onnx(MicroSpeech.yes()));
    pool.close(); // twice: nothing
  }

  @ParameterizedTest
  @EnumSource(Device.class)
  void closingWithCallsRunningEndsEachCallOneWayOrTheOther(Device device) throws Exception {
    SpeechInputs inputs = new SpeechInputs(IREE.runtime(), device);
    IreeSessionPool pool = pool(device, 2);
    Speech speech = new Iree_Speech(pool);
    AtomicInteger ok = new AtomicInteger();
    List<Throwable> unexpected = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch running = new CountDownLatch(4);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int k = t;
      Thread thread =
          new Thread(
              () -> {
                running.countDown();
                while (true) {
                  try (UByteArray x = inputs.input(k)) {
                    if (k % 2 == 0) {
                      try (FloatArray y = speech.tf2onnx(x)) {
                        inputs.assertResultOf(k, y);
                      }
                    } else {
                      try (FloatArray y = speech.tf2onnxAsync(x).get(30, TimeUnit.SECONDS)) {
                        inputs.assertResultOf(k, y);
                      }
                    }
                    ok.incrementAndGet();
                  } catch (IllegalStateException e) {
                    return; // refused: the pool or its session is closed
                  } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof IllegalStateException)) {
                      unexpected.add(e);
                    }
                    return; // failed at close, as a session fails calls still in flight
                  } catch (Throwable e) {
                    unexpected.add(e);
                    return;
                  }
                }
              });
      thread.start();
      threads.add(thread);
    }
    running.await();
    while (ok.get() < 20) {
      Thread.sleep(1);
    }
    pool.close();
    for (Thread t : threads) {
      t.join(30_000);
      assertThat(t.isAlive()).isFalse();
    }
    assertThat(unexpected).isEmpty();
  }

  @Test
  void parameterArchivesAreBoundOnceForEverySession() throws Exception {
    Parameters both =
        Parameters.builder()
            .scope("model", Corpus.require("params/scale_weights.irpa"))
            .scope("bias", Corpus.require("params/scale2_bias.irpa"))
            .build();
    IreeBackend.Options options =
        IreeBackend.Options.defaults()
            .withLibrary(IreeLibrary.locate().orElseThrow())
            .withParameters(both);
    ExecutorService executor = Executors.newFixedThreadPool(4);
    try (IreeSessionPool pool = IreeBackend.openPool(Corpus.require(Scale2.FILE), options, 3)) {
      Scale2 stub = new Iree_Scale2(pool);
      List<Future<float[]>> results = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        float f = i;
        results.add(
            executor.submit(
                () -> {
                  try (FloatArray x = FloatArray.of(new float[] {1 + f, 2, 3, 4}, 4);
                      FloatArray y = stub.scale2(x)) {
                    return y.toArray();
                  }
                }));
      }
      for (int i = 0; i < results.size(); i++) {
        // scale 2, bias 10: (1 + i) * 2 + 10, 14, 16, 18
        assertThat(results.get(i).get(60, TimeUnit.SECONDS))
            .isEqualTo(new float[] {12 + 2 * i, 14, 16, 18});
      }
      assertThat(pool.parameterScopes()).containsExactly("model", "bias");
      IllegalStateException again =
          assertThrows(
              IllegalStateException.class, () -> pool.load(Corpus.require(Scale2.FILE), both));
      assertThat(again).hasMessageThat().contains("a pool binds parameters once");
    } finally {
      executor.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(Device.class)
  void callsChainedBehindEachOthersFencesRunOnAnySession(Device device) throws Exception {
    SpeechInputs inputs = new SpeechInputs(IREE.runtime(), device);
    try (IreeSessionPool pool = pool(device, 3)) {
      Speech speech = new Iree_Speech(pool);
      List<FencedFuture<FloatArray>> chain = new ArrayList<>();
      Fence previous = null;
      for (int i = 0; i < 12; i++) {
        try (UByteArray x = inputs.input(i % SpeechInputs.COUNT)) {
          FencedFuture<FloatArray> call = speech.tf2onnxAfter(x, previous);
          chain.add(call);
          previous = call.signal(); // a fence of whichever session took this call
        }
      }
      for (int i = 0; i < chain.size(); i++) {
        try (FloatArray y = chain.get(i).get(60, TimeUnit.SECONDS)) {
          inputs.assertResultOf(i % SpeechInputs.COUNT, y);
        }
      }
    }
  }

  @Test
  void closingTheRuntimeClosesItsPools() throws Exception {
    IreeRuntime runtime = IreeRuntime.create(RequireIree.library().orElseThrow());
    IreeSessionPool pool = runtime.newPool(Device.LOCAL_SYNC, 2).load(Corpus.require(Speech.FILE));
    runtime.close();
    assertThat(pool.isClosed()).isTrue();
    assertThrows(IllegalStateException.class, () -> runtime.newPool(Device.LOCAL_SYNC, 1));
  }

  @Test
  void theSizeAndTheWaitAreChecked() {
    IreeRuntime runtime = IREE.runtime();
    assertThat(
            assertThrows(
                IllegalArgumentException.class, () -> runtime.newPool(Device.LOCAL_SYNC, 0)))
        .hasMessageThat()
        .isEqualTo(
            "a pool of 0 sessions on local-sync: the size must be from 1 to "
                + IreeSessionPool.MAX_SIZE);
    assertThat(
            assertThrows(
                IllegalArgumentException.class, () -> runtime.newPool(Device.LOCAL_TASK, 33)))
        .hasMessageThat()
        .contains("from 1 to 32 (IREE's task executor takes at most 63 waits");
    assertThrows(
        IllegalArgumentException.class,
        () -> runtime.newPool(Device.LOCAL_SYNC, 2, Duration.ofMillis(-1)));
    try (IreeSessionPool pool = runtime.newPool(Device.LOCAL_SYNC)) {
      assertThat(pool.size()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }
  }
}
