package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.ShortBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of 16-bit integer elements, read and written as Java {@code short} (two's
 * complement); element type {@code i16} (HAL {@code INT_16}, {@code 0x10000010}) or {@code si16}
 * (HAL {@code SINT_16}, {@code 0x11000010}).
 *
 * <p>See {@link NdArray} for memory, views and equality.
 *
 * <h2>Signedness</h2>
 *
 * <p>Factories make signless {@code i16} arrays, because that is the type IREE's compiler gives
 * {@code i16} tensors (HAL {@code 0x10000010}). Some senders label the same bytes as signed {@code
 * si16} (HAL {@code 0x11000010}): IREE's Python runtime does so for numpy integer arrays. {@link
 * #fromBufferView} accepts both and keeps the label; {@link #asSigned()} and {@link #asSignless()}
 * relabel without copying. The values are the same either way.
 */
public final class ShortArray extends NdArray {

  ShortArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new signless {@code i16} array holding a copy of {@code data} in row-major order, of shape
   * {@code shape}; with no shape given, a rank-1 array of {@code data.length} elements.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static ShortArray of(short[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("ShortArray.of", data.length, shape);
    ShortArray array = allocate(dims, "ShortArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new signless {@code i16} array of rank 2 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ShortArray of(short[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new signless {@code i16} array of rank 3 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ShortArray of(short[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new signless {@code i16} array of rank 4 holding a copy of the rectangular array {@code
   * data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ShortArray of(short[][][][] data) {
    return ofNested(data, 4);
  }

  private static ShortArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "ShortArray.of");
    ShortArray array = allocate(dims, "ShortArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new signless {@code i16} array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static ShortArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "ShortArray.zeros");
    return allocate(dims, "ShortArray.zeros");
  }

  /** A new signless {@code i16} rank-0 array (shape {@code []}) holding {@code value}. */
  public static ShortArray scalar(short value) {
    ShortArray array = allocate(new long[0], "ShortArray.scalar");
    array.putRaw(0, value);
    return array;
  }

  /**
   * An array over the bytes of {@code buffer} from its position to its limit, sharing them: nothing
   * is copied, and writes through either are visible in both. With no shape given, the array is
   * rank 1.
   *
   * @param buffer a direct buffer in native byte order ({@link java.nio.ByteOrder#nativeOrder()}),
   *     holding exactly the array's bytes (2 per element); its position and limit are not changed
   * @throws IllegalArgumentException when the buffer is on the Java heap, is not in native order,
   *     or its size does not match the shape
   */
  public static ShortArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.I16, shape, "ShortArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.I16, shape, "ShortArray.wrap");
    return new ShortArray(ElementType.I16, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code i16} or {@code si16} elements;
   * nothing is copied when its data is direct (heap data is copied into direct memory). The element
   * type (signless or signed) is kept.
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static ShortArray fromBufferView(BufferView view) {
    ElementType type =
        Storage.requireElementType(view, "ShortArray", ElementType.SI16);
    return new ShortArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static ShortArray allocate(long[] dims, String where) {
    return new ShortArray(ElementType.I16, dims, Storage.allocate(ElementType.I16, dims, where));
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public short get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(short value, long... index) {
    int i = offsetOf(index);
    putRaw(i, value);
  }

  /**
   * The element at row-major position {@code flatIndex}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public short getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}. The value comes
   * first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(short value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, value);
  }

  /**
   * Sets every element to {@code value}.
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(short value) {
    if (size == 0) {
      return;
    }
    short raw = value;
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /** A copy of every element in row-major order. */
  public short[] toArray() {
    short[] out = new short[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public short[][] toArray2D() {
    requireRank(2, "ShortArray.toArray2D");
    short[][] out = (short[][]) Nested.newArray(short.class, shape, "ShortArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public short[][][] toArray3D() {
    requireRank(3, "ShortArray.toArray3D");
    short[][][] out = (short[][][]) Nested.newArray(short.class, shape, "ShortArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public short[][][][] toArray4D() {
    requireRank(4, "ShortArray.toArray4D");
    short[][][][] out = (short[][][][]) Nested.newArray(short.class, shape, "ShortArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  /**
   * A {@link ShortBuffer} over this array's memory (shared, not copied), positioned at 0 with the
   * elements in row-major order: for bulk reads and writes.
   */
  public ShortBuffer asShortBuffer() {
    return data().asShortBuffer();
  }

  /** True when the element type is the signed {@code si16}, false for the signless {@code i16}. */
  public boolean isSigned() {
    return elementType.kind() == ElementType.Kind.SIGNED_INTEGER;
  }

  /**
   * This array labelled signed {@code si16} (HAL {@code 0x11000010}): a view sharing the memory, or
   * this array when it is signed already. The values do not change.
   */
  public ShortArray asSigned() {
    return isSigned() ? this : new ShortArray(ElementType.SI16, shape, data);
  }

  /**
   * This array labelled signless {@code i16} (HAL {@code 0x10000010}): a view sharing the memory,
   * or this array when it is signless already. The values do not change.
   */
  public ShortArray asSignless() {
    return isSigned() ? new ShortArray(ElementType.I16, shape, data) : this;
  }

  @Override
  public ShortArray reshape(long... shape) {
    return (ShortArray) reshapeView(shape);
  }

  @Override
  public ShortArray slice(long from, long to) {
    return (ShortArray) sliceView(from, to);
  }

  @Override
  public ShortArray select(long index) {
    return (ShortArray) selectView(index);
  }

  @Override
  public ShortArray copy() {
    return new ShortArray(elementType, shape, copyOfData());
  }

  @Override
  ShortArray newView(long[] shape, ByteBuffer data) {
    return new ShortArray(elementType, shape, data);
  }

  @Override
  long elementKey(int flat) {
    short v = value(flat);
    return v;
  }

  @Override
  String formatElement(int flat) {
    short v = value(flat);
    return Short.toString(v);
  }

  private short raw(int i) {
    return data.getShort(i << 1);
  }

  private void putRaw(int i, short bits) {
    data.putShort(i << 1, bits);
  }

  private short value(int i) {
    return raw(i);
  }

  /**
   * A ShortBuffer view of the data, made once and shared: nested Java arrays are copied row by row
   * through it with absolute bulk operations, which never move its position.
   */
  private ShortBuffer rows;

  private ShortBuffer rows() {
    ShortBuffer view = rows;
    if (view == null) {
      view = data.asShortBuffer();
      rows = view;
    }
    return view;
  }

  private void copyIn(Object row, int offset) {
    rows().put(offset, (short[]) row);
  }

  private void copyOut(Object row, int offset) {
    rows().get(offset, (short[]) row);
  }
}
