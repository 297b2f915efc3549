package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.iree.models.Iree_Matmul;
import dev.ireestubs.iree.models.Matmul;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.VmList;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Memory owned by the call on IREE: a stub's copies of Java-array arguments stay valid while IREE
 * holds them imported (the import pins them) and are freed once it lets go; a mapped result is
 * released when the array over it is closed, without waiting for a collection. Skipped without a
 * runtime library.
 */
class LentMemoryIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  @AfterEach
  void restore() {
    BufferTransfer.mapThreshold = BufferTransfer.MAP_THRESHOLD;
  }

  private static void drainMappings() throws InterruptedException {
    for (int i = 0; i < 50 && BufferTransfer.mappedBytes() > 0; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(BufferTransfer.mappedBytes()).isEqualTo(0);
  }

  @Test
  void aCallArgumentIreeKeepsImportedIsFreedOnlyWhenIreeLetsGo() throws IOException {
    // Memory made for one call, as a stub's copy is: aligned (so IREE imports it), with a lease
    // whose free is counted here.
    AtomicInteger frees = new AtomicInteger();
    FloatArray source = FloatArray.of(new float[] {1, 2, 3, 4});
    ByteBuffer bytes = source.data(); // 64-byte aligned, and kept alive by `source`
    BufferView argument =
        BufferView.lendForCall(
            0x21000020, new long[] {4}, bytes, MemoryLease.owned(frees::incrementAndGet));
    try (IreeSession session = IREE.load(Adder.FILE)) {
      BackendFunction add = session.function("module.add");
      FloatArray b = FloatArray.of(new float[] {10, 20, 30, 40});
      long imported = BufferTransfer.IMPORTED.sum();
      try (VmList results = add.invoke(VmList.of(argument, b.asBufferView()))) {
        argument.endCall(); // the caller is done: IREE's kept import still pins the memory
        assertThat(frees.get()).isEqualTo(0);
        assertThat(BufferTransfer.IMPORTED.sum() - imported).isEqualTo(2);
        float[] out = new float[4];
        results.getBufferView(0).data().asFloatBuffer().get(out);
        assertThat(out).isEqualTo(new float[] {11, 22, 33, 44});
      }
      try (MemoryLease.Pin stillValid = argument.pin()) {
        assertThat(stillValid.data().asFloatBuffer().get(3)).isEqualTo(4f);
      }
      // The kept view is reused for the same memory: IREE reads it, still valid.
      try (VmList results = add.invoke(VmList.of(argument, b.asBufferView()))) {
        float[] out = new float[4];
        results.getBufferView(0).data().asFloatBuffer().get(out);
        assertThat(out).isEqualTo(new float[] {11, 22, 33, 44});
      }
      assertThat(frees.get()).isEqualTo(0);
    } // the session releases its kept views, IREE its imports: the last pin goes
    assertThat(BufferTransfer.pinnedCount()).isEqualTo(0);
    assertThat(frees.get()).isEqualTo(1);
    assertThrows(IllegalStateException.class, argument::pin); // freed now
  }

  @Test
  void anArraysArenaIsClosedFromIreesReleaseCallbackOnceItLetsGo() throws IOException {
    // 1 MiB of arena memory (JDK 22+: above MemoryPool.MAX_POOLED, so an arena of its own rather
    // than a pooled block that is reused), of which the first 4 floats are passed: IREE imports
    // them and keeps the view; the owner closes the array while IREE still holds it.
    FloatArray large = FloatArray.zeros(1 << 18);
    large.slice(0, 4).copyFrom(new float[] {1, 2, 3, 4});
    BufferView first4 = large.slice(0, 4).asBufferView();
    try (IreeSession session = IREE.load(Adder.FILE)) {
      Adder adder = new Iree_Adder(session);
      FloatArray b = FloatArray.of(new float[] {10, 20, 30, 40});
      BackendFunction add = session.function("module.add");
      try (VmList results = add.invoke(VmList.of(first4, b.asBufferView()))) {
        large.close(); // pinned by the import: not freed under IREE
        float[] out = new float[4];
        results.getBufferView(0).data().asFloatBuffer().get(out);
        assertThat(out).isEqualTo(new float[] {11, 22, 33, 44});
      }
      ByteBuffer keptPastItsPin;
      try (MemoryLease.Pin stillValid = first4.pin()) {
        assertThat(stillValid.data().asFloatBuffer().get(0)).isEqualTo(1f);
        keptPastItsPin = stillValid.data(); // against the rule, to see the arena closed below
      }
      // Many more imports push the kept view out: IREE releases it, and the release callback
      // frees the arena (an upcall closing a shared arena). Every call stays right.
      for (int i = 0; i < 2 * ImportedViews.CAPACITY; i++) {
        FloatArray x = FloatArray.of(new float[] {i, i, i, i});
        assertThat(adder.add(x, b).toArray())
            .isEqualTo(new float[] {i + 10, i + 20, i + 30, i + 40});
      }
      assertThrows(IllegalStateException.class, first4::pin); // freed once IREE let go
      assertThrows(IllegalStateException.class, () -> keptPastItsPin.get(0)); // arena closed
    }
    assertThat(BufferTransfer.pinnedCount()).isEqualTo(0);
  }

  @Test
  void aLargeCopyOfAStubIsOwnedByTheCall() {
    FloatArray large = FloatArray.zeros(16384); // 64 KiB: worth freeing when the call ends
    assertThat(large.asCallArgument().isLent()).isTrue();
    BufferView view = large.asCallArgument();
    view.endCall();
    assertThat(large.isClosed()).isTrue();
  }

  @Test
  void aStubsJavaArrayCopiesAreRightCallAfterCallAndBounded() throws IOException {
    float[][] b = {{1, 0}, {0, 1}, {1, 1}, {2, 0}};
    try (IreeSession session = IREE.load(Matmul.FILE)) {
      Matmul matmul = new Iree_Matmul(session);
      for (int i = 0; i < 3 * ImportedViews.CAPACITY; i++) {
        float[][] a = {{i, 0, 0, 0}, {0, i, 0, 0}, {0, 0, i, 0}};
        // a x b: row r of a picks i * row r of b.
        assertThat(matmul.matmul(a, b)).isEqualTo(new float[][] {{i, 0}, {0, i}, {i, i}});
        // Each call's two copies are imported; the session keeps the last few, pinned.
        assertThat(BufferTransfer.pinnedCount()).isAtMost(ImportedViews.CAPACITY);
      }
    }
    assertThat(BufferTransfer.pinnedCount()).isEqualTo(0);
  }

  @Test
  void closingAMappedResultReleasesTheMappingAtOnce() throws Exception {
    drainMappings();
    BufferTransfer.mapThreshold = 0;
    try (IreeSession session = IREE.load(Adder.FILE)) {
      Adder adder = new Iree_Adder(session);
      FloatArray a = FloatArray.of(new float[] {1, 2, 3, 4});
      FloatArray b = FloatArray.of(new float[] {10, 20, 30, 40});
      long mapped = BufferTransfer.MAPPED_OUT.sum();
      for (int frame = 0; frame < 100; frame++) {
        try (FloatArray sum = adder.add(a, b)) {
          assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
          assertThat(BufferTransfer.mappedBytes()).isEqualTo(16 + BufferTransfer.MAPPING_OVERHEAD);
        }
        assertThat(BufferTransfer.mappedBytes()).isEqualTo(0); // released by close, no GC
      }
      assertThat(BufferTransfer.MAPPED_OUT.sum() - mapped).isEqualTo(100);
      FloatArray closed = adder.add(a, b);
      closed.close();
      assertThrows(IllegalStateException.class, closed::toArray);
    }
  }

  @Test
  void aJavaArrayResultReleasesItsMappingWhenTheStubHasCopiedIt() throws Exception {
    drainMappings();
    BufferTransfer.mapThreshold = 0;
    float[][] b = {{1, 0}, {0, 1}, {1, 1}, {2, 0}};
    float[][] a = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
    try (IreeSession session = IREE.load(Matmul.FILE)) {
      Matmul matmul = new Iree_Matmul(session);
      long mapped = BufferTransfer.MAPPED_OUT.sum();
      for (int frame = 0; frame < 20; frame++) {
        assertThat(matmul.matmul(a, b)).isEqualTo(new float[][] {{1, 0}, {0, 1}, {1, 1}});
        assertThat(BufferTransfer.mappedBytes()).isEqualTo(0);
      }
      assertThat(BufferTransfer.MAPPED_OUT.sum() - mapped).isEqualTo(20);
    }
  }

  @Test
  void aResultNeverClosedIsStillReleasedByTheCollector() throws Exception {
    drainMappings();
    BufferTransfer.mapThreshold = 0;
    try (IreeSession session = IREE.load(Adder.FILE)) {
      Adder adder = new Iree_Adder(session);
      FloatArray a = FloatArray.of(new float[] {1, 2, 3, 4});
      assertThat(adder.add(a, a).toArray()).isEqualTo(new float[] {2, 4, 6, 8});
    }
    assertThat(BufferTransfer.mappedBytes()).isGreaterThan(0);
    drainMappings(); // the array was dropped unclosed: the cleaner released the mapping
  }
}
