package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.MemoryPool;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lifetime promises of arrays whose memory the pool reuses ({@link MemoryPool}): a closed
 * array's memory goes to the next array of its size, and nothing of the closed one reads it again.
 */
class PooledMemoryTest {

  private static long address(NdArray array) {
    return NativeMemory.address(array.data);
  }

  /** A closed array's memory is reused by the next array of its size class (same thread). */
  private static FloatArray reuserOf(FloatArray closed, float fill) {
    long wanted = address(closed);
    List<FloatArray> misses = new ArrayList<>();
    try {
      for (int i = 0; i < 64; i++) {
        FloatArray next = FloatArray.of(new float[] {fill, fill, fill, fill});
        if (address(next) == wanted) {
          return next;
        }
        misses.add(next);
      }
    } finally {
      misses.forEach(FloatArray::close);
    }
    throw new AssertionError("the closed array's memory was not reused");
  }

  @Test
  void closedMemoryIsReusedAndTheClosedArrayCannotReadIt() {
    FloatArray a = FloatArray.of(new float[] {1f, 2f, 3f, 4f});
    FloatArray view = a.reshape(2, 2);
    BufferView lent = a.asBufferView();
    a.close();
    FloatArray b = reuserOf(a, 9f); // the same bytes, now b's
    assertThat(b.toArray()).isEqualTo(new float[] {9f, 9f, 9f, 9f});
    // Every way back into a's memory fails: the array, its views, the views it lent.
    assertThrows(IllegalStateException.class, a::toArray);
    assertThrows(IllegalStateException.class, () -> a.getFlat(0));
    assertThrows(IllegalStateException.class, () -> a.copyInto(new float[4]));
    assertThrows(IllegalStateException.class, () -> a.setFlat(5f, 0));
    assertThrows(IllegalStateException.class, a::data);
    assertThrows(IllegalStateException.class, a::asFloatBuffer);
    assertThrows(IllegalStateException.class, a::asBufferView);
    assertThrows(IllegalStateException.class, () -> view.getFlat(0));
    assertThrows(IllegalStateException.class, lent::pin);
    assertThrows(IllegalStateException.class, lent::data);
    assertThrows(IllegalStateException.class, () -> FloatArray.fromBufferView(lent));
    assertThat(b.toArray()).isEqualTo(new float[] {9f, 9f, 9f, 9f}); // untouched by a
    b.close();
  }

  @Test
  void newMemoryIsZeroedWhenItWasAnotherArraysBefore() {
    FloatArray a = FloatArray.of(new float[] {1f, 2f, 3f, 4f});
    long was = address(a);
    a.close();
    for (int i = 0; i < 64; i++) {
      FloatArray z = FloatArray.zeros(4);
      boolean same = address(z) == was;
      assertThat(z.toArray()).isEqualTo(new float[4]);
      z.close();
      if (same) {
        return;
      }
    }
  }

  @Test
  void escapedMemoryIsNeverReused() {
    FloatArray a = FloatArray.of(new float[] {1f, 2f, 3f, 4f});
    ByteBuffer raw = a.data(); // handed out: valid as long as it is reachable
    long was = address(a);
    a.close();
    List<FloatArray> later = new ArrayList<>();
    for (int i = 0; i < 256; i++) {
      FloatArray b = FloatArray.of(new float[] {7f, 7f, 7f, 7f});
      assertThat(address(b)).isNotEqualTo(was);
      later.add(b);
      if (i % 2 == 0) {
        b.close();
      }
    }
    assertThat(raw.asFloatBuffer().get(3)).isEqualTo(4f);
    later.forEach(FloatArray::close);
  }

  @Test
  void pinnedMemoryIsNotReusedUntilThePinIsReleased() {
    FloatArray a = FloatArray.of(new float[] {1f, 2f, 3f, 4f});
    MemoryLease.Pin pin = a.asBufferView().pin(); // as IREE's import holds it
    long was = address(a);
    a.close();
    List<FloatArray> live = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      FloatArray b = FloatArray.of(new float[] {7f, 7f, 7f, 7f});
      assertThat(address(b)).isNotEqualTo(was);
      live.add(b);
    }
    assertThat(pin.data().asFloatBuffer().get(2)).isEqualTo(3f);
    pin.close();
    reuserOf(a, 5f).close(); // now it is free for others
    live.forEach(FloatArray::close);
  }

  @Test
  void memoryClosedOnAnotherThreadGoesBackToItsMakersCache() throws Exception {
    ExecutorService maker = Executors.newSingleThreadExecutor();
    try {
      FloatArray made = maker.submit(() -> FloatArray.of(new float[] {1f, 2f, 3f, 4f})).get();
      long was = address(made);
      made.close(); // on this thread, as a caller closes a result a waiter thread read
      FloatArray again = maker.submit(() -> FloatArray.of(new float[] {5f, 6f, 7f, 8f})).get();
      assertThat(address(again)).isEqualTo(was);
      assertThat(again.toArray()).isEqualTo(new float[] {5f, 6f, 7f, 8f});
      again.close();
    } finally {
      maker.shutdownNow();
    }
  }

  @Test
  void aResultArrayOverAnUnownedLeaseGivesItsMemoryBackOnClose() {
    BufferView result =
        MemoryPool.allocateUnowned(
            16,
            (data, lease) -> {
              data.asFloatBuffer().put(new float[] {1f, 2f, 3f, 4f});
              return BufferView.lend(0x21000020, new long[] {4}, data, lease);
            });
    FloatArray array = FloatArray.fromBufferView(result);
    assertThat(array.toArray()).isEqualTo(new float[] {1f, 2f, 3f, 4f});
    array.close();
    assertThrows(IllegalStateException.class, result::pin); // freed, and given back
  }

  private static BufferView unownedResult(float fill) {
    return MemoryPool.allocateUnowned(
        16,
        (data, lease) -> {
          data.asFloatBuffer().put(new float[] {fill, fill, fill, fill});
          return BufferView.lend(0x21000020, new long[] {4}, data, lease);
        });
  }

  /**
   * Results' copies (unowned memory, which only the collector frees when nobody closes the result)
   * come back to the pool too when closed, and go to the next result, not to an array the caller
   * owns: on JDK 22+ they are direct memory (freed by the collector without a handshake), arrays
   * arena memory.
   */
  @Test
  void unownedMemoryIsReusedByTheNextResultNotByOwnedArrays() {
    FloatArray first = FloatArray.fromBufferView(unownedResult(1f));
    long was = address(first);
    assertThat(was % MemoryPool.ALIGNMENT).isEqualTo(0);
    first.close();
    if (MemoryPool.fromArenas()) {
      FloatArray owned = FloatArray.of(new float[] {7f, 7f, 7f, 7f});
      assertThat(address(owned)).isNotEqualTo(was);
      owned.close();
    }
    FloatArray second = FloatArray.fromBufferView(unownedResult(2f));
    assertThat(address(second)).isEqualTo(was);
    assertThat(second.toArray()).isEqualTo(new float[] {2f, 2f, 2f, 2f});
    assertThrows(IllegalStateException.class, first::toArray);
    second.close();
  }

  @Test
  void memoryIsAlignedForIreeAtEverySize() {
    for (int n : new int[] {0, 1, 3, 4, 17, 100, 1000, 16384, 65537, MemoryPool.MAX_POOLED / 4}) {
      FloatArray a = FloatArray.zeros(n);
      if (n > 0) {
        assertThat(address(a) % MemoryPool.ALIGNMENT).isEqualTo(0);
      }
      assertThat(a.byteLength()).isEqualTo(4 * n);
      a.close();
    }
  }

  @Test
  void threadsNeverShareLiveMemoryAndCloseEachOthersArrays() throws Exception {
    int threads = 8;
    int rounds = 2000;
    Set<Long> live = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<FloatArray>>> handedOver = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        float mark = t + 1;
        handedOver.add(
            pool.submit(
                () -> {
                  start.await();
                  List<FloatArray> mine = new ArrayList<>();
                  for (int i = 0; i < rounds; i++) {
                    int n = 1 + (i % 40);
                    float[] values = new float[n];
                    java.util.Arrays.fill(values, mark);
                    FloatArray a = FloatArray.of(values);
                    if (!live.add(address(a))) {
                      throw new AssertionError("two live arrays share memory");
                    }
                    float[] back = a.toArray();
                    for (float v : back) {
                      if (v != mark) {
                        throw new AssertionError("read another array's value " + v);
                      }
                    }
                    if (i % 10 == 0) {
                      mine.add(a); // closed by another thread below
                    } else {
                      live.remove(address(a));
                      a.close();
                    }
                  }
                  return mine;
                }));
      }
      start.countDown();
      List<FloatArray> toClose = new ArrayList<>();
      for (Future<List<FloatArray>> f : handedOver) {
        toClose.addAll(f.get(60, TimeUnit.SECONDS));
      }
      Set<Long> distinct = new HashSet<>();
      for (FloatArray a : toClose) {
        assertThat(distinct.add(address(a))).isTrue();
      }
      // Closed on threads other than their makers'.
      List<Future<?>> closes = new ArrayList<>();
      for (FloatArray a : toClose) {
        closes.add(pool.submit(a::close));
      }
      for (Future<?> f : closes) {
        f.get(60, TimeUnit.SECONDS);
      }
      for (FloatArray a : toClose) {
        assertThat(a.isClosed()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
