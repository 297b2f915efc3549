package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of {@code f32} (IEEE 754 binary32) elements, read and written as Java
 * {@code float}; HAL element type {@code FLOAT_32} ({@code 0x21000020}).
 *
 * <p>See {@link NdArray} for memory, views and equality.
 */
public final class FloatArray extends NdArray {

  FloatArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new array holding a copy of {@code data} in row-major order, of shape {@code shape}; with no
   * shape given, a rank-1 array of {@code data.length} elements.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static FloatArray of(float[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("FloatArray.of", data.length, shape);
    FloatArray array = allocate(dims, "FloatArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new array of rank 2 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static FloatArray of(float[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new array of rank 3 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static FloatArray of(float[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new array of rank 4 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static FloatArray of(float[][][][] data) {
    return ofNested(data, 4);
  }

  private static FloatArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "FloatArray.of");
    FloatArray array = allocate(dims, "FloatArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static FloatArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "FloatArray.zeros");
    return allocate(dims, "FloatArray.zeros");
  }

  /** A new rank-0 array (shape {@code []}) holding {@code value}. */
  public static FloatArray scalar(float value) {
    FloatArray array = allocate(new long[0], "FloatArray.scalar");
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
  public static FloatArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.F32, shape, "FloatArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.F32, shape, "FloatArray.wrap");
    return new FloatArray(ElementType.F32, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code f32} elements; nothing is
   * copied when its data is direct (heap data is copied into direct memory).
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static FloatArray fromBufferView(BufferView view) {
    ElementType type = Storage.requireElementType(view, "FloatArray", ElementType.F32);
    return new FloatArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static FloatArray allocate(long[] dims, String where) {
    return new FloatArray(ElementType.F32, dims, Storage.allocate(ElementType.F32, dims, where));
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public float get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(float value, long... index) {
    int i = offsetOf(index);
    putRaw(i, value);
  }

  /**
   * The element at row-major position {@code flatIndex}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public float getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}. The value comes
   * first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(float value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, value);
  }

  /**
   * Sets every element to {@code value}.
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(float value) {
    if (size == 0) {
      return;
    }
    float raw = value;
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /** A copy of every element in row-major order. */
  public float[] toArray() {
    float[] out = new float[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public float[][] toArray2D() {
    requireRank(2, "FloatArray.toArray2D");
    float[][] out = (float[][]) Nested.newArray(float.class, shape, "FloatArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public float[][][] toArray3D() {
    requireRank(3, "FloatArray.toArray3D");
    float[][][] out = (float[][][]) Nested.newArray(float.class, shape, "FloatArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public float[][][][] toArray4D() {
    requireRank(4, "FloatArray.toArray4D");
    float[][][][] out = (float[][][][]) Nested.newArray(float.class, shape, "FloatArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  /**
   * A {@link FloatBuffer} over this array's memory (shared, not copied), positioned at 0 with the
   * elements in row-major order: for bulk reads and writes.
   */
  public FloatBuffer asFloatBuffer() {
    return data().asFloatBuffer();
  }

  @Override
  public FloatArray reshape(long... shape) {
    return (FloatArray) reshapeView(shape);
  }

  @Override
  public FloatArray slice(long from, long to) {
    return (FloatArray) sliceView(from, to);
  }

  @Override
  public FloatArray select(long index) {
    return (FloatArray) selectView(index);
  }

  @Override
  public FloatArray copy() {
    return new FloatArray(elementType, shape, copyOfData());
  }

  @Override
  FloatArray newView(long[] shape, ByteBuffer data) {
    return new FloatArray(elementType, shape, data);
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

  private float raw(int i) {
    return data.getFloat(i << 2);
  }

  private void putRaw(int i, float bits) {
    data.putFloat(i << 2, bits);
  }

  private float value(int i) {
    return raw(i);
  }

  /**
   * A FloatBuffer view of the data, made once and shared: nested Java arrays are copied row by row
   * through it with absolute bulk operations, which never move its position.
   */
  private FloatBuffer rows;

  private FloatBuffer rows() {
    FloatBuffer view = rows;
    if (view == null) {
      view = data.asFloatBuffer();
      rows = view;
    }
    return view;
  }

  private void copyIn(Object row, int offset) {
    rows().put(offset, (float[]) row);
  }

  private void copyOut(Object row, int offset) {
    rows().get(offset, (float[]) row);
  }
}
