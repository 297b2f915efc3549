package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of 64-bit integer elements, read and written as Java {@code long} (two's
 * complement); element type {@code i64} (HAL {@code INT_64}, {@code 0x10000040}) or {@code si64}
 * (HAL {@code SINT_64}, {@code 0x11000040}).
 *
 * <p>See {@link NdArray} for memory, views and equality.
 *
 * <h2>Signedness</h2>
 *
 * <p>Factories make signless {@code i64} arrays, because that is the type IREE's compiler gives
 * {@code i64} tensors (HAL {@code 0x10000040}). Some senders label the same bytes as signed {@code
 * si64} (HAL {@code 0x11000040}): IREE's Python runtime does so for numpy integer arrays. {@link
 * #fromBufferView} accepts both and keeps the label; {@link #asSigned()} and {@link #asSignless()}
 * relabel without copying. The values are the same either way.
 */
public final class LongArray extends NdArray {

  LongArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new signless {@code i64} array holding a copy of {@code data} in row-major order, of shape
   * {@code shape}; with no shape given, a rank-1 array of {@code data.length} elements.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static LongArray of(long[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("LongArray.of", data.length, shape);
    LongArray array = allocate(dims, "LongArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new signless {@code i64} array of rank 2 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static LongArray of(long[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new signless {@code i64} array of rank 3 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static LongArray of(long[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new signless {@code i64} array of rank 4 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static LongArray of(long[][][][] data) {
    return ofNested(data, 4);
  }

  private static LongArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "LongArray.of");
    LongArray array = allocate(dims, "LongArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new signless {@code i64} array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static LongArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "LongArray.zeros");
    return allocate(dims, "LongArray.zeros");
  }

  /** A new signless {@code i64} rank-0 array (shape {@code []}) holding {@code value}. */
  public static LongArray scalar(long value) {
    LongArray array = allocate(new long[0], "LongArray.scalar");
    array.putRaw(0, value);
    return array;
  }

  /**
   * An array over the bytes of {@code buffer} from its position to its limit, sharing them: nothing
   * is copied, and writes through either are visible in both. With no shape given, the array is
   * rank 1.
   *
   * @param buffer a direct buffer in native byte order ({@link java.nio.ByteOrder#nativeOrder()}),
   *     holding exactly the array's bytes (8 per element); its position and limit are not changed
   * @throws IllegalArgumentException when the buffer is on the Java heap, is not in native order,
   *     or its size does not match the shape
   */
  public static LongArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.I64, shape, "LongArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.I64, shape, "LongArray.wrap");
    return new LongArray(ElementType.I64, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code i64} or {@code si64} elements;
   * nothing is copied when its data is direct (heap data is copied into direct memory). The element
   * type (signless or signed) is kept.
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static LongArray fromBufferView(BufferView view) {
    ElementType type =
        Storage.requireElementType(view, "LongArray", ElementType.SI64);
    return new LongArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static LongArray allocate(long[] dims, String where) {
    return new LongArray(ElementType.I64, dims, Storage.allocate(ElementType.I64, dims, where));
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public long get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(long value, long... index) {
    int i = offsetOf(index);
    putRaw(i, value);
  }

  /**
   * The element at row-major position {@code flatIndex}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public long getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}. The value comes
   * first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(long value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, value);
  }

  /**
   * Sets every element to {@code value}.
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(long value) {
    if (size == 0) {
      return;
    }
    long raw = value;
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /** A copy of every element in row-major order. */
  public long[] toArray() {
    long[] out = new long[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public long[][] toArray2D() {
    requireRank(2, "LongArray.toArray2D");
    long[][] out = (long[][]) Nested.newArray(long.class, shape, "LongArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public long[][][] toArray3D() {
    requireRank(3, "LongArray.toArray3D");
    long[][][] out = (long[][][]) Nested.newArray(long.class, shape, "LongArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public long[][][][] toArray4D() {
    requireRank(4, "LongArray.toArray4D");
    long[][][][] out = (long[][][][]) Nested.newArray(long.class, shape, "LongArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  /**
   * A {@link LongBuffer} over this array's memory (shared, not copied), positioned at 0 with the
   * elements in row-major order: for bulk reads and writes.
   */
  public LongBuffer asLongBuffer() {
    return data().asLongBuffer();
  }

  /** True when the element type is the signed {@code si64}, false for the signless {@code i64}. */
  public boolean isSigned() {
    return elementType.kind() == ElementType.Kind.SIGNED_INTEGER;
  }

  /**
   * This array labelled signed {@code si64} (HAL {@code 0x11000040}): a view sharing the memory, or
   * this array when it is signed already. The values do not change.
   */
  public LongArray asSigned() {
    return isSigned() ? this : new LongArray(ElementType.SI64, shape, data);
  }

  /**
   * This array labelled signless {@code i64} (HAL {@code 0x10000040}): a view sharing the memory,
   * or this array when it is signless already. The values do not change.
   */
  public LongArray asSignless() {
    return isSigned() ? new LongArray(ElementType.I64, shape, data) : this;
  }

  @Override
  public LongArray reshape(long... shape) {
    return (LongArray) reshapeView(shape);
  }

  @Override
  public LongArray slice(long from, long to) {
    return (LongArray) sliceView(from, to);
  }

  @Override
  public LongArray select(long index) {
    return (LongArray) selectView(index);
  }

  @Override
  public LongArray copy() {
    return new LongArray(elementType, shape, copyOfData());
  }

  @Override
  LongArray newView(long[] shape, ByteBuffer data) {
    return new LongArray(elementType, shape, data);
  }

  @Override
  long elementKey(int flat) {
    long v = value(flat);
    return v;
  }

  @Override
  String formatElement(int flat) {
    long v = value(flat);
    return Long.toString(v);
  }

  private long raw(int i) {
    return data.getLong(i << 3);
  }

  private void putRaw(int i, long bits) {
    data.putLong(i << 3, bits);
  }

  private long value(int i) {
    return raw(i);
  }

  /**
   * A LongBuffer view of the data, made once and shared: nested Java arrays are copied row by row
   * through it with absolute bulk operations, which never move its position.
   */
  private LongBuffer rows;

  private LongBuffer rows() {
    LongBuffer view = rows;
    if (view == null) {
      view = data.asLongBuffer();
      rows = view;
    }
    return view;
  }

  private void copyIn(Object row, int offset) {
    rows().put(offset, (long[]) row);
  }

  private void copyOut(Object row, int offset) {
    rows().get(offset, (long[]) row);
  }
}
