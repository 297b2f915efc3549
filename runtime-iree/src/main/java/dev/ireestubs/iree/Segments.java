package dev.ireestubs.iree;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * Arrays over native memory the caller owns ({@link MemorySegment}s from the caller's own {@link
 * Arena}), so that a loop feeding frames to a model on the IREE backend copies each frame once,
 * into memory it reuses, and IREE reads it where it is.
 *
 * <pre>{@code
 * try (Arena arena = Arena.ofConfined();
 *     IreeSession session = IreeBackend.open(Path.of("add.vmfb"))) {
 *   Adder adder = new Iree_Adder(session);
 *   MemorySegment in = Segments.allocate(arena, ElementType.F32, 4);
 *   MemorySegment out = arena.allocate(16);
 *   FloatArray frame = Segments.wrap(in, ElementType.F32, FloatArray.class, 4);
 *   while (source.next(in)) {                    // the frame's bytes, written into `in`
 *     Segments.copyInto(adder.add(frame, bias), out);
 *     sink.accept(out);
 *   }
 * }
 * }</pre>
 *
 * <p><b>Arguments.</b> An array from {@link #wrap} shares the segment's memory: nothing is copied
 * when it is made, and on the IREE backend (CPU drivers) a call imports that memory as an IREE
 * buffer, read-only, without a copy; the session keeps the import and passes it again when the same
 * memory comes with the same element type and shape, so later calls with the same segment import
 * nothing (see {@link IreeSession}). {@link #wrap} therefore accepts only memory IREE can import:
 * native (not heap) memory that starts on a {@value #ALIGNMENT}-byte boundary and holds exactly the
 * array's bytes; anything else is refused with an {@link IllegalArgumentException} rather than
 * copied behind the caller's back ({@link #allocate} makes such a segment). On a backend that does
 * not share host memory the bytes are copied in, once per call.
 *
 * <p><b>Lifetime.</b> The segment must stay alive (its arena open) while a call that uses it runs,
 * and must not be written while that call runs. After the call IREE holds no reference to the
 * memory that it reads: closing the arena afterwards is safe. Using the array after the arena is
 * closed throws {@link IllegalStateException}, as the segment does; an array over a confined
 * arena's segment is usable only from the arena's thread.
 *
 * <p><b>Results.</b> An array a call returns lives in memory the backend allocated: a view of
 * IREE's own result memory (4 KiB or more), valid until the array and every view of it are
 * unreachable, or a copy. {@link #copyInto} copies it into memory the caller owns (one bulk copy);
 * {@link #asSegment} reads it where it is.
 */
public final class Segments {

  /** The alignment IREE imports without a copy ({@code IREE_HAL_HEAP_BUFFER_ALIGNMENT}). */
  public static final long ALIGNMENT = Encodings.HEAP_BUFFER_ALIGNMENT;

  private Segments() {}

  /**
   * A new zeroed segment in {@code arena} for an array of {@code type} and {@code shape}, on a
   * {@value #ALIGNMENT}-byte boundary: what {@link #wrap} accepts.
   *
   * @param arena the arena that owns the segment (and frees it when closed)
   * @param type the array's element type, a whole number of bytes wide
   * @param shape the array's dimensions, each 0 or more
   * @return a new zeroed segment of the array's size in bytes
   * @throws IllegalArgumentException when a dim is negative, the type is not a whole number of
   *     bytes wide, or the array would exceed {@link Integer#MAX_VALUE} bytes
   */
  public static MemorySegment allocate(Arena arena, ElementType type, long... shape) {
    Objects.requireNonNull(arena, "arena");
    return arena.allocate(byteSize("Segments.allocate", type, shape), ALIGNMENT);
  }

  /**
   * An array of class {@code arrayClass} and element type {@code type} over {@code segment},
   * sharing its memory (nothing is copied; writes through either are visible in both).
   *
   * @param <A> the array class made
   * @param segment native memory on a {@value #ALIGNMENT}-byte boundary holding exactly the array's
   *     bytes, in native byte order
   * @param type the array's element type, a whole number of bytes wide
   * @param arrayClass the array class that holds {@code type}, e.g. {@code FloatArray.class} for
   *     {@code f32}; {@code NdArray.class} for whichever class does
   * @param shape the array's dimensions, each 0 or more
   * @return an array of class {@code arrayClass} sharing the segment's memory; closing it does not
   *     free the segment
   * @throws IllegalArgumentException when the segment is heap memory, not on a {@value
   *     #ALIGNMENT}-byte boundary, or not exactly the array's size; or when {@code arrayClass} does
   *     not hold {@code type}
   * @throws IllegalStateException when the segment's arena is closed
   */
  public static <A extends NdArray> A wrap(
      MemorySegment segment, ElementType type, Class<A> arrayClass, long... shape) {
    Objects.requireNonNull(segment, "segment");
    Objects.requireNonNull(arrayClass, "arrayClass");
    long expected = byteSize("Segments.wrap", type, shape);
    if (!segment.scope().isAlive()) {
      throw new IllegalStateException("Segments.wrap: the segment's arena is already closed");
    }
    if (!segment.isNative()) {
      throw new IllegalArgumentException(
          "Segments.wrap: the segment is on the Java heap; IREE can read only native memory:"
              + " allocate it with Segments.allocate(arena, "
              + type
              + ", ...), or pass a Java"
              + " array through the array class's of(...) (a copy)");
    }
    if (segment.byteSize() != expected) {
      throw new IllegalArgumentException(
          "Segments.wrap: an array of "
              + type
              + " and shape "
              + Arrays.toString(shape)
              + " is "
              + expected
              + " bytes; the segment is "
              + segment.byteSize()
              + " bytes: pass a slice of exactly that size (segment.asSlice(offset, "
              + expected
              + "))");
    }
    if (segment.address() % ALIGNMENT != 0) {
      throw new IllegalArgumentException(
          "Segments.wrap: the segment starts at 0x"
              + Long.toHexString(segment.address())
              + ", "
              + segment.address() % ALIGNMENT
              + " bytes past a "
              + ALIGNMENT
              + "-byte boundary; IREE imports only aligned memory without a copy: allocate it"
              + " with Segments.allocate(arena, type, shape) or arena.allocate(size, "
              + ALIGNMENT
              + ")");
    }
    ByteBuffer bytes = segment.asByteBuffer().order(ByteOrder.nativeOrder());
    return NdArray.fromBufferView(BufferView.wrap(type.halCode().get(), shape, bytes), arrayClass);
  }

  /**
   * Copies the elements of {@code array} into {@code target}, which must be exactly the array's
   * size: one bulk copy, nothing allocated on the Java heap beyond the segment objects.
   *
   * @param array the array whose elements are copied; not closed
   * @param target native memory of exactly {@code array.byteLength()} bytes
   * @throws IllegalArgumentException when the sizes differ, or {@code target} is read-only
   * @throws IllegalStateException when {@code target}'s arena is closed
   */
  public static void copyInto(NdArray array, MemorySegment target) {
    Objects.requireNonNull(array, "array");
    Objects.requireNonNull(target, "target");
    MemorySegment source = asSegment(array);
    if (source.byteSize() != target.byteSize()) {
      throw new IllegalArgumentException(
          "Segments.copyInto: the array ("
              + array.elementType()
              + " "
              + Arrays.toString(array.shape())
              + ") is "
              + source.byteSize()
              + " bytes; the target segment is "
              + target.byteSize()
              + " bytes: pass a slice of exactly that size (target.asSlice(offset, "
              + source.byteSize()
              + "))");
    }
    if (target.isReadOnly()) {
      throw new IllegalArgumentException("Segments.copyInto: the target segment is read-only");
    }
    MemorySegment.copy(source, 0, target, 0, source.byteSize());
  }

  /**
   * The memory of {@code array} as a segment, shared (not copied), read-only when the array is. The
   * segment keeps the array's memory alive as long as it is reachable, as the array does.
   *
   * @param array the array whose elements are copied; not closed
   * @return a segment over the array's memory, of {@code array.byteLength()} bytes
   */
  public static MemorySegment asSegment(NdArray array) {
    Objects.requireNonNull(array, "array");
    return MemorySegment.ofBuffer(array.data());
  }

  private static long byteSize(String where, ElementType type, long[] shape) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(shape, "shape");
    if (type.halCode().isEmpty()) {
      throw new IllegalArgumentException(where + ": " + type + " has no HAL element type");
    }
    if (type.bits() <= 0 || type.bits() % 8 != 0) {
      throw new IllegalArgumentException(
          where + ": " + type + " elements are not a whole number of bytes wide");
    }
    long count = 1;
    for (long dim : shape) {
      if (dim < 0) {
        throw new IllegalArgumentException(
            where + ": shape " + Arrays.toString(shape) + " has a negative dim");
      }
      count = saturatedMultiply(count, dim);
    }
    long bytes = saturatedMultiply(count, type.bits() / 8);
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          where
              + ": an array of "
              + type
              + " and shape "
              + Arrays.toString(shape)
              + " needs "
              + (bytes == Long.MAX_VALUE ? "more than 2^63" : String.valueOf(bytes))
              + " bytes; one array holds at most "
              + Integer.MAX_VALUE);
    }
    return bytes;
  }

  private static long saturatedMultiply(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return high != 0 || low < 0 ? Long.MAX_VALUE : low;
  }
}
