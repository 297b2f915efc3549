package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** Fences made in Java: reached, over a stage, and what their stage lets a caller do. */
class FenceTest {

  @Test
  void aReachedFenceIsReached() {
    Fence f = Fence.reached();
    assertThat(f.isReached()).isTrue();
    assertThat(f.whenReached().toCompletableFuture().isDone()).isTrue();
    assertThat(f.refTypeName()).isEqualTo("hal.fence");
    assertThat(f.toString()).endsWith("(reached)");
  }

  @Test
  void aFenceOverAStageIsReachedWhenTheStageCompletes() {
    CompletableFuture<String> input = new CompletableFuture<>();
    Fence f = Fence.of(input);
    assertThat(f.isReached()).isFalse();
    assertThat(f.toString()).endsWith("(pending)");
    CompletableFuture<Void> seen = f.whenReached().toCompletableFuture();
    input.complete("ready");
    assertThat(f.isReached()).isTrue();
    assertThat(seen.isDone()).isTrue();
  }

  @Test
  void aFenceFailsWithItsStage() {
    CompletableFuture<Void> input = new CompletableFuture<>();
    Fence f = Fence.of(input);
    input.completeExceptionally(new IllegalStateException("no input"));
    assertThat(f.isReached()).isFalse();
    assertThat(f.toString()).endsWith("(failed)");
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> f.whenReached().toCompletableFuture().get());
    assertThat(e).hasCauseThat().hasMessageThat().isEqualTo("no input");
  }

  @Test
  void completingWhatWhenReachedGivesDoesNotReachTheFence() {
    Fence f = Fence.of(new CompletableFuture<>());
    f.whenReached().toCompletableFuture().complete(null);
    f.whenReached().toCompletableFuture().cancel(true);
    assertThat(f.isReached()).isFalse();
    assertThat(f.whenReached().toCompletableFuture().isDone()).isFalse();
  }

  @Test
  void aFenceIsARefAVariantListHolds() {
    Fence f = Fence.reached();
    VmList list = VmList.of(f);
    assertThat(list.getRef(0)).isSameInstanceAs(f);
  }
}
