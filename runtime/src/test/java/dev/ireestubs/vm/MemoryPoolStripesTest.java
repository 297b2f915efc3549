package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A thread that finds its stripe of {@link MemoryPool} held by another thread (on a small machine,
 * often one preempted while holding it) takes from or gives back to another stripe rather than
 * wait. The waits below are hang guards only: a thread that waited for the held stripe would finish
 * only after the test lets it go.
 */
class MemoryPoolStripesTest {

  private static final int BYTES = 3000; // a 4 KiB block: striped

  private final ExecutorService first = workerAvoiding(null);
  private final ExecutorService second = workerAvoiding(first);

  @AfterEach
  void stop() {
    first.shutdownNow();
    second.shutdownNow();
  }

  /** The memory and lease of one allocation. */
  private record Taken(ByteBuffer data, MemoryLease lease) {}

  private static Taken take() {
    return MemoryPool.allocate(BYTES, Taken::new);
  }

  @Test
  void aThreadWhoseStripeIsHeldTakesABlockCachedInAnother() throws Exception {
    first.submit(() -> take().lease().end()).get(); // now cached in the first worker's stripe
    ReentrantLock held = stripeLockOf(second);
    held.lock();
    try {
      Future<Taken> taken = second.submit(MemoryPoolStripesTest::take);
      Taken got = taken.get(30, TimeUnit.SECONDS); // would wait for `held` without the fallback
      got.lease().end();
    } catch (TimeoutException e) {
      throw new AssertionError("the allocation waited for its held stripe", e);
    } finally {
      held.unlock();
    }
  }

  @Test
  void aBlockFreedWhileItsStripeIsHeldIsCachedInAnother() throws Exception {
    Taken taken = second.submit(MemoryPoolStripesTest::take).get();
    int before = MemoryPool.cachedBlocks();
    ReentrantLock held = stripeLockOf(second);
    held.lock();
    try {
      second.submit(() -> taken.lease().end()).get(30, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the free waited for its held stripe", e);
    } finally {
      held.unlock();
    }
    assertThat(MemoryPool.cachedBlocks()).isEqualTo(before + 1); // kept, not released
  }

  /** The stripe lock of {@code worker}'s thread. */
  private static ReentrantLock stripeLockOf(ExecutorService worker) throws Exception {
    return worker.submit(() -> MemoryPool.stripeLock(Thread.currentThread())).get();
  }

  /** A one-thread worker whose thread uses another stripe than {@code other}'s (if any). */
  private static ExecutorService workerAvoiding(ExecutorService other) {
    ReentrantLock avoid;
    try {
      avoid = other == null ? null : stripeLockOf(other);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return Executors.newSingleThreadExecutor(
        task -> {
          for (int i = 0; i < 1000; i++) {
            Thread candidate = new Thread(task, "stripes-test");
            if (MemoryPool.stripeLock(candidate) != avoid) {
              candidate.setDaemon(true);
              return candidate;
            }
          }
          throw new AssertionError("no thread of another stripe");
        });
  }
}
