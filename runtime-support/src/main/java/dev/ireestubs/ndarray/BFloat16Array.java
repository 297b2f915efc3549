package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of {@code bf16} ("brain float") elements; HAL element type {@code
 * BFLOAT_16} ({@code 0x22000010}).
 *
 * <p>Elements read as {@code float} (exactly: every bf16 is the top half of a float) and are
 * written from {@code float} rounding to nearest, ties to even, as {@link BFloat16} describes. The
 * raw 16-bit patterns are available as {@code short} through the {@code Bits} methods.
 *
 * <p>See {@link NdArray} for memory, views and equality.
 */
public final class BFloat16Array extends NdArray {

  BFloat16Array(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new array holding a copy of {@code data} in row-major order, of shape {@code shape}; with no
   * shape given, a rank-1 array of {@code data.length} elements. Values are rounded to the nearest
   * {@code bf16} (ties to even; see {@link BFloat16#fromFloat}).
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static BFloat16Array of(float[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("BFloat16Array.of", data.length, shape);
    BFloat16Array array = allocate(dims, "BFloat16Array.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new array of rank 2 holding a copy of the rectangular array {@code data}. Values are rounded
   * to the nearest {@code bf16} (ties to even; see {@link BFloat16#fromFloat}).
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static BFloat16Array of(float[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new array of rank 3 holding a copy of the rectangular array {@code data}. Values are rounded
   * to the nearest {@code bf16} (ties to even; see {@link BFloat16#fromFloat}).
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static BFloat16Array of(float[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new array of rank 4 holding a copy of the rectangular array {@code data}. Values are rounded
   * to the nearest {@code bf16} (ties to even; see {@link BFloat16#fromFloat}).
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static BFloat16Array of(float[][][][] data) {
    return ofNested(data, 4);
  }

  private static BFloat16Array ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "BFloat16Array.of");
    BFloat16Array array = allocate(dims, "BFloat16Array.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static BFloat16Array zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "BFloat16Array.zeros");
    return allocate(dims, "BFloat16Array.zeros");
  }

  /**
   * A new rank-0 array (shape {@code []}) holding {@code value}, rounded to the nearest {@code
   * bf16} (ties to even; see {@link BFloat16#fromFloat}).
   */
  public static BFloat16Array scalar(float value) {
    BFloat16Array array = allocate(new long[0], "BFloat16Array.scalar");
    array.putRaw(0, BFloat16.fromFloat(value));
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
  public static BFloat16Array wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.BF16, shape, "BFloat16Array.wrap");
    long[] dims =
        Storage.wrapShape(bytes.remaining(), ElementType.BF16, shape, "BFloat16Array.wrap");
    return new BFloat16Array(ElementType.BF16, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code bf16} elements; nothing is
   * copied when its data is direct (heap data is copied into direct memory).
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static BFloat16Array fromBufferView(BufferView view) {
    ElementType type = Storage.requireElementType(view, "BFloat16Array", ElementType.BF16);
    return new BFloat16Array(type, view.shape(), Storage.bytesOf(view));
  }

  private static BFloat16Array allocate(long[] dims, String where) {
    return new BFloat16Array(
        ElementType.BF16, dims, Storage.allocate(ElementType.BF16, dims, where));
  }

  /**
   * A new array holding a copy of the raw bit pattern {@code bits} in row-major order, of shape
   * {@code shape}; with no shape given, a rank-1 array of {@code bits.length} elements. Nothing is
   * converted or checked: each {@code short} is stored as it is.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code bits.length}
   *     elements, or a dimension is negative
   */
  public static BFloat16Array ofBits(short[] bits, long... shape) {
    Objects.requireNonNull(bits, "bits");
    long[] dims = Storage.shapeFor("BFloat16Array.ofBits", bits.length, shape);
    BFloat16Array array = allocate(dims, "BFloat16Array.ofBits");
    for (int i = 0; i < bits.length; i++) {
      array.putRaw(i, bits[i]);
    }
    return array;
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar), converted exactly to
   * {@code float}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public float get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value},
   * rounded to the nearest {@code bf16} (ties to even; see {@link BFloat16#fromFloat}).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(float value, long... index) {
    int i = offsetOf(index);
    putRaw(i, BFloat16.fromFloat(value));
  }

  /**
   * The element at row-major position {@code flatIndex}, converted exactly to {@code float}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public float getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}, rounded to the
   * nearest {@code bf16} (ties to even; see {@link BFloat16#fromFloat}). The value comes first, as
   * in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(float value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, BFloat16.fromFloat(value));
  }

  /**
   * Sets every element to {@code value}, rounded to the nearest {@code bf16} (ties to even; see
   * {@link BFloat16#fromFloat}).
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(float value) {
    if (size == 0) {
      return;
    }
    short raw = BFloat16.fromFloat(value);
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /**
   * The raw bit pattern of the element at {@code index}, unconverted.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public short getBits(long... index) {
    return raw(offsetOf(index));
  }

  /**
   * Sets the raw bit pattern of the element at {@code index}, unconverted and unchecked.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setBits(short bits, long... index) {
    putRaw(offsetOf(index), bits);
  }

  /** A copy of the raw bit pattern of every element, in row-major order. */
  public short[] toBits() {
    short[] out = new short[size];
    for (int i = 0; i < size; i++) {
      out[i] = raw(i);
    }
    return out;
  }

  /** A copy of every element in row-major order, converted exactly to {@code float}. */
  public float[] toArray() {
    float[] out = new float[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array, converted exactly to {@code float}.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public float[][] toArray2D() {
    requireRank(2, "BFloat16Array.toArray2D");
    float[][] out = (float[][]) Nested.newArray(float.class, shape, "BFloat16Array.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array, converted exactly to {@code float}.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public float[][][] toArray3D() {
    requireRank(3, "BFloat16Array.toArray3D");
    float[][][] out = (float[][][]) Nested.newArray(float.class, shape, "BFloat16Array.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array, converted exactly to {@code float}.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public float[][][][] toArray4D() {
    requireRank(4, "BFloat16Array.toArray4D");
    float[][][][] out =
        (float[][][][]) Nested.newArray(float.class, shape, "BFloat16Array.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  @Override
  public BFloat16Array reshape(long... shape) {
    return (BFloat16Array) reshapeView(shape);
  }

  @Override
  public BFloat16Array slice(long from, long to) {
    return (BFloat16Array) sliceView(from, to);
  }

  @Override
  public BFloat16Array select(long index) {
    return (BFloat16Array) selectView(index);
  }

  @Override
  public BFloat16Array copy() {
    return new BFloat16Array(elementType, shape, copyOfData());
  }

  @Override
  BFloat16Array newView(long[] shape, ByteBuffer data) {
    return new BFloat16Array(elementType, shape, data);
  }

  @Override
  long elementKey(int flat) {
    float v = value(flat);
    return Float.floatToIntBits(v);
  }

  @Override
  String formatElement(int flat) {
    float v = value(flat);
    return Float.toString(v);
  }

  private short raw(int i) {
    return data.getShort(i << 1);
  }

  private void putRaw(int i, short bits) {
    data.putShort(i << 1, bits);
  }

  private float value(int i) {
    return BFloat16.toFloat(raw(i));
  }

  private void copyIn(Object row, int offset) {
    float[] values = (float[]) row;
    for (int j = 0; j < values.length; j++) {
      putRaw(offset + j, BFloat16.fromFloat(values[j]));
    }
  }

  private void copyOut(Object row, int offset) {
    float[] values = (float[]) row;
    for (int j = 0; j < values.length; j++) {
      values[j] = value(offset + j);
    }
  }
}
