package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.IdentityI64;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.iree.models.Iree_IdentityI64;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.LongArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Arguments in 64-byte-aligned direct memory are imported without a copy, and results are mapped
 * rather than copied, with a lifetime that follows their Java buffers. The real modules' results
 * are small, so these tests lower the mapping threshold to 0. Skipped without a runtime library.
 */
class ZeroCopyIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  @BeforeEach
  void mapEveryResult() {
    BufferTransfer.mapThreshold = 0;
  }

  @AfterEach
  void restore() {
    BufferTransfer.mapThreshold = BufferTransfer.MAP_THRESHOLD;
  }

  private static FloatArray floats(float... values) {
    return FloatArray.of(values, values.length);
  }

  @Test
  void alignedArraysAreImportedAndResultsMapped() throws IOException {
    IreeSession session = IREE.load(Adder.FILE);
    try (session) {
      Adder adder = new Iree_Adder(session);
      long imported = BufferTransfer.IMPORTED.sum();
      long copiedIn = BufferTransfer.COPIED_IN.sum();
      long mapped = BufferTransfer.MAPPED_OUT.sum();
      // iree-run-module ... --function=add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40
      //   ->  4xf32=11 22 33 44
      FloatArray sum = adder.add(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
      assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
      assertThat(BufferTransfer.IMPORTED.sum() - imported).isEqualTo(2);
      assertThat(BufferTransfer.COPIED_IN.sum() - copiedIn).isEqualTo(0);
      assertThat(BufferTransfer.MAPPED_OUT.sum() - mapped).isEqualTo(1);
      // The mapped result is writable, like every result.
      sum.setFlat(5f, 0);
      assertThat(sum.getFlat(0)).isEqualTo(5f);
    }
    // The session kept the two imported views for reuse; closing it let IREE release them, and
    // with them the Java memory.
    assertThat(BufferTransfer.pinnedCount()).isEqualTo(0);
  }

  @Test
  void theSameMemoryPassedAgainReusesItsViewAndReadsWhatItHoldsNow() throws IOException {
    try (IreeSession session = IREE.load(Adder.FILE)) {
      Adder adder = new Iree_Adder(session);
      FloatArray a = floats(1, 2, 3, 4);
      FloatArray b = floats(10, 20, 30, 40);
      // iree-run-module ... --function=add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40
      //   ->  4xf32=11 22 33 44
      assertThat(adder.add(a, b).toArray()).isEqualTo(new float[] {11, 22, 33, 44});
      long imported = BufferTransfer.IMPORTED.sum();
      long reused = BufferTransfer.REUSED.sum();
      a.setFlat(100f, 0); // new data in the same memory: the kept view reads it
      assertThat(adder.add(a, b).toArray()).isEqualTo(new float[] {110, 22, 33, 44});
      assertThat(BufferTransfer.REUSED.sum() - reused).isEqualTo(2);
      assertThat(BufferTransfer.IMPORTED.sum() - imported).isEqualTo(0);
      // Another Java object over the same memory, same type and shape: the same view.
      BackendFunction add = session.function("module.add");
      long before = BufferTransfer.REUSED.sum();
      try (VmList ignored =
          add.invoke(
              VmList.of(BufferView.wrap(0x21000020, new long[] {4}, a.data()), b.asBufferView()))) {
        assertThat(BufferTransfer.REUSED.sum() - before).isEqualTo(2);
      }
      // The same memory as another shape is another view (which IREE then refuses for add).
      long importedBefore = BufferTransfer.IMPORTED.sum();
      VmList reshaped = VmList.of(a.reshape(2, 2).asBufferView(), b.asBufferView());
      assertThrows(IreeInvocationException.class, () -> add.invoke(reshaped));
      assertThat(BufferTransfer.IMPORTED.sum() - importedBefore).isEqualTo(1);
      // More arrays than the session keeps: every call still right.
      for (int i = 0; i < 3 * ImportedViews.CAPACITY; i++) {
        FloatArray x = floats(i, i, i, i);
        assertThat(adder.add(x, b).toArray())
            .isEqualTo(new float[] {i + 10, i + 20, i + 30, i + 40});
      }
    }
    assertThat(BufferTransfer.pinnedCount()).isEqualTo(0);
  }

  @Test
  void otherMemoryIsCopied() throws IOException {
    try (IreeSession session = IREE.load(Adder.FILE)) {
      BackendFunction add = session.function("module.add");
      // Heap memory, and direct memory deliberately off the 64-byte grid.
      ByteBuffer heap = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
      heap.asFloatBuffer().put(new float[] {1, 2, 3, 4});
      ByteBuffer raw = ByteBuffer.allocateDirect(16 + 64);
      int skip = (64 - raw.alignmentOffset(0, 64)) % 64 + 4;
      ByteBuffer unaligned = raw.slice(skip, 16).order(ByteOrder.nativeOrder());
      unaligned.asFloatBuffer().put(new float[] {10, 20, 30, 40});
      long copiedIn = BufferTransfer.COPIED_IN.sum();
      long imported = BufferTransfer.IMPORTED.sum();
      VmList arguments =
          VmList.of(
              BufferView.wrap(0x21000020, new long[] {4}, heap),
              BufferView.wrap(0x21000020, new long[] {4}, unaligned));
      try (VmList results = add.invoke(arguments)) {
        float[] out = new float[4];
        results.getBufferView(0).data().asFloatBuffer().get(out);
        assertThat(out).isEqualTo(new float[] {11, 22, 33, 44});
      }
      assertThat(BufferTransfer.COPIED_IN.sum() - copiedIn).isEqualTo(2);
      assertThat(BufferTransfer.IMPORTED.sum() - imported).isEqualTo(0);
    }
  }

  @Test
  void anArgumentReturnedAsAResultIsNeverSharedWithTheCaller() throws IOException {
    // identity_i64 may hand back the very buffer it was given: imported read-only, it cannot be
    // mapped for writing, so the result is a copy and the caller's array stays its own.
    long[] values = {8589934592L, -1099511627783L, 9223372036854775807L, -9223372036854775807L};
    try (IreeSession session = IREE.load(IdentityI64.FILE)) {
      LongArray in = LongArray.of(values.clone(), 4);
      LongArray out = new Iree_IdentityI64(session).identity(in);
      in.setFlat(7L, 0);
      assertThat(out.toArray()).isEqualTo(values);
      out.setFlat(9L, 1);
      assertThat(in.getFlat(1)).isEqualTo(-1099511627783L);
    }
  }

  @Test
  void aMappedResultOutlivesItsListAndIsReleasedWhenUnreachable() throws Exception {
    // Let the results of earlier tests go first, so that this test's mappings are all there is.
    for (int i = 0; i < 50 && BufferTransfer.mappedBytes() > 0; i++) {
      System.gc();
      Thread.sleep(20);
    }
    long before = BufferTransfer.mappedBytes();
    assertThat(before).isEqualTo(0);
    FloatArray kept;
    WeakReference<ByteBuffer> dropped;
    try (IreeRuntime own = IreeRuntime.create(IREE.runtime().library());
        IreeSession session = own.newSession().load(Corpus.require(Adder.FILE))) {
      BackendFunction add = session.function("module.add");
      VmList arguments =
          VmList.of(floats(1, 2, 3, 4).asBufferView(), floats(10, 20, 30, 40).asBufferView());
      try (VmList results = add.invoke(arguments)) {
        kept = FloatArray.fromBufferView(results.getBufferView(0));
      }
      try (VmList results = add.invoke(arguments)) {
        dropped = new WeakReference<>(results.getBufferView(0).data());
      }
    } // session and runtime closed: the mapping holds IREE's buffer and device by itself
    assertThat(BufferTransfer.mappedBytes()).isEqualTo(2 * (16 + BufferTransfer.MAPPING_OVERHEAD));
    for (int i = 0; i < 50 && dropped.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(dropped.get()).isNull();
    System.gc();
    Thread.sleep(100);
    // The kept view still reads IREE's memory, after its list, its session and collections.
    assertThat(kept.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
    kept = null;
    for (int i = 0; i < 50 && BufferTransfer.mappedBytes() > 0; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(BufferTransfer.mappedBytes()).isEqualTo(0);
  }
}
