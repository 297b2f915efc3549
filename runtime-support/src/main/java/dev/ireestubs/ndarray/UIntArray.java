package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of {@code ui32} (unsigned 32-bit integer) elements; HAL element type
 * {@code UINT_32} ({@code 0x12000020}).
 *
 * <p>Elements read and write as {@code long} values in 0..4294967295. The {@code Bits} methods read
 * and write the raw 32 bits as Java {@code int}s (so 4294967295 is {@code -1}), as {@link
 * Integer#toUnsignedLong} and friends use them.
 *
 * <p>See {@link NdArray} for memory, views and equality.
 */
public final class UIntArray extends NdArray {

  UIntArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new array holding a copy of {@code data} in row-major order, of shape {@code shape}; with no
   * shape given, a rank-1 array of {@code data.length} elements. Every value must be in
   * 0..4294967295; use {@link #ofBits} for raw {@code int}s.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   * @throws IllegalArgumentException when a value is out of range, naming its index
   */
  public static UIntArray of(long[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("UIntArray.of", data.length, shape);
    UIntArray array = allocate(dims, "UIntArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new array of rank 2 holding a copy of the rectangular array {@code data}. Every value must be
   * in 0..4294967295; use {@link #ofBits} for raw {@code int}s.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws IllegalArgumentException when a value is out of range, naming its index
   * @throws NullPointerException when a row is null, naming it
   */
  public static UIntArray of(long[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new array of rank 3 holding a copy of the rectangular array {@code data}. Every value must be
   * in 0..4294967295; use {@link #ofBits} for raw {@code int}s.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws IllegalArgumentException when a value is out of range, naming its index
   * @throws NullPointerException when a row is null, naming it
   */
  public static UIntArray of(long[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new array of rank 4 holding a copy of the rectangular array {@code data}. Every value must be
   * in 0..4294967295; use {@link #ofBits} for raw {@code int}s.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws IllegalArgumentException when a value is out of range, naming its index
   * @throws NullPointerException when a row is null, naming it
   */
  public static UIntArray of(long[][][][] data) {
    return ofNested(data, 4);
  }

  private static UIntArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "UIntArray.of");
    UIntArray array = allocate(dims, "UIntArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static UIntArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "UIntArray.zeros");
    return allocate(dims, "UIntArray.zeros");
  }

  /**
   * A new rank-0 array (shape {@code []}) holding {@code value}, which must be in 0..4294967295.
   *
   * @throws IllegalArgumentException when the value is out of range
   */
  public static UIntArray scalar(long value) {
    UIntArray array = allocate(new long[0], "UIntArray.scalar");
    array.putRaw(0, array.encode(value, -1, "UIntArray.scalar"));
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
  public static UIntArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.UI32, shape, "UIntArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.UI32, shape, "UIntArray.wrap");
    return new UIntArray(ElementType.UI32, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code ui32} elements, or signless
   * {@code i32} ones (as IREE's runtime returns integers whatever their signedness; the JSON
   * reflection drops it too), read as unsigned; nothing is
   * copied when its data is direct (heap data is copied into direct memory).
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static UIntArray fromBufferView(BufferView view) {
    ElementType type = Storage.requireElementType(view, "UIntArray", ElementType.UI32);
    return new UIntArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static UIntArray allocate(long[] dims, String where) {
    return new UIntArray(ElementType.UI32, dims, Storage.allocate(ElementType.UI32, dims, where));
  }

  /**
   * A new array holding a copy of the raw bits {@code bits} in row-major order, of shape {@code
   * shape}; with no shape given, a rank-1 array of {@code bits.length} elements. Nothing is
   * converted or checked: each {@code int} is stored as it is.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code bits.length}
   *     elements, or a dimension is negative
   */
  public static UIntArray ofBits(int[] bits, long... shape) {
    Objects.requireNonNull(bits, "bits");
    long[] dims = Storage.shapeFor("UIntArray.ofBits", bits.length, shape);
    UIntArray array = allocate(dims, "UIntArray.ofBits");
    for (int i = 0; i < bits.length; i++) {
      array.putRaw(i, bits[i]);
    }
    return array;
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar), as a {@code long} in
   * 0..4294967295.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public long get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value},
   * which must be in 0..4294967295.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank, or the value is
   *     out of range
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(long value, long... index) {
    int i = offsetOf(index);
    putRaw(i, encode(value, i, "UIntArray.set"));
  }

  /**
   * The element at row-major position {@code flatIndex}, as a {@code long} in 0..4294967295.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public long getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}, which must be in
   * 0..4294967295. The value comes first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws IllegalArgumentException when the value is out of range
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(long value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, encode(value, i, "UIntArray.setFlat"));
  }

  /**
   * Sets every element to {@code value}, which must be in 0..4294967295.
   *
   * @throws IllegalArgumentException when the value is out of range
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(long value) {
    if (size == 0) {
      return;
    }
    int raw = encode(value, -1, "UIntArray.fill");
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /**
   * The raw bits of the element at {@code index}, unconverted.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public int getBits(long... index) {
    return raw(offsetOf(index));
  }

  /**
   * Sets the raw bits of the element at {@code index}, unconverted and unchecked.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setBits(int bits, long... index) {
    putRaw(offsetOf(index), bits);
  }

  /** A copy of the raw bits of every element, in row-major order. */
  public int[] toBits() {
    int[] out = new int[size];
    for (int i = 0; i < size; i++) {
      out[i] = raw(i);
    }
    return out;
  }

  /** A copy of every element in row-major order, as a {@code long} in 0..4294967295. */
  public long[] toArray() {
    long[] out = new long[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array, as a {@code long} in 0..4294967295.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public long[][] toArray2D() {
    requireRank(2, "UIntArray.toArray2D");
    long[][] out = (long[][]) Nested.newArray(long.class, shape, "UIntArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array, as a {@code long} in 0..4294967295.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public long[][][] toArray3D() {
    requireRank(3, "UIntArray.toArray3D");
    long[][][] out = (long[][][]) Nested.newArray(long.class, shape, "UIntArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array, as a {@code long} in 0..4294967295.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public long[][][][] toArray4D() {
    requireRank(4, "UIntArray.toArray4D");
    long[][][][] out = (long[][][][]) Nested.newArray(long.class, shape, "UIntArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  @Override
  public UIntArray reshape(long... shape) {
    return (UIntArray) reshapeView(shape);
  }

  @Override
  public UIntArray slice(long from, long to) {
    return (UIntArray) sliceView(from, to);
  }

  @Override
  public UIntArray select(long index) {
    return (UIntArray) selectView(index);
  }

  @Override
  public UIntArray copy() {
    return new UIntArray(elementType, shape, copyOfData());
  }

  @Override
  UIntArray newView(long[] shape, ByteBuffer data) {
    return new UIntArray(elementType, shape, data);
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

  private int raw(int i) {
    return data.getInt(i << 2);
  }

  private void putRaw(int i, int bits) {
    data.putInt(i << 2, bits);
  }

  private long value(int i) {
    return (raw(i) & 0xffffffffL);
  }

  /**
   * The stored form of {@code value}, checked to be in range; {@code flat} (or -1 for none) and
   * {@code where} are for the message.
   */
  private int encode(long value, int flat, String where) {
    if ((value & ~0xffffffffL) != 0) {
      throw new IllegalArgumentException(
          where
              + ": value "
              + value
              + (flat < 0 ? "" : " at index " + indexOf(flat))
              + " is out of range for "
              + elementType
              + " (0..4294967295)");
    }
    return (int) value;
  }

  private void copyIn(Object row, int offset) {
    long[] values = (long[]) row;
    for (int j = 0; j < values.length; j++) {
      putRaw(offset + j, encode(values[j], offset + j, "UIntArray.of"));
    }
  }

  private void copyOut(Object row, int offset) {
    long[] values = (long[]) row;
    for (int j = 0; j < values.length; j++) {
      values[j] = value(offset + j);
    }
  }
}
