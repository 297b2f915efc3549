package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of 32-bit integer elements, read and written as Java {@code int} (two's
 * complement); element type {@code i32} (HAL {@code INT_32}, {@code 0x10000020}) or {@code si32}
 * (HAL {@code SINT_32}, {@code 0x11000020}).
 *
 * <p>See {@link NdArray} for memory, views and equality.
 *
 * <h2>Signedness</h2>
 *
 * <p>Factories make signless {@code i32} arrays, because that is the type IREE's compiler gives
 * {@code i32} tensors (HAL {@code 0x10000020}). Some senders label the same bytes as signed {@code
 * si32} (HAL {@code 0x11000020}): IREE's Python runtime does so for numpy integer arrays. {@link
 * #fromBufferView} accepts both and keeps the label; {@link #asSigned()} and {@link #asSignless()}
 * relabel without copying. The values are the same either way.
 */
public final class IntArray extends NdArray {

  IntArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new signless {@code i32} array holding a copy of {@code data} in row-major order, of shape
   * {@code shape}; with no shape given, a rank-1 array of {@code data.length} elements.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static IntArray of(int[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("IntArray.of", data.length, shape);
    IntArray array = allocate(dims, "IntArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new signless {@code i32} array of rank 2 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static IntArray of(int[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new signless {@code i32} array of rank 3 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static IntArray of(int[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new signless {@code i32} array of rank 4 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static IntArray of(int[][][][] data) {
    return ofNested(data, 4);
  }

  private static IntArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "IntArray.of");
    IntArray array = allocate(dims, "IntArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new signless {@code i32} array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static IntArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "IntArray.zeros");
    return allocate(dims, "IntArray.zeros");
  }

  /** A new signless {@code i32} rank-0 array (shape {@code []}) holding {@code value}. */
  public static IntArray scalar(int value) {
    IntArray array = allocate(new long[0], "IntArray.scalar");
    array.putRaw(0, value);
    return array;
  }

  /**
   * An array over the bytes of {@code buffer} from its position to its limit, sharing them: nothing
   * is copied, and writes through either are visible in both. With no shape given, the array is
   * rank 1.
   *
   * @param buffer a direct buffer in native byte order ({@link java.nio.ByteOrder#nativeOrder()}),
   *     holding exactly the array's bytes (4 per element); its position and limit are not changed
   * @throws IllegalArgumentException when the buffer is on the Java heap, is not in native order,
   *     or its size does not match the shape
   */
  public static IntArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.I32, shape, "IntArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.I32, shape, "IntArray.wrap");
    return new IntArray(ElementType.I32, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code i32} or {@code si32} elements;
   * nothing is copied when its data is direct (heap data is copied into direct memory). The element
   * type (signless or signed) is kept.
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static IntArray fromBufferView(BufferView view) {
    ElementType type =
        Storage.requireElementType(view, "IntArray", ElementType.SI32);
    return new IntArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static IntArray allocate(long[] dims, String where) {
    return new IntArray(ElementType.I32, dims, Storage.allocate(ElementType.I32, dims, where));
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public int get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(int value, long... index) {
    int i = offsetOf(index);
    putRaw(i, value);
  }

  /**
   * The element at row-major position {@code flatIndex}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public int getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}. The value comes
   * first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(int value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, value);
  }

  /**
   * Sets every element to {@code value}.
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(int value) {
    if (size == 0) {
      return;
    }
    int raw = value;
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /** A copy of every element in row-major order. */
  public int[] toArray() {
    int[] out = new int[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public int[][] toArray2D() {
    requireRank(2, "IntArray.toArray2D");
    int[][] out = (int[][]) Nested.newArray(int.class, shape, "IntArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public int[][][] toArray3D() {
    requireRank(3, "IntArray.toArray3D");
    int[][][] out = (int[][][]) Nested.newArray(int.class, shape, "IntArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public int[][][][] toArray4D() {
    requireRank(4, "IntArray.toArray4D");
    int[][][][] out = (int[][][][]) Nested.newArray(int.class, shape, "IntArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  /**
   * An {@link IntBuffer} over this array's memory (shared, not copied), positioned at 0 with the
   * elements in row-major order: for bulk reads and writes.
   */
  public IntBuffer asIntBuffer() {
    return data().asIntBuffer();
  }

  /** True when the element type is the signed {@code si32}, false for the signless {@code i32}. */
  public boolean isSigned() {
    return elementType.kind() == ElementType.Kind.SIGNED_INTEGER;
  }

  /**
   * This array labelled signed {@code si32} (HAL {@code 0x11000020}): a view sharing the memory, or
   * this array when it is signed already. The values do not change.
   */
  public IntArray asSigned() {
    return isSigned() ? this : new IntArray(ElementType.SI32, shape, data);
  }

  /**
   * This array labelled signless {@code i32} (HAL {@code 0x10000020}): a view sharing the memory,
   * or this array when it is signless already. The values do not change.
   */
  public IntArray asSignless() {
    return isSigned() ? new IntArray(ElementType.I32, shape, data) : this;
  }

  @Override
  public IntArray reshape(long... shape) {
    return (IntArray) reshapeView(shape);
  }

  @Override
  public IntArray slice(long from, long to) {
    return (IntArray) sliceView(from, to);
  }

  @Override
  public IntArray select(long index) {
    return (IntArray) selectView(index);
  }

  @Override
  public IntArray copy() {
    return new IntArray(elementType, shape, copyOfData());
  }

  @Override
  IntArray newView(long[] shape, ByteBuffer data) {
    return new IntArray(elementType, shape, data);
  }

  @Override
  long elementKey(int flat) {
    int v = value(flat);
    return v;
  }

  @Override
  String formatElement(int flat) {
    int v = value(flat);
    return Integer.toString(v);
  }

  private int raw(int i) {
    return data.getInt(i << 2);
  }

  private void putRaw(int i, int bits) {
    data.putInt(i << 2, bits);
  }

  private int value(int i) {
    return raw(i);
  }

  /**
   * A IntBuffer view of the data, made once and shared: nested Java arrays are copied row by row
   * through it with absolute bulk operations, which never move its position.
   */
  private IntBuffer rows;

  private IntBuffer rows() {
    IntBuffer view = rows;
    if (view == null) {
      view = data.asIntBuffer();
      rows = view;
    }
    return view;
  }

  private void copyIn(Object row, int offset) {
    rows().put(offset, (int[]) row);
  }

  private void copyOut(Object row, int offset) {
    rows().get(offset, (int[]) row);
  }
}
