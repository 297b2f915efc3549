package dev.ireestubs.vm;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OpaqueRefTest {

  @Test
  void carriesTypeAndPayload() {
    Object handle = new Object();
    OpaqueRef fence = OpaqueRef.of("hal.fence", handle);
    assertThat(fence.refTypeName()).isEqualTo("hal.fence");
    assertThat(fence.payload()).isSameInstanceAs(handle);
    assertThat(fence.payload(Object.class)).isSameInstanceAs(handle);
    assertThat(OpaqueRef.of("hal.device", null).payload()).isNull();
  }

  @Test
  void typedPayloadChecksItsClass() {
    OpaqueRef ref = OpaqueRef.of("hal.device", "dev0");
    assertThat(ref.payload(String.class)).isEqualTo("dev0");
    VmTypeException e = assertThrows(VmTypeException.class, () -> ref.payload(Integer.class));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("hal.device ref carries a String, expected an Integer");
    VmTypeException none =
        assertThrows(
            VmTypeException.class, () -> OpaqueRef.of("hal.device", null).payload(String.class));
    assertThat(none).hasMessageThat().contains("carries no payload");
  }

  @Test
  void equalityIsIdentity() {
    OpaqueRef a = OpaqueRef.of("hal.fence", "x");
    OpaqueRef b = OpaqueRef.of("hal.fence", "x");
    assertThat(a).isEqualTo(a);
    assertThat(a).isNotEqualTo(b);
  }

  @Test
  void closeRunsTheReleaseOnce() {
    AtomicInteger released = new AtomicInteger();
    OpaqueRef ref = OpaqueRef.withRelease("hal.fence", 42L, released::incrementAndGet);
    assertThat(ref.isClosed()).isFalse();
    try (ref) {
      assertThat(ref.payload()).isEqualTo(42L);
    }
    assertThat(ref.isClosed()).isTrue();
    ref.close();
    assertThat(released.get()).isEqualTo(1);
    IllegalStateException e = assertThrows(IllegalStateException.class, ref::payload);
    assertThat(e).hasMessageThat().isEqualTo("hal.fence ref is closed");
  }

  @Test
  void concurrentClosesReleaseOnce() throws Exception {
    AtomicInteger released = new AtomicInteger();
    OpaqueRef ref = OpaqueRef.withRelease("hal.fence", null, released::incrementAndGet);
    Thread[] threads = new Thread[8];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new Thread(ref::close);
      threads[i].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(released.get()).isEqualTo(1);
  }

  @Test
  void closingWithoutReleaseOnlyMarksClosed() {
    OpaqueRef ref = OpaqueRef.of("hal.device", "d");
    ref.close();
    assertThat(ref.isClosed()).isTrue();
    assertThat(ref.toString()).endsWith(" (closed)");
  }

  @Test
  void closeIfResource() {
    OpaqueRef ref = OpaqueRef.of("hal.fence", null);
    VmResource.closeIfResource(ref);
    assertThat(ref.isClosed()).isTrue();
    VmResource.closeIfResource(null);
    VmResource.closeIfResource(BufferView.allocate(0x21000020, 1));
  }

  @Test
  void toStringShowsTypeAndIdentity() {
    OpaqueRef ref = OpaqueRef.of("hal.fence", "payload");
    assertThat(ref.toString()).matches("hal\\.fence@[0-9a-f]+");
  }

  @Test
  void badTypeNamesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> OpaqueRef.of("", null));
    assertThrows(IllegalArgumentException.class, () -> OpaqueRef.of("hal fence", null));
    assertThrows(NullPointerException.class, () -> OpaqueRef.withRelease("hal.fence", null, null));
  }
}
