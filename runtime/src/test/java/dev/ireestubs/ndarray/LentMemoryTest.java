package dev.ireestubs.ndarray;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.MemoryPool;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Memory lent through buffer views: pinned by whoever keeps it, freed when the owner closes and the
 * last pin is released, never under a reader (see "Ownership and closing" in {@link NdArray}).
 */
class LentMemoryTest {

  @Test
  void aLentArrayIsFreedOnCloseWhenNothingPinsIt() {
    FloatArray a = FloatArray.of(new float[] {1f, 2f, 3f});
    BufferView view = a.asBufferView();
    assertThat(view.isLent()).isTrue();
    a.close();
    assertThat(a.memory.lease().isFreed()).isTrue();
    assertThrows(IllegalStateException.class, view::pin); // too late: a clear error
  }

  @Test
  void aPinKeepsTheMemoryAfterTheOwnerClosesUntilItIsReleased() {
    FloatArray a = FloatArray.of(new float[] {1f, 2f, 3f});
    MemoryLease.Pin pin = a.asBufferView().pin();
    a.close();
    assertThat(a.isClosed()).isTrue();
    assertThat(a.memory.lease().isFreed()).isFalse();
    assertThat(pin.data().asFloatBuffer().get(2)).isEqualTo(3f); // still valid for the pin
    pin.close();
    assertThat(a.memory.lease().isFreed()).isTrue();
  }

  @Test
  void anArrayOverALentViewPinsTheLenderUntilItIsClosed() {
    FloatArray owner = FloatArray.of(new float[] {4f, 5f});
    FloatArray borrower = FloatArray.fromBufferView(owner.asBufferView());
    assertThat(borrower.isBorrowed()).isTrue();
    assertThat(owner.isBorrowed()).isFalse();
    owner.close();
    assertThat(borrower.toArray()).isEqualTo(new float[] {4f, 5f}); // the result outlives the owner
    borrower.close();
    assertThat(owner.memory.lease().isFreed()).isTrue();
  }

  @Test
  void rawBytesFromABorrowerMakeTheLendersMemoryEscape() {
    FloatArray owner = FloatArray.of(new float[] {4f, 5f});
    FloatArray borrower = FloatArray.fromBufferView(owner.asBufferView());
    ByteBuffer raw = borrower.data();
    borrower.close();
    owner.close();
    assertThat(owner.memory.lease().isFreed()).isFalse(); // left to the garbage collector
    assertThat(raw.asFloatBuffer().get(1)).isEqualTo(5f);
  }

  /** 64 KiB starting with {@code head}: large enough to be freed when a call ends, on any JDK. */
  private static FloatArray large(float... head) {
    float[] values = new float[16384];
    System.arraycopy(head, 0, values, 0, head.length);
    return FloatArray.of(values);
  }

  @Test
  void aCallArgumentIsFreedWhenTheCallEndsUnlessAResultViewsIt() {
    FloatArray copy = large(7f, 8f);
    BufferView argument = copy.asCallArgument();
    argument.endCall();
    assertThat(copy.isClosed()).isTrue(); // freed memory reads as closed
    assertThrows(IllegalStateException.class, copy::toArray);

    FloatArray kept = large(7f, 8f);
    BufferView passed = kept.asCallArgument();
    FloatArray result = FloatArray.fromBufferView(passed); // an identity function's result
    passed.endCall();
    assertThat(result.getFlat(1)).isEqualTo(8f);
    assertThat(kept.memory.lease().isFreed()).isFalse();
    result.close();
    assertThat(kept.memory.lease().isFreed()).isTrue();
  }

  @Test
  void aSmallCallArgumentIsFreedWhenTheCallEnds() {
    FloatArray small = FloatArray.of(new float[] {7f, 8f});
    BufferView argument = small.asCallArgument();
    argument.endCall();
    // Pooled memory costs no handshake to free, on any JDK.
    assertThat(small.isClosed()).isTrue();
    assertThrows(IllegalStateException.class, small::toArray);
  }

  @Test
  void aViewOrAWrappedBufferIsNotACallArgumentOfItsOwn() {
    FloatArray owner = FloatArray.of(new float[] {1f, 2f, 3f, 4f});
    owner.reshape(2, 2).asCallArgument().endCall(); // a view owns nothing: endCall does nothing
    assertThat(owner.isClosed()).isFalse();
    FloatArray wrapped =
        FloatArray.wrap(ByteBuffer.allocateDirect(8).order(java.nio.ByteOrder.nativeOrder()));
    BufferView view = wrapped.asCallArgument();
    assertThat(view.isLent()).isFalse();
    view.endCall();
    assertThat(wrapped.isClosed()).isFalse();
  }

  @Test
  void onArenasABufferOverFreedLargeMemoryFailsCleanly() {
    // JDK 17-21: freed memory is not checked on access; nothing hands such a buffer out. Memory
    // up to MemoryPool.MAX_POOLED is reused rather than released: PooledMemoryTest.
    assumeTrue(Memory.fromArenas(), "freed memory fails cleanly only on arenas (JDK 22+)");
    FloatArray a = FloatArray.of(new float[MemoryPool.MAX_POOLED / 4 + 1]);
    MemoryLease.Pin pin = a.asBufferView().pin();
    ByteBuffer kept = pin.data(); // kept past the pin, against the rule
    a.close();
    pin.close();
    assertThrows(IllegalStateException.class, () -> kept.get(0));
  }
}
