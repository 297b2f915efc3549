package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of {@code f16} (IEEE 754 binary16, "half") elements; HAL element type
 * {@code FLOAT_16} ({@code 0x21000010}).
 *
 * <p>Elements read as {@code float} (exactly: every half is a float) and are written from {@code
 * float} rounding to nearest, ties to even, as {@link Float16} describes. The raw 16-bit patterns
 * are available as {@code short} through the {@code Bits} methods, for data that is already half
 * precision.
 *
 * <p>See {@link NdArray} for memory, views and equality.
 */
public final class HalfArray extends NdArray {

  HalfArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new array holding a copy of {@code data} in row-major order, of shape {@code shape}; with no
   * shape given, a rank-1 array of {@code data.length} elements. Values are rounded to the nearest
   * {@code f16} (ties to even; see {@link Float16#fromFloat}).
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static HalfArray of(float[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("HalfArray.of", data.length, shape);
    HalfArray array = allocate(dims, "HalfArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new array of rank 2 holding a copy of the rectangular array {@code data}. Values are rounded
   * to the nearest {@code f16} (ties to even; see {@link Float16#fromFloat}).
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static HalfArray of(float[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new array of rank 3 holding a copy of the rectangular array {@code data}. Values are rounded
   * to the nearest {@code f16} (ties to even; see {@link Float16#fromFloat}).
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static HalfArray of(float[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new array of rank 4 holding a copy of the rectangular array {@code data}. Values are rounded
   * to the nearest {@code f16} (ties to even; see {@link Float16#fromFloat}).
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static HalfArray of(float[][][][] data) {
    return ofNested(data, 4);
  }

  private static HalfArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "HalfArray.of");
    HalfArray array = allocate(dims, "HalfArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static HalfArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "HalfArray.zeros");
    return allocate(dims, "HalfArray.zeros");
  }

  /**
   * A new rank-0 array (shape {@code []}) holding {@code value}, rounded to the nearest {@code f16}
   * (ties to even; see {@link Float16#fromFloat}).
   */
  public static HalfArray scalar(float value) {
    HalfArray array = allocate(new long[0], "HalfArray.scalar");
    array.putRaw(0, Float16.fromFloat(value));
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
  public static HalfArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.F16, shape, "HalfArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.F16, shape, "HalfArray.wrap");
    return new HalfArray(ElementType.F16, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code f16} elements; nothing is
   * copied when its data is direct (heap data is copied into direct memory).
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static HalfArray fromBufferView(BufferView view) {
    ElementType type = Storage.requireElementType(view, "HalfArray", ElementType.F16);
    return new HalfArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static HalfArray allocate(long[] dims, String where) {
    return new HalfArray(ElementType.F16, dims, Storage.allocate(ElementType.F16, dims, where));
  }

  /**
   * A new array holding a copy of the raw bit pattern {@code bits} in row-major order, of shape
   * {@code shape}; with no shape given, a rank-1 array of {@code bits.length} elements. Nothing is
   * converted or checked: each {@code short} is stored as it is.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code bits.length}
   *     elements, or a dimension is negative
   */
  public static HalfArray ofBits(short[] bits, long... shape) {
    Objects.requireNonNull(bits, "bits");
    long[] dims = Storage.shapeFor("HalfArray.ofBits", bits.length, shape);
    HalfArray array = allocate(dims, "HalfArray.ofBits");
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
   * rounded to the nearest {@code f16} (ties to even; see {@link Float16#fromFloat}).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(float value, long... index) {
    int i = offsetOf(index);
    putRaw(i, Float16.fromFloat(value));
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
   * nearest {@code f16} (ties to even; see {@link Float16#fromFloat}). The value comes first, as in
   * {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(float value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, Float16.fromFloat(value));
  }

  /**
   * Sets every element to {@code value}, rounded to the nearest {@code f16} (ties to even; see
   * {@link Float16#fromFloat}).
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(float value) {
    if (size == 0) {
      return;
    }
    short raw = Float16.fromFloat(value);
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
    requireRank(2, "HalfArray.toArray2D");
    float[][] out = (float[][]) Nested.newArray(float.class, shape, "HalfArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array, converted exactly to {@code float}.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public float[][][] toArray3D() {
    requireRank(3, "HalfArray.toArray3D");
    float[][][] out = (float[][][]) Nested.newArray(float.class, shape, "HalfArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array, converted exactly to {@code float}.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public float[][][][] toArray4D() {
    requireRank(4, "HalfArray.toArray4D");
    float[][][][] out = (float[][][][]) Nested.newArray(float.class, shape, "HalfArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  @Override
  public HalfArray reshape(long... shape) {
    return (HalfArray) reshapeView(shape);
  }

  @Override
  public HalfArray slice(long from, long to) {
    return (HalfArray) sliceView(from, to);
  }

  @Override
  public HalfArray select(long index) {
    return (HalfArray) selectView(index);
  }

  @Override
  public HalfArray copy() {
    return new HalfArray(elementType, shape, copyOfData());
  }

  @Override
  HalfArray newView(long[] shape, ByteBuffer data) {
    return new HalfArray(elementType, shape, data);
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
    return Float16.toFloat(raw(i));
  }

  private void copyIn(Object row, int offset) {
    float[] values = (float[]) row;
    for (int j = 0; j < values.length; j++) {
      putRaw(offset + j, Float16.fromFloat(values[j]));
    }
  }

  private void copyOut(Object row, int offset) {
    float[] values = (float[]) row;
    for (int j = 0; j < values.length; j++) {
      values[j] = value(offset + j);
    }
  }
}
