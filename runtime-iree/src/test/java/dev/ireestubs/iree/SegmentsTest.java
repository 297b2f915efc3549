package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.ndarray.NdArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** {@link Segments}: what it shares, and the memory it refuses, without a runtime library. */
class SegmentsTest {

  @Test
  void allocateGivesZeroedAlignedMemoryOfTheArraysSize() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment segment = Segments.allocate(arena, ElementType.F32, 3, 5);
      assertThat(segment.byteSize()).isEqualTo(60);
      assertThat(segment.address() % Segments.ALIGNMENT).isEqualTo(0);
      assertThat(segment.toArray(JAVA_FLOAT)).isEqualTo(new float[15]);
    }
  }

  @Test
  void wrapSharesTheSegmentBothWays() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment segment = Segments.allocate(arena, ElementType.F32, 2, 2);
      FloatArray array = Segments.wrap(segment, ElementType.F32, FloatArray.class, 2, 2);
      segment.setAtIndex(JAVA_FLOAT, 3, 7f);
      assertThat(array.get(1, 1)).isEqualTo(7f);
      array.set(5f, 0, 1);
      assertThat(segment.getAtIndex(JAVA_FLOAT, 1)).isEqualTo(5f);
      assertThat(array.shape()).isEqualTo(new long[] {2, 2});
      assertThat(Segments.asSegment(array).address()).isEqualTo(segment.address());
      NdArray any = Segments.wrap(segment, ElementType.F32, NdArray.class, 4);
      assertThat(any).isInstanceOf(FloatArray.class);
    }
  }

  @Test
  void misalignedMemoryIsRefusedWithTheFix() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment misaligned = arena.allocate(16 + 64, 64).asSlice(4, 16);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> Segments.wrap(misaligned, ElementType.F32, FloatArray.class, 4));
      assertThat(e).hasMessageThat().contains("4 bytes past a 64-byte boundary");
      assertThat(e).hasMessageThat().contains("Segments.allocate(arena, type, shape)");
    }
  }

  @Test
  void aSegmentOfAnotherSizeIsRefused() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment segment = Segments.allocate(arena, ElementType.F32, 5);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> Segments.wrap(segment, ElementType.F32, FloatArray.class, 4));
      assertThat(e)
          .hasMessageThat()
          .isEqualTo(
              "Segments.wrap: an array of f32 and shape [4] is 16 bytes; the segment is 20 bytes:"
                  + " pass a slice of exactly that size (segment.asSlice(offset, 16))");
    }
  }

  @Test
  void heapMemoryIsRefused() {
    MemorySegment heap = MemorySegment.ofArray(new float[4]);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Segments.wrap(heap, ElementType.F32, FloatArray.class, 4));
    assertThat(e).hasMessageThat().contains("on the Java heap");
  }

  @Test
  void anArrayClassThatDoesNotHoldTheTypeIsRefused() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment segment = Segments.allocate(arena, ElementType.F32, 4);
      assertThrows(
          IllegalArgumentException.class,
          () -> Segments.wrap(segment, ElementType.F32, IntArray.class, 4));
    }
  }

  @Test
  void badShapesAndTypesAreRefused() {
    try (Arena arena = Arena.ofConfined()) {
      assertThat(
              assertThrows(
                      IllegalArgumentException.class,
                      () -> Segments.allocate(arena, ElementType.F32, 2, -1))
                  .getMessage())
          .contains("negative dim");
      assertThat(
              assertThrows(
                      IllegalArgumentException.class,
                      () -> Segments.allocate(arena, ElementType.F32, 1L << 40, 1L << 40))
                  .getMessage())
          .contains("one array holds at most");
      assertThat(
              assertThrows(
                      IllegalArgumentException.class,
                      () -> Segments.allocate(arena, ElementType.UNKNOWN, 4))
                  .getMessage())
          .contains("unknown");
    }
  }

  @Test
  void copyIntoNeedsATargetOfExactlyTheArraysSize() {
    FloatArray array = FloatArray.of(new float[] {1, 2, 3, 4}, 4);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment target = arena.allocate(16);
      Segments.copyInto(array, target);
      assertThat(target.toArray(JAVA_FLOAT)).isEqualTo(new float[] {1, 2, 3, 4});
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> Segments.copyInto(array, arena.allocate(12)));
      assertThat(e).hasMessageThat().contains("is 16 bytes; the target segment is 12 bytes");
      assertThrows(
          IllegalArgumentException.class, () -> Segments.copyInto(array, target.asReadOnly()));
    }
  }

  @Test
  void anArrayOverAClosedArenaThrowsRatherThanReadingFreedMemory() {
    MemorySegment segment;
    FloatArray array;
    try (Arena arena = Arena.ofConfined()) {
      segment = Segments.allocate(arena, ElementType.F32, 4);
      array = Segments.wrap(segment, ElementType.F32, FloatArray.class, 4);
    }
    assertThrows(IllegalStateException.class, () -> array.getFlat(0));
    assertThrows(
        IllegalStateException.class,
        () -> Segments.wrap(segment, ElementType.F32, FloatArray.class, 4));
  }
}
