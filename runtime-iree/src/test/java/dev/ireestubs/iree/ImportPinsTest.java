package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.vm.MemoryLease;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

class ImportPinsTest {

  private static final ByteBuffer BUFFER = ByteBuffer.allocateDirect(16);

  @Test
  void aKeyGivesBackItsLeaseOnceAndUnknownKeysNothing() {
    ImportPins pins = new ImportPins();
    MemoryLease lease = MemoryLease.owned(() -> {});
    long key = pins.pin(BUFFER, lease);

    assertThat(key).isNotEqualTo(0L);
    assertThat(pins.count()).isEqualTo(1);
    assertThat(pins.unpin(key)).isSameInstanceAs(lease);
    assertThat(pins.unpin(key)).isNull(); // twice: already let go
    assertThat(pins.count()).isEqualTo(0);
    assertThat(pins.unpin(0)).isNull();
    assertThat(pins.unpin(-1)).isNull();
    assertThat(pins.unpin(Long.MAX_VALUE)).isNull();
    assertThat(pins.unpin(key + 1000)).isNull();
  }

  @Test
  void memoryNoLeaseControlsIsPinnedWithoutOne() {
    ImportPins pins = new ImportPins();
    long key = pins.pin(BUFFER, null);

    assertThat(pins.count()).isEqualTo(1);
    assertThat(pins.unpin(key)).isNull();
    assertThat(pins.count()).isEqualTo(0);
  }

  @Test
  void keysPinnedOnManyThreadsAreDistinctAndUnpinnedOnAnother() throws InterruptedException {
    ImportPins pins = new ImportPins();
    ConcurrentLinkedQueue<Long> keys = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<MemoryLease> leases = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread thread =
          new Thread(
              () -> {
                for (int i = 0; i < 100; i++) {
                  MemoryLease lease = MemoryLease.owned(() -> {});
                  leases.add(lease);
                  keys.add(pins.pin(BUFFER, lease));
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(new HashSet<>(keys)).hasSize(800);
    assertThat(pins.count()).isEqualTo(800);
    Set<MemoryLease> back = new HashSet<>();
    for (long key : keys) { // all let go on this thread, whichever thread pinned them
      back.add(pins.unpin(key));
    }
    assertThat(back).containsExactlyElementsIn(leases);
    assertThat(pins.count()).isEqualTo(0);
  }

  @Test
  void freedSlotsAreReused() {
    ImportPins pins = new ImportPins();
    long first = pins.pin(BUFFER, null);
    pins.unpin(first);

    assertThat(pins.pin(BUFFER, null)).isEqualTo(first); // same thread, same stripe, same slot
  }
}
