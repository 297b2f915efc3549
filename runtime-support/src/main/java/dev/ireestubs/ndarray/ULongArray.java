package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of {@code ui64} (unsigned 64-bit integer) elements; HAL element type
 * {@code UINT_64} ({@code 0x12000040}).
 *
 * <p>Elements read and write as the 64 bits of the unsigned value in a {@code long}, the way {@link
 * Long#toUnsignedString(long)}, {@link Long#parseUnsignedLong(String)}, {@link
 * Long#compareUnsigned} and {@link Long#divideUnsigned} treat them: 2<sup>64</sup> - 1 is {@code
 * -1L}. {@link #getString} gives the decimal value, and {@link #toString()} prints unsigned values.
 *
 * <p>See {@link NdArray} for memory, views and equality.
 */
public final class ULongArray extends NdArray {

  ULongArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new array holding a copy of {@code data} in row-major order, of shape {@code shape}; with no
   * shape given, a rank-1 array of {@code data.length} elements. Values from 2<sup>63</sup> up are
   * given as negative {@code long}s, as {@link Long#parseUnsignedLong} returns them.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static ULongArray of(long[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("ULongArray.of", data.length, shape);
    ULongArray array = allocate(dims, "ULongArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new array of rank 2 holding a copy of the rectangular array {@code data}. Values from
   * 2<sup>63</sup> up are given as negative {@code long}s, as {@link Long#parseUnsignedLong}
   * returns them.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ULongArray of(long[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new array of rank 3 holding a copy of the rectangular array {@code data}. Values from
   * 2<sup>63</sup> up are given as negative {@code long}s, as {@link Long#parseUnsignedLong}
   * returns them.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ULongArray of(long[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new array of rank 4 holding a copy of the rectangular array {@code data}. Values from
   * 2<sup>63</sup> up are given as negative {@code long}s, as {@link Long#parseUnsignedLong}
   * returns them.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ULongArray of(long[][][][] data) {
    return ofNested(data, 4);
  }

  private static ULongArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "ULongArray.of");
    ULongArray array = allocate(dims, "ULongArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static ULongArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "ULongArray.zeros");
    return allocate(dims, "ULongArray.zeros");
  }

  /**
   * A new rank-0 array (shape {@code []}) holding {@code value}, given as its 64 bits (values from
   * 2<sup>63</sup> up are negative {@code long}s, as {@link Long#parseUnsignedLong} returns them).
   */
  public static ULongArray scalar(long value) {
    ULongArray array = allocate(new long[0], "ULongArray.scalar");
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
  public static ULongArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.UI64, shape, "ULongArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.UI64, shape, "ULongArray.wrap");
    return new ULongArray(ElementType.UI64, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code ui64} elements, or signless
   * {@code i64} ones (as IREE's runtime returns integers whatever their signedness; the JSON
   * reflection drops it too), read as unsigned; nothing is
   * copied when its data is direct (heap data is copied into direct memory).
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static ULongArray fromBufferView(BufferView view) {
    ElementType type = Storage.requireElementType(view, "ULongArray", ElementType.UI64);
    return new ULongArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static ULongArray allocate(long[] dims, String where) {
    return new ULongArray(ElementType.UI64, dims, Storage.allocate(ElementType.UI64, dims, where));
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar), as the 64 bits of the
   * unsigned value (see {@link #getString} for its decimal form).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public long get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value},
   * given as its 64 bits (values from 2<sup>63</sup> up are negative {@code long}s, as {@link
   * Long#parseUnsignedLong} returns them).
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
   * The element at row-major position {@code flatIndex}, as the 64 bits of the unsigned value (see
   * {@link #getString} for its decimal form).
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public long getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}, given as its 64 bits
   * (values from 2<sup>63</sup> up are negative {@code long}s, as {@link Long#parseUnsignedLong}
   * returns them). The value comes first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(long value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, value);
  }

  /**
   * Sets every element to {@code value}, given as its 64 bits (values from 2<sup>63</sup> up are
   * negative {@code long}s, as {@link Long#parseUnsignedLong} returns them).
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

  /**
   * The element at {@code index} as an unsigned decimal string, e.g. {@code "18446744073709551615"}
   * for {@code -1L}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public String getString(long... index) {
    return Long.toUnsignedString(get(index));
  }

  /**
   * A copy of every element in row-major order, as the 64 bits of the unsigned value (see {@link
   * #getString} for its decimal form).
   */
  public long[] toArray() {
    long[] out = new long[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array, as the 64 bits of the unsigned value
   * (see {@link #getString} for its decimal form).
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public long[][] toArray2D() {
    requireRank(2, "ULongArray.toArray2D");
    long[][] out = (long[][]) Nested.newArray(long.class, shape, "ULongArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array, as the 64 bits of the unsigned value
   * (see {@link #getString} for its decimal form).
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public long[][][] toArray3D() {
    requireRank(3, "ULongArray.toArray3D");
    long[][][] out = (long[][][]) Nested.newArray(long.class, shape, "ULongArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array, as the 64 bits of the unsigned value
   * (see {@link #getString} for its decimal form).
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public long[][][][] toArray4D() {
    requireRank(4, "ULongArray.toArray4D");
    long[][][][] out = (long[][][][]) Nested.newArray(long.class, shape, "ULongArray.toArray4D");
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

  @Override
  public ULongArray reshape(long... shape) {
    return (ULongArray) reshapeView(shape);
  }

  @Override
  public ULongArray slice(long from, long to) {
    return (ULongArray) sliceView(from, to);
  }

  @Override
  public ULongArray select(long index) {
    return (ULongArray) selectView(index);
  }

  @Override
  public ULongArray copy() {
    return new ULongArray(elementType, shape, copyOfData());
  }

  @Override
  ULongArray newView(long[] shape, ByteBuffer data) {
    return new ULongArray(elementType, shape, data);
  }

  @Override
  long elementKey(int flat) {
    long v = value(flat);
    return v;
  }

  @Override
  String formatElement(int flat) {
    long v = value(flat);
    return Long.toUnsignedString(v);
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
