package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of {@code ui16} (unsigned 16-bit integer) elements; HAL element type
 * {@code UINT_16} ({@code 0x12000010}).
 *
 * <p>Elements read and write as {@code int} values in 0..65535. The {@code Bits} methods read and
 * write the raw 16 bits as Java {@code short}s (so 65535 is {@code (short) -1}).
 *
 * <p>See {@link NdArray} for memory, views and equality.
 */
public final class UShortArray extends NdArray {

  UShortArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new array holding a copy of {@code data} in row-major order, of shape {@code shape}; with no
   * shape given, a rank-1 array of {@code data.length} elements. Every value must be in 0..65535;
   * use {@link #ofBits} for raw {@code short}s.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   * @throws IllegalArgumentException when a value is out of range, naming its index
   */
  public static UShortArray of(int[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("UShortArray.of", data.length, shape);
    UShortArray array = allocate(dims, "UShortArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new array of rank 2 holding a copy of the rectangular array {@code data}. Every value must be
   * in 0..65535; use {@link #ofBits} for raw {@code short}s.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws IllegalArgumentException when a value is out of range, naming its index
   * @throws NullPointerException when a row is null, naming it
   */
  public static UShortArray of(int[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new array of rank 3 holding a copy of the rectangular array {@code data}. Every value must be
   * in 0..65535; use {@link #ofBits} for raw {@code short}s.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws IllegalArgumentException when a value is out of range, naming its index
   * @throws NullPointerException when a row is null, naming it
   */
  public static UShortArray of(int[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new array of rank 4 holding a copy of the rectangular array {@code data}. Every value must be
   * in 0..65535; use {@link #ofBits} for raw {@code short}s.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws IllegalArgumentException when a value is out of range, naming its index
   * @throws NullPointerException when a row is null, naming it
   */
  public static UShortArray of(int[][][][] data) {
    return ofNested(data, 4);
  }

  private static UShortArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "UShortArray.of");
    UShortArray array = allocate(dims, "UShortArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static UShortArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "UShortArray.zeros");
    return allocate(dims, "UShortArray.zeros");
  }

  /**
   * A new rank-0 array (shape {@code []}) holding {@code value}, which must be in 0..65535.
   *
   * @throws IllegalArgumentException when the value is out of range
   */
  public static UShortArray scalar(int value) {
    UShortArray array = allocate(new long[0], "UShortArray.scalar");
    array.putRaw(0, array.encode(value, -1, "UShortArray.scalar"));
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
  public static UShortArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.UI16, shape, "UShortArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.UI16, shape, "UShortArray.wrap");
    return new UShortArray(ElementType.UI16, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code ui16} elements, or signless
   * {@code i16} ones (as IREE's runtime returns integers whatever their signedness; the JSON
   * reflection drops it too), read as unsigned; nothing is
   * copied when its data is direct (heap data is copied into direct memory).
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static UShortArray fromBufferView(BufferView view) {
    ElementType type = Storage.requireElementType(view, "UShortArray", ElementType.UI16);
    return new UShortArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static UShortArray allocate(long[] dims, String where) {
    return new UShortArray(ElementType.UI16, dims, Storage.allocate(ElementType.UI16, dims, where));
  }

  /**
   * A new array holding a copy of the raw bits {@code bits} in row-major order, of shape {@code
   * shape}; with no shape given, a rank-1 array of {@code bits.length} elements. Nothing is
   * converted or checked: each {@code short} is stored as it is.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code bits.length}
   *     elements, or a dimension is negative
   */
  public static UShortArray ofBits(short[] bits, long... shape) {
    Objects.requireNonNull(bits, "bits");
    long[] dims = Storage.shapeFor("UShortArray.ofBits", bits.length, shape);
    UShortArray array = allocate(dims, "UShortArray.ofBits");
    for (int i = 0; i < bits.length; i++) {
      array.putRaw(i, bits[i]);
    }
    return array;
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar), as an {@code int} in
   * 0..65535.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public int get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value},
   * which must be in 0..65535.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank, or the value is
   *     out of range
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(int value, long... index) {
    int i = offsetOf(index);
    putRaw(i, encode(value, i, "UShortArray.set"));
  }

  /**
   * The element at row-major position {@code flatIndex}, as an {@code int} in 0..65535.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public int getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}, which must be in
   * 0..65535. The value comes first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws IllegalArgumentException when the value is out of range
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(int value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, encode(value, i, "UShortArray.setFlat"));
  }

  /**
   * Sets every element to {@code value}, which must be in 0..65535.
   *
   * @throws IllegalArgumentException when the value is out of range
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(int value) {
    if (size == 0) {
      return;
    }
    short raw = encode(value, -1, "UShortArray.fill");
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
  public short getBits(long... index) {
    return raw(offsetOf(index));
  }

  /**
   * Sets the raw bits of the element at {@code index}, unconverted and unchecked.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setBits(short bits, long... index) {
    putRaw(offsetOf(index), bits);
  }

  /** A copy of the raw bits of every element, in row-major order. */
  public short[] toBits() {
    short[] out = new short[size];
    for (int i = 0; i < size; i++) {
      out[i] = raw(i);
    }
    return out;
  }

  /** A copy of every element in row-major order, as an {@code int} in 0..65535. */
  public int[] toArray() {
    int[] out = new int[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array, as an {@code int} in 0..65535.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public int[][] toArray2D() {
    requireRank(2, "UShortArray.toArray2D");
    int[][] out = (int[][]) Nested.newArray(int.class, shape, "UShortArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array, as an {@code int} in 0..65535.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public int[][][] toArray3D() {
    requireRank(3, "UShortArray.toArray3D");
    int[][][] out = (int[][][]) Nested.newArray(int.class, shape, "UShortArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array, as an {@code int} in 0..65535.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public int[][][][] toArray4D() {
    requireRank(4, "UShortArray.toArray4D");
    int[][][][] out = (int[][][][]) Nested.newArray(int.class, shape, "UShortArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  @Override
  public UShortArray reshape(long... shape) {
    return (UShortArray) reshapeView(shape);
  }

  @Override
  public UShortArray slice(long from, long to) {
    return (UShortArray) sliceView(from, to);
  }

  @Override
  public UShortArray select(long index) {
    return (UShortArray) selectView(index);
  }

  @Override
  public UShortArray copy() {
    return new UShortArray(elementType, shape, copyOfData());
  }

  @Override
  UShortArray newView(long[] shape, ByteBuffer data) {
    return new UShortArray(elementType, shape, data);
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

  private short raw(int i) {
    return data.getShort(i << 1);
  }

  private void putRaw(int i, short bits) {
    data.putShort(i << 1, bits);
  }

  private int value(int i) {
    return (raw(i) & 0xffff);
  }

  /**
   * The stored form of {@code value}, checked to be in range; {@code flat} (or -1 for none) and
   * {@code where} are for the message.
   */
  private short encode(int value, int flat, String where) {
    if ((value & ~0xffff) != 0) {
      throw new IllegalArgumentException(
          where
              + ": value "
              + value
              + (flat < 0 ? "" : " at index " + indexOf(flat))
              + " is out of range for "
              + elementType
              + " (0..65535)");
    }
    return (short) value;
  }

  private void copyIn(Object row, int offset) {
    int[] values = (int[]) row;
    for (int j = 0; j < values.length; j++) {
      putRaw(offset + j, encode(values[j], offset + j, "UShortArray.of"));
    }
  }

  private void copyOut(Object row, int offset) {
    int[] values = (int[]) row;
    for (int j = 0; j < values.length; j++) {
      values[j] = value(offset + j);
    }
  }
}
