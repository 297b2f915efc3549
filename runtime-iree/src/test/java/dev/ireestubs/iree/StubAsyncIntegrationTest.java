package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.iree.models.Iree_Speech;
import dev.ireestubs.iree.models.Speech;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.vm.Fence;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The "done means": through a generated stub on IREE's runtime, {@code tf2onnx$async} gives
 * the "yes" logits {@code tf2onnx} gives, on local-sync and local-task, with many calls in flight
 * and from many threads, and chained behind a fence. Skipped without a runtime library or without
 * {@code ../shared}.
 */
class StubAsyncIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  private static IreeSession session(Device device) throws IOException {
    return MicroSpeech.session(IREE.runtime(), device);
  }

  @ParameterizedTest
  @EnumSource(Device.class)
  void theAsyncTwinThroughTheStubGivesTheSynchronousValues(Device device) throws Exception {
    try (IreeSession s = session(device);
        UByteArray yes = MicroSpeech.yes()) {
      Speech speech = new Iree_Speech(s);
      MicroSpeech.assertYes(speech.tf2onnx(yes));
      MicroSpeech.assertYes(speech.tf2onnxFenced(yes));
      try (FloatArray logits = speech.tf2onnxAsync(yes).get(30, TimeUnit.SECONDS)) {
        MicroSpeech.assertYes(logits);
        float[] l = logits.toArray();
        int best = 0;
        for (int i = 1; i < l.length; i++) {
          best = l[i] > l[best] ? i : best;
        }
        assertThat(best).isEqualTo(2); // silence, unknown, yes, no
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Device.class)
  void manyCallsInFlightFromManyThreads(Device device) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (IreeSession s = session(device)) {
      Speech speech = new Iree_Speech(s);
      List<Future<Integer>> threads = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        threads.add(
            pool.submit(
                () -> {
                  try (UByteArray yes = MicroSpeech.yes()) {
                    List<CompletableFuture<FloatArray>> mine = new ArrayList<>();
                    for (int i = 0; i < 50; i++) {
                      mine.add(speech.tf2onnxAsync(yes));
                    }
                    for (CompletableFuture<FloatArray> r : mine) {
                      try (FloatArray logits = r.get(60, TimeUnit.SECONDS)) {
                        MicroSpeech.assertYes(logits);
                      }
                    }
                    return mine.size();
                  }
                }));
      }
      int total = 0;
      for (Future<Integer> t : threads) {
        total += t.get(120, TimeUnit.SECONDS);
      }
      assertThat(total).isEqualTo(400);
      assertThat(s.calls().inFlightCount()).isEqualTo(0);
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(Device.class)
  void aChainOfCallsRunsInOrderOnceItsFirstFenceIsReached(Device device) throws Exception {
    try (IreeSession s = session(device);
        UByteArray yes = MicroSpeech.yes()) {
      Speech speech = new Iree_Speech(s);
      CompletableFuture<Void> ready = new CompletableFuture<>();
      List<FencedFuture<FloatArray>> chain = new ArrayList<>();
      Fence previous = Fence.of(ready);
      for (int i = 0; i < 10; i++) {
        FencedFuture<FloatArray> next = speech.tf2onnxAfter(yes, previous);
        chain.add(next);
        previous = next.signal();
      }
      Thread.sleep(200);
      for (FencedFuture<FloatArray> f : chain) {
        assertThat(f.isDone()).isFalse();
      }
      // When a call completes, the call before it has reached its fence: they ran in order.
      List<CompletableFuture<Boolean>> afterPrevious = new ArrayList<>();
      for (int i = 1; i < chain.size(); i++) {
        FencedFuture<FloatArray> before = chain.get(i - 1);
        afterPrevious.add(chain.get(i).thenApply(r -> before.signal().isReached()));
      }
      ready.complete(null);
      for (FencedFuture<FloatArray> f : chain) {
        MicroSpeech.assertYes(f.get(30, TimeUnit.SECONDS));
      }
      for (CompletableFuture<Boolean> ok : afterPrevious) {
        assertThat(ok.get()).isTrue();
      }
    }
  }
}
