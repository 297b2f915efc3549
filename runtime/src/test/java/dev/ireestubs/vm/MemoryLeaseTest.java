package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Pins, escapes and the owner's end in every order: the memory is freed once, and only then. */
class MemoryLeaseTest {

  private final AtomicInteger frees = new AtomicInteger();
  private final ByteBuffer bytes = ByteBuffer.allocateDirect(8);

  private MemoryLease owned() {
    return MemoryLease.owned(frees::incrementAndGet);
  }

  @Test
  void endingWithNoPinFreesAtOnce() {
    MemoryLease lease = owned();
    assertThat(lease.freesEarly()).isTrue();
    lease.end();
    assertThat(frees.get()).isEqualTo(1);
    assertThat(lease.isFreed()).isTrue();
    lease.end(); // idempotent
    assertThat(frees.get()).isEqualTo(1);
  }

  @Test
  void handingOverEndsTheOwnersUseAndLeavesTheFreeToTheLastHold() {
    MemoryLease lease = owned();
    MemoryLease.Pin kept = lease.pin(bytes); // held from before (a view of the owner's)
    lease.handOver();
    assertThat(lease.isEnded()).isTrue();
    kept.close(); // the last hold so far: nobody read the handed-over memory yet
    assertThat(frees.get()).isEqualTo(0);
    lease.acquire(); // the reader the memory was handed to
    lease.handOver(); // idempotent
    lease.end(); // ended already: nothing
    assertThat(frees.get()).isEqualTo(0);
    lease.release();
    assertThat(frees.get()).isEqualTo(1);
    assertThrows(IllegalStateException.class, lease::acquire);
  }

  @Test
  void aPinTakenBeforeTheEndDelaysTheFreeUntilItIsClosed() {
    MemoryLease lease = owned();
    MemoryLease.Pin first = lease.pin(bytes);
    MemoryLease.Pin second = lease.pin(bytes);
    lease.end();
    assertThat(frees.get()).isEqualTo(0);
    first.close();
    first.close(); // a second close of the same pin must not count as the other pin's
    assertThat(frees.get()).isEqualTo(0);
    assertThat(lease.pinCount()).isEqualTo(1);
    second.close();
    assertThat(frees.get()).isEqualTo(1);
  }

  @Test
  void pinsClosedBeforeTheEndLeaveTheFreeToTheEnd() {
    MemoryLease lease = owned();
    lease.pin(bytes).close();
    assertThat(frees.get()).isEqualTo(0);
    lease.end();
    assertThat(frees.get()).isEqualTo(1);
  }

  @Test
  void anEscapedLeaseIsNeverFreed() {
    MemoryLease lease = owned();
    MemoryLease.Pin pin = lease.pin(bytes);
    lease.escape();
    assertThat(lease.freesEarly()).isFalse();
    lease.end();
    pin.close();
    assertThat(frees.get()).isEqualTo(0);
    assertThat(lease.isFreed()).isFalse();
  }

  @Test
  void pinningOrEscapingFreedMemoryFailsWithAClearError() {
    MemoryLease lease = owned();
    lease.end();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> lease.pin(bytes));
    assertThat(e).hasMessageThat().contains("already freed");
    assertThrows(IllegalStateException.class, lease::escape);
  }

  @Test
  void anUnownedLeaseIsFreedWhenItsLastPinIsReleased() {
    MemoryLease lease = MemoryLease.unowned(frees::incrementAndGet);
    assertThat(lease.isEnded()).isTrue();
    MemoryLease.Pin a = lease.pin(bytes);
    MemoryLease.Pin b = lease.pin(bytes);
    a.close();
    assertThat(frees.get()).isEqualTo(0);
    b.close();
    assertThat(frees.get()).isEqualTo(1);
    assertThrows(IllegalStateException.class, () -> lease.pin(bytes));
  }

  @Test
  void aLeaseWithNothingToFreeOnlyCounts() {
    MemoryLease lease = MemoryLease.owned(null);
    assertThat(lease.freesEarly()).isFalse();
    lease.pin(bytes).close();
    lease.end();
    assertThat(lease.isFreed()).isFalse();
    lease.pin(bytes).close(); // still usable: nothing was freed
  }

  @Test
  void aLentViewEscapesOnDataButNotOnPin() {
    MemoryLease lease = owned();
    ByteBuffer data = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
    BufferView view = BufferView.lend(0x21000020, new long[] {2}, data, lease);
    assertThat(view.isLent()).isTrue();
    try (MemoryLease.Pin pin = view.pin()) {
      assertThat(pin.data().capacity()).isEqualTo(8);
    }
    assertThat(lease.freesEarly()).isTrue();
    view.data();
    assertThat(lease.freesEarly()).isFalse();
  }

  @Test
  void endCallEndsOnlyAViewMadeForTheCall() {
    MemoryLease lent = owned();
    MemoryLease forCall = owned();
    ByteBuffer data = ByteBuffer.allocateDirect(4);
    BufferView.lend(0x21000020, new long[] {1}, data, lent).endCall();
    BufferView.wrap(0x21000020, new long[] {1}, data).endCall();
    assertThat(lent.isEnded()).isFalse();
    BufferView call = BufferView.lendForCall(0x21000020, new long[] {1}, data, forCall);
    call.endCall();
    assertThat(forCall.isFreed()).isTrue();
    assertThrows(IllegalStateException.class, call::pin);
    assertThrows(IllegalStateException.class, call::data);
  }

  @Test
  void aPinMayBeReleasedOnAnotherThread() throws InterruptedException {
    MemoryLease lease = owned();
    MemoryLease.Pin pin = lease.pin(bytes);
    lease.end();
    Thread t = new Thread(pin::close);
    t.start();
    t.join();
    assertThat(frees.get()).isEqualTo(1);
  }

  @Test
  void anAcquireHoldsAsAPinDoesAndIsReleasedOnce() {
    MemoryLease lease = owned();
    lease.acquire();
    MemoryLease.Pin pin = lease.pin(bytes);
    assertThat(lease.pinCount()).isEqualTo(2);
    lease.end();
    lease.release();
    assertThat(frees.get()).isEqualTo(0);
    pin.close();
    assertThat(frees.get()).isEqualTo(1);
    assertThrows(IllegalStateException.class, lease::acquire);
    IllegalStateException e = assertThrows(IllegalStateException.class, lease::release);
    assertThat(e).hasMessageThat().contains("released more often than it was acquired");
    assertThat(frees.get()).isEqualTo(1);
  }

  @Test
  void aHolderThatThrowsReleasesItsHold() {
    MemoryLease lease = owned();
    BufferView view = BufferView.lend(0x21000020, new long[] {2}, bytes, lease);
    assertThrows(
        IllegalArgumentException.class,
        () ->
            view.hold(
                (data, held) -> {
                  assertThat(held).isSameInstanceAs(lease);
                  assertThat(lease.pinCount()).isEqualTo(1);
                  throw new IllegalArgumentException("the holder failed");
                }));
    assertThat(lease.pinCount()).isEqualTo(0);
    int capacity = view.hold((data, held) -> data.capacity());
    assertThat(capacity).isEqualTo(8);
    lease.release(); // the hold the holder above took
    lease.end();
    assertThat(frees.get()).isEqualTo(1);
    assertThrows(IllegalStateException.class, () -> view.hold((data, held) -> data));
  }

  @Test
  void aViewThatIsNotLentHoldsNothing() {
    BufferView view = BufferView.wrap(0x21000020, new long[] {2}, bytes);
    MemoryLease held = view.hold((data, lease) -> lease);
    assertThat(held).isNull();
  }

  /**
   * Many threads taking and releasing holds and pins while the owner ends the lease: the memory is
   * freed exactly once, after the owner's end and the last release, and never while one is held.
   */
  @Test
  void holdsTakenAndReleasedOnManyThreadsFreeExactlyOnce() throws InterruptedException {
    for (int round = 0; round < 50; round++) {
      AtomicInteger holding = new AtomicInteger();
      AtomicInteger freedUnderAReader = new AtomicInteger();
      AtomicInteger freed = new AtomicInteger();
      MemoryLease lease =
          MemoryLease.owned(
              () -> {
                if (holding.get() != 0) {
                  freedUnderAReader.incrementAndGet();
                }
                freed.incrementAndGet();
              });
      Thread[] threads = new Thread[4];
      for (int t = 0; t < threads.length; t++) {
        boolean pins = t % 2 == 0;
        threads[t] =
            new Thread(
                () -> {
                  for (int i = 0; i < 2_000; i++) {
                    try {
                      if (pins) {
                        MemoryLease.Pin pin = lease.pin(bytes);
                        holding.incrementAndGet();
                        holding.decrementAndGet();
                        pin.close();
                        pin.close(); // idempotent
                      } else {
                        lease.acquire();
                        holding.incrementAndGet();
                        holding.decrementAndGet();
                        lease.release();
                      }
                    } catch (IllegalStateException e) {
                      return; // freed: a late reader gets an error
                    }
                  }
                });
        threads[t].start();
      }
      lease.end();
      for (Thread t : threads) {
        t.join();
      }
      assertThat(freed.get()).isEqualTo(1);
      assertThat(freedUnderAReader.get()).isEqualTo(0);
      assertThat(lease.isFreed()).isTrue();
      assertThat(lease.pinCount()).isEqualTo(0);
    }
  }
}
