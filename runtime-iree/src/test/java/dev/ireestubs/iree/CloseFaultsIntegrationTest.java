package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.iree.CloseFaults.Backend;
import dev.ireestubs.iree.CloseFaults.Closing;
import dev.ireestubs.iree.CloseFaults.Scenario;
import dev.ireestubs.ndarray.UByteArray;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fault suite: nothing a caller does with the public API brings the process down. Seeded cycles
 * of {@link CloseFaults} on both CPU drivers, on a session and on a pool, with two threads keeping
 * both cores busy beside them (the abort this suite was written for showed when the machine was
 * loaded): every future completes with the right logits or a declared exception, none hangs, the
 * process survives, and once the device has caught up nothing native is kept. Each cycle is printed
 * with its seed when it fails, so it can be replayed.
 *
 * <p>Soak: {@code -Diree.faults.minutes=N} runs the cycles for N minutes per test instead of a
 * fixed number and prints resident memory, threads and native objects at the start and the end (see
 * CONTRIBUTING).
 */
class CloseFaultsIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  /** Cycles per driver and backend in {@code mvn verify}. */
  private static final int CYCLES = Integer.getInteger("iree.faults.cycles", 120);

  private static final double SOAK_MINUTES =
      Double.parseDouble(System.getProperty("iree.faults.minutes", "0"));

  private static final long SEED = Long.getLong("iree.faults.seed", 20261128L);

  private static AutoCloseable hogs;

  @BeforeAll
  static void loadTheMachine() {
    hogs = CloseFaults.cpuHogs(2);
  }

  @AfterAll
  static void stopLoadingIt() throws Exception {
    hogs.close();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"LOCAL_TASK, SESSION", "LOCAL_TASK, POOL", "LOCAL_SYNC, SESSION", "LOCAL_SYNC, POOL"})
  void closingWhateverIsInFlightNeverBringsTheProcessDown(Device device, Backend backend)
      throws Exception {
    Corpus.require(MicroSpeech.FILE);
    List<Closing> closings = List.copyOf(EnumSet.complementOf(EnumSet.of(Closing.RUNTIME)));
    runCycles(device, backend, closings, SEED + device.ordinal() * 31L + backend.ordinal());
  }

  /** {@code IreeRuntime.close()} with sessions, pools and calls open. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"LOCAL_TASK", "LOCAL_SYNC"})
  void closingTheRuntimeWithBackendsAndCallsOpenNeverBringsTheProcessDown(Device device)
      throws Exception {
    Corpus.require(MicroSpeech.FILE);
    runCycles(device, null, List.of(Closing.RUNTIME), SEED + 7 + device.ordinal());
  }

  private static void runCycles(Device device, Backend only, List<Closing> closings, long seed)
      throws Exception {
    IreeRuntime runtime = IREE.runtime();
    CloseFaults faults = new CloseFaults(runtime);
    int liveBefore = Retention.live();
    String start = CloseFaults.footprint();
    long deadline =
        SOAK_MINUTES > 0 ? System.nanoTime() + (long) (SOAK_MINUTES * 60e9) : Long.MAX_VALUE;
    Random seeds = new Random(seed);
    long began = System.nanoTime();
    for (int i = 0; SOAK_MINUTES > 0 ? System.nanoTime() < deadline : i < CYCLES; i++) {
      long cycleSeed = seeds.nextLong();
      Random random = new Random(cycleSeed);
      Backend backend =
          only != null ? only : Backend.values()[random.nextInt(Backend.values().length)];
      Scenario scenario = Scenario.draw(random, device, backend, closings);
      try {
        faults.run(scenario, random);
      } catch (Throwable e) {
        throw new AssertionError("cycle " + i + " (seed " + cycleSeed + "): " + scenario, e);
      }
    }
    CloseFaults.awaitNothingKept(runtime, liveBefore);
    System.gc(); // results the cycles dropped release their mappings
    System.out.printf(
        "fault suite, %s%s: %s in %.1f s%n",
        device.driverName(),
        only == null ? " (runtime closed)" : " " + only,
        faults.tally(),
        (System.nanoTime() - began) / 1e9);
    if (SOAK_MINUTES > 0) {
      System.out.println("  start: " + start);
      System.out.println("  end:   " + CloseFaults.footprint());
    }
    assertThat(faults.tally().cycles.get()).isGreaterThan(0L);
  }

  /**
   * What {@code closingAtOnceFailsTheCallsTheDeviceHasNotFinished} tried once, many times: 24 calls
   * of micro_speech in flight on local-task, then {@code close(Duration.ZERO)}, 60 cycles on a
   * session and on a pool of 2 (the loop that aborted the JVM in 3 of 6 runs, and in 3 of 3 with a
   * pool).
   */
  @Test
  void closingAtOnceWithTwentyFourCallsInFlightSixtyTimes() throws Exception {
    IreeRuntime runtime = IREE.runtime();
    int liveBefore = Retention.live();
    int completed = 0;
    int failed = 0;
    try (UByteArray yes = MicroSpeech.yes()) {
      for (int cycle = 0; cycle < 60; cycle++) {
        boolean pool = cycle % 2 == 1;
        var backend =
            pool
                ? runtime.newPool(Device.LOCAL_TASK, 2).load(Corpus.require(MicroSpeech.FILE))
                : runtime.newSession(Device.LOCAL_TASK).load(Corpus.require(MicroSpeech.FILE));
        DynamicFunction f = DynamicFunction.of(backend.function("module.tf2onnx$async"));
        List<FencedFuture<Object>> running = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
          running.add(f.callAsync(yes));
        }
        if (backend instanceof IreeSessionPool p) {
          p.close(Duration.ZERO);
        } else {
          ((IreeSession) backend).close(Duration.ZERO);
        }
        for (FencedFuture<Object> r : running) {
          try {
            MicroSpeech.assertYes((dev.ireestubs.ndarray.FloatArray) r.get(60, TimeUnit.SECONDS));
            completed++;
          } catch (java.util.concurrent.ExecutionException e) {
            assertThat(e).hasCauseThat().isInstanceOf(IllegalStateException.class);
            assertThat(e).hasCauseThat().hasMessageThat().contains("was closed while the call was");
            failed++;
          }
        }
      }
    }
    CloseFaults.awaitNothingKept(runtime, liveBefore);
    System.out.println(
        "close(0) with 24 calls in flight, 60 cycles: "
            + completed
            + " completed, "
            + failed
            + " failed by the close");
    assertThat(completed + failed).isEqualTo(60 * 24);
  }

  /**
   * The JVM exits while calls are in flight on local-task: the process ends normally (exit code 0),
   * with no abort from IREE.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"exit", "return", "close-then-exit"})
  void theJvmExitsCleanlyWithCallsInFlight(String how) throws Exception {
    String java = ProcessHandle.current().info().command().orElse(null);
    assumeTrue(java != null, "cannot tell which java runs this test");
    Corpus.require(MicroSpeech.FILE);
    Process process =
        new ProcessBuilder(
                java,
                "--enable-native-access=ALL-UNNAMED",
                // the library this JVM runs on, whichever release was picked
                "-D" + IreeLibrary.PROPERTY + "=" + RequireIree.library().orElseThrow().path(),
                "-cp",
                System.getProperty("java.class.path"),
                ExitWithCallsInFlight.class.getName(),
                Corpus.require(MicroSpeech.FILE).toString(),
                Corpus.require(MicroSpeech.YES).toString(),
                how)
            .redirectErrorStream(true)
            .start();
    boolean ended = process.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly();
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertWithMessage("the process did not end within 2 minutes: " + output).that(ended).isTrue();
    assertWithMessage("exit code of a JVM ending with calls in flight (" + how + "): " + output)
        .that(process.exitValue())
        .isEqualTo(0);
    assertThat(output).contains("submitted 24 calls");
  }
}
