package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Closing, many calls, many threads, on a real IREE runtime. Skipped without a library. */
class IreeLifetimeIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  private static IreeSession addSession() throws IOException {
    return IREE.runtime().newSession().load(Corpus.require(Adder.FILE));
  }

  @Test
  void aClosedSessionRefusesCalls() throws IOException {
    IreeSession session = addSession();
    BackendFunction add = session.function("module.add");
    Adder adder = new Iree_Adder(session);
    session.close();
    assertThat(session.isClosed()).isTrue();

    VmList arguments =
        VmList.of(BufferView.allocate(0x21000020, 4), BufferView.allocate(0x21000020, 4));
    IllegalStateException call =
        assertThrows(IllegalStateException.class, () -> add.invoke(arguments));
    assertThat(call).hasMessageThat().contains("is closed: module.add cannot be called");
    IllegalStateException stub =
        assertThrows(
            IllegalStateException.class, () -> adder.add(FloatArray.zeros(4), FloatArray.zeros(4)));
    assertThat(stub).hasMessageThat().contains("is closed");
    assertThrows(IllegalStateException.class, () -> session.lookup("module.add"));
    assertThrows(IllegalStateException.class, () -> session.load(Corpus.require(Adder.FILE)));
    session.close(); // twice: nothing happens
  }

  @Test
  void closingTheRuntimeClosesItsSessions() throws IOException {
    IreeRuntime own = IreeRuntime.create(IREE.runtime().library());
    IreeSession a = own.newSession().load(Corpus.require(Adder.FILE));
    IreeSession b = own.newSession(Device.LOCAL_TASK);
    own.close();
    assertThat(a.isClosed()).isTrue();
    assertThat(b.isClosed()).isTrue();
    assertThrows(IllegalStateException.class, own::newSession);
    own.close();
  }

  @Test
  void aHundredThousandCallsDoNotLeak() throws Exception {
    try (IreeSession session = addSession()) {
      Adder adder = new Iree_Adder(session);
      FloatArray a = FloatArray.of(new float[] {1, 2, 3, 4}, 4);
      FloatArray b = FloatArray.of(new float[] {10, 20, 30, 40}, 4);
      for (int i = 0; i < 20_000; i++) { // warm up: JIT, pools, IREE's caches
        adder.add(a, b);
      }
      // -Dlifetime.windows=N measures N windows in a row (one JVM), to see growth that repeats.
      int windows = Math.max(1, Integer.getInteger("lifetime.windows", 1));
      for (int w = 1; w <= windows; w++) {
        hundredThousandCalls(adder, a, b, w);
      }
    }
  }

  private static void hundredThousandCalls(Adder adder, FloatArray a, FloatArray b, int window)
      throws InterruptedException {
    OptionalLong malloc0 = NativeMemory.quietMallocInUse(5_500);
    OptionalLong rss0 = NativeMemory.residentSetSize();
    long start = System.nanoTime();
    float checksum = 0;
    int calls = 100_000;
    for (int i = 0; i < calls; i++) {
      checksum += adder.add(a, b).getFlat(i & 3);
    }
    long elapsed = System.nanoTime() - start;
    OptionalLong malloc1 = NativeMemory.quietMallocInUse(5_500);
    OptionalLong rss1 = NativeMemory.residentSetSize();

    assertThat(checksum).isEqualTo(calls / 4 * (11f + 22f + 33f + 44f));
    System.out.printf(
        "window %d: 100,000 calls of module.add: %.1f us per call; malloc in use %s -> %s bytes"
            + " (%+.2f MB); RSS %s -> %s bytes%n",
        window,
        elapsed / 1e3 / calls,
        text(malloc0),
        text(malloc1),
        malloc0.isPresent() && malloc1.isPresent()
            ? (malloc1.getAsLong() - malloc0.getAsLong()) / 1e6
            : Double.NaN,
        text(rss0),
        text(rss1));
    // Every native object a call makes (lists, buffer views, buffers, statuses) comes from
    // IREE's allocator, malloc by default: leaking any one of them per call costs well over 40
    // bytes a call, 4 MiB here.
    if (malloc0.isPresent() && malloc1.isPresent()) {
      assertThat(malloc1.getAsLong() - malloc0.getAsLong()).isLessThan(4L << 20);
    }
    // A coarse bound for runtimes built with another allocator (mimalloc), which malloc's
    // statistics do not see: the resident size also grows with the JVM's heap and code cache,
    // by up to about 20 MiB here without any leak.
    if (rss0.isPresent() && rss1.isPresent()) {
      assertThat(rss1.getAsLong() - rss0.getAsLong()).isLessThan(64L << 20);
    }
  }

  private static String text(OptionalLong bytes) {
    return bytes.isPresent() ? String.format("%,d", bytes.getAsLong()) : "(unknown)";
  }

  @Test
  void concurrentCallsOnOneStubAreSerialisedAndCorrect() throws Exception {
    try (IreeSession session = addSession()) {
      Adder adder = new Iree_Adder(session);
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          float base = t * 1000;
          results.add(
              pool.submit(
                  () -> {
                    int good = 0;
                    for (int i = 0; i < 250; i++) {
                      float x = base + i;
                      float[] sum =
                          adder
                              .add(
                                  FloatArray.of(new float[] {x, x, x, x}, 4),
                                  FloatArray.of(new float[] {1, 2, 3, 4}, 4))
                              .toArray();
                      if (sum[0] == x + 1 && sum[3] == x + 4) {
                        good++;
                      }
                    }
                    return good;
                  }));
        }
        for (Future<Integer> f : results) {
          assertThat(f.get()).isEqualTo(250);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
