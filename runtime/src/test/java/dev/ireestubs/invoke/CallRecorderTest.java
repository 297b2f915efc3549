package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallRecorderTest {

  @Test
  void bytesCountArrayDataInNestedListsAndNotValues() {
    VmList nested =
        VmList.of(
            FloatArray.of(new float[] {1, 2, 3}).asBufferView(),
            VmList.of(IntArray.of(new int[] {1, 2}).asBufferView(), VmValue.i32(7)),
            VmValue.f32(1));
    assertThat(CallRecorder.bytes(nested)).isEqualTo(12 + 8);
    assertThat(CallRecorder.bytes(VmList.of())).isEqualTo(0);
    assertThat(CallRecorder.bytes(null)).isEqualTo(0);
  }

  @Test
  void aListThatHoldsItselfIsCountedToABoundedDepth() {
    VmList self = VmList.variant(2);
    self.push(FloatArray.of(new float[] {1}).asBufferView());
    self.push(self);
    assertThat(CallRecorder.bytes(self)).isEqualTo(4L * 17); // the top list and 16 levels below
  }

  @Test
  void countsAddUpAndTheMaximumIsTheLongestCall() {
    CallRecorder r = CallRecorder.create("host", "java", () -> List.of("m"));
    long now = System.nanoTime();
    r.succeeded("m.f", now - 5_000_000, null, 10, 20, false);
    r.failed("m.f", now - 1_000_000, null, 3, new IllegalStateException("x"), true);
    var s = r.statistics();
    assertThat(s.getCalls()).isEqualTo(2);
    assertThat(s.getFailures()).isEqualTo(1);
    assertThat(s.getBytesIn()).isEqualTo(13);
    assertThat(s.getBytesOut()).isEqualTo(20);
    assertThat(s.getMaxTimeNanos()).isAtLeast(5_000_000L);
    assertThat(s.getTotalTimeNanos()).isAtLeast(6_000_000L);
    assertThat(r.objectName()).isNull(); // not registered
    r.unregister(); // nothing to do
  }

  @Test
  void countsOfManyThreadsAtOnceAddUp() throws InterruptedException {
    CallRecorder r = CallRecorder.create("iree-pool", "local-sync", List::of);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 12; t++) {
      Thread thread =
          new Thread(
              () -> {
                for (int i = 0; i < 5_000; i++) {
                  r.succeeded("m.f", System.nanoTime(), null, 16, 4, false);
                  if (i % 5 == 0) {
                    r.failed("m.f", System.nanoTime(), null, 8, new IllegalStateException(), false);
                  }
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }

    var s = r.statistics();
    assertThat(s.getCalls()).isEqualTo(12 * 6_000);
    assertThat(s.getFailures()).isEqualTo(12 * 1_000);
    assertThat(s.getBytesIn()).isEqualTo(12 * (5_000 * 16 + 1_000 * 8));
    assertThat(s.getBytesOut()).isEqualTo(12 * 5_000 * 4);
    assertThat(s.getTotalTimeNanos()).isAtLeast(s.getMaxTimeNanos());
  }

  @Test
  void noEventIsMadeWhileNoRecordingTakesIt() {
    assertThat(CallRecorder.begin()).isNull();
  }
}
