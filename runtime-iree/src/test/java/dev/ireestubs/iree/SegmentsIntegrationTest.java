package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.iree.models.Iree_MatmulArrays;
import dev.ireestubs.iree.models.MatmulArrays;
import dev.ireestubs.ndarray.FloatArray;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Arguments in the caller's own native memory ({@link Segments#wrap}) reach IREE without a copy,
 * the same memory refilled is passed again without a new import, and results land in the caller's
 * memory ({@link Segments#copyInto}) with iree-run-module's values. Skipped without a runtime
 * library.
 */
class SegmentsIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  @AfterEach
  void restore() {
    BufferTransfer.mapThreshold = BufferTransfer.MAP_THRESHOLD;
  }

  private static MemorySegment fill(MemorySegment segment, float... values) {
    MemorySegment.copy(values, 0, segment, JAVA_FLOAT, 0, values.length);
    return segment;
  }

  private static float[] floats(MemorySegment segment) {
    return segment.toArray(JAVA_FLOAT);
  }

  @Test
  void framesFromTheCallersMemoryAreImportedOnceAndResultsLandInItsMemory() throws IOException {
    try (Arena arena = Arena.ofConfined();
        IreeSession session = IREE.load(Adder.FILE)) {
      Adder adder = new Iree_Adder(session);
      MemorySegment in = Segments.allocate(arena, ElementType.F32, 4);
      MemorySegment bias = fill(Segments.allocate(arena, ElementType.F32, 4), 10, 20, 30, 40);
      MemorySegment out = arena.allocate(16);
      FloatArray frame = Segments.wrap(in, ElementType.F32, FloatArray.class, 4);
      FloatArray biasArray = Segments.wrap(bias, ElementType.F32, FloatArray.class, 4);

      long imported = BufferTransfer.IMPORTED.sum();
      long reused = BufferTransfer.REUSED.sum();
      long copiedIn = BufferTransfer.COPIED_IN.sum();
      // iree-run-module ... --function=add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40
      //   ->  4xf32=11 22 33 44
      fill(in, 1, 2, 3, 4);
      Segments.copyInto(adder.add(frame, biasArray), out);
      assertThat(floats(out)).isEqualTo(new float[] {11, 22, 33, 44});
      assertThat(BufferTransfer.IMPORTED.sum() - imported).isEqualTo(2);
      assertThat(BufferTransfer.COPIED_IN.sum() - copiedIn).isEqualTo(0);

      // The next frames, written into the same memory: passed again, neither copied nor imported.
      for (int i = 1; i <= 5; i++) {
        fill(in, i, -i, 0.5f * i, 100 * i);
        Segments.copyInto(adder.add(frame, biasArray), out);
        assertThat(floats(out))
            .isEqualTo(new float[] {10 + i, 20 - i, 30 + 0.5f * i, 40 + 100 * i});
      }
      assertThat(BufferTransfer.IMPORTED.sum() - imported).isEqualTo(2);
      assertThat(BufferTransfer.REUSED.sum() - reused).isEqualTo(10);
      assertThat(BufferTransfer.COPIED_IN.sum() - copiedIn).isEqualTo(0);
    }
    // The session let go of the imported memory when it closed.
    assertThat(BufferTransfer.pinnedCount()).isEqualTo(0);
  }

  // iree-run-module --module=vmfb/2026-03_elodin_matmul_x86_64_bc17.vmfb --device=local-sync
  //   --function=matmul --input=3x4xf32=1,2,3,4,5,6,7,8,9,10,11,12
  //   --input=4x2xf32=1,0,0,1,2,-1,0.5,0.25
  // -> 3x2xf32=[9 0][23 1][37 2]
  @Test
  void matmulOfSegmentsIntoASegment() throws IOException {
    try (Arena arena = Arena.ofShared();
        IreeSession session = IREE.load(MatmulArrays.FILE)) {
      MemorySegment a =
          fill(
              Segments.allocate(arena, ElementType.F32, 3, 4),
              1,
              2,
              3,
              4,
              5,
              6,
              7,
              8,
              9,
              10,
              11,
              12);
      MemorySegment b =
          fill(Segments.allocate(arena, ElementType.F32, 4, 2), 1, 0, 0, 1, 2, -1, 0.5f, 0.25f);
      MemorySegment c = Segments.allocate(arena, ElementType.F32, 3, 2);
      long imported = BufferTransfer.IMPORTED.sum();
      long copiedIn = BufferTransfer.COPIED_IN.sum();
      FloatArray product =
          new Iree_MatmulArrays(session)
              .matmul(
                  Segments.wrap(a, ElementType.F32, FloatArray.class, 3, 4),
                  Segments.wrap(b, ElementType.F32, FloatArray.class, 4, 2));
      assertThat(product.shape()).isEqualTo(new long[] {3, 2});
      Segments.copyInto(product, c);
      assertThat(floats(c)).isEqualTo(new float[] {9, 0, 23, 1, 37, 2});
      assertThat(BufferTransfer.IMPORTED.sum() - imported).isEqualTo(2);
      assertThat(BufferTransfer.COPIED_IN.sum() - copiedIn).isEqualTo(0);
    }
  }

  @Test
  void aMappedResultIsReadWhereItIs() throws IOException {
    BufferTransfer.mapThreshold = 0; // the test modules' results are small: map them anyway
    try (Arena arena = Arena.ofConfined();
        IreeSession session = IREE.load(Adder.FILE)) {
      MemorySegment a = fill(Segments.allocate(arena, ElementType.F32, 4), 1, 2, 3, 4);
      MemorySegment b = fill(Segments.allocate(arena, ElementType.F32, 4), 10, 20, 30, 40);
      long mapped = BufferTransfer.MAPPED_OUT.sum();
      FloatArray sum =
          new Iree_Adder(session)
              .add(
                  Segments.wrap(a, ElementType.F32, FloatArray.class, 4),
                  Segments.wrap(b, ElementType.F32, FloatArray.class, 4));
      assertThat(BufferTransfer.MAPPED_OUT.sum() - mapped).isEqualTo(1);
      MemorySegment view = Segments.asSegment(sum);
      assertThat(floats(view)).isEqualTo(new float[] {11, 22, 33, 44});
      MemorySegment out = arena.allocate(16);
      Segments.copyInto(sum, out);
      assertThat(floats(out)).isEqualTo(new float[] {11, 22, 33, 44});
    }
  }
}
