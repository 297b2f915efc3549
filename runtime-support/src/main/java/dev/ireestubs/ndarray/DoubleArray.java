package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of {@code f64} (IEEE 754 binary64) elements, read and written as Java
 * {@code double}; HAL element type {@code FLOAT_64} ({@code 0x21000040}).
 *
 * <p>See {@link NdArray} for memory, views and equality.
 */
public final class DoubleArray extends NdArray {

  DoubleArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new array holding a copy of {@code data} in row-major order, of shape {@code shape}; with no
   * shape given, a rank-1 array of {@code data.length} elements.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static DoubleArray of(double[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("DoubleArray.of", data.length, shape);
    DoubleArray array = allocate(dims, "DoubleArray.of");
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
  public static DoubleArray of(double[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new array of rank 3 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static DoubleArray of(double[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new array of rank 4 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static DoubleArray of(double[][][][] data) {
    return ofNested(data, 4);
  }

  private static DoubleArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "DoubleArray.of");
    DoubleArray array = allocate(dims, "DoubleArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static DoubleArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "DoubleArray.zeros");
    return allocate(dims, "DoubleArray.zeros");
  }

  /** A new rank-0 array (shape {@code []}) holding {@code value}. */
  public static DoubleArray scalar(double value) {
    DoubleArray array = allocate(new long[0], "DoubleArray.scalar");
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
  public static DoubleArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.F64, shape, "DoubleArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.F64, shape, "DoubleArray.wrap");
    return new DoubleArray(ElementType.F64, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code f64} elements; nothing is
   * copied when its data is direct (heap data is copied into direct memory).
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static DoubleArray fromBufferView(BufferView view) {
    ElementType type = Storage.requireElementType(view, "DoubleArray", ElementType.F64);
    return new DoubleArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static DoubleArray allocate(long[] dims, String where) {
    return new DoubleArray(ElementType.F64, dims, Storage.allocate(ElementType.F64, dims, where));
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public double get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(double value, long... index) {
    int i = offsetOf(index);
    putRaw(i, value);
  }

  /**
   * The element at row-major position {@code flatIndex}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public double getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}. The value comes
   * first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(double value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, value);
  }

  /**
   * Sets every element to {@code value}.
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(double value) {
    if (size == 0) {
      return;
    }
    double raw = value;
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /** A copy of every element in row-major order. */
  public double[] toArray() {
    double[] out = new double[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public double[][] toArray2D() {
    requireRank(2, "DoubleArray.toArray2D");
    double[][] out = (double[][]) Nested.newArray(double.class, shape, "DoubleArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public double[][][] toArray3D() {
    requireRank(3, "DoubleArray.toArray3D");
    double[][][] out = (double[][][]) Nested.newArray(double.class, shape, "DoubleArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public double[][][][] toArray4D() {
    requireRank(4, "DoubleArray.toArray4D");
    double[][][][] out =
        (double[][][][]) Nested.newArray(double.class, shape, "DoubleArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  /**
   * A {@link DoubleBuffer} over this array's memory (shared, not copied), positioned at 0 with the
   * elements in row-major order: for bulk reads and writes.
   */
  public DoubleBuffer asDoubleBuffer() {
    return data().asDoubleBuffer();
  }

  @Override
  public DoubleArray reshape(long... shape) {
    return (DoubleArray) reshapeView(shape);
  }

  @Override
  public DoubleArray slice(long from, long to) {
    return (DoubleArray) sliceView(from, to);
  }

  @Override
  public DoubleArray select(long index) {
    return (DoubleArray) selectView(index);
  }

  @Override
  public DoubleArray copy() {
    return new DoubleArray(elementType, shape, copyOfData());
  }

  @Override
  DoubleArray newView(long[] shape, ByteBuffer data) {
    return new DoubleArray(elementType, shape, data);
  }

  @Override
  long elementKey(int flat) {
    double v = value(flat);
    return Double.doubleToLongBits(v);
  }

  @Override
  String formatElement(int flat) {
    double v = value(flat);
    return Double.toString(v);
  }

  private double raw(int i) {
    return data.getDouble(i << 3);
  }

  private void putRaw(int i, double bits) {
    data.putDouble(i << 3, bits);
  }

  private double value(int i) {
    return raw(i);
  }

  /**
   * A DoubleBuffer view of the data, made once and shared: nested Java arrays are copied row by row
   * through it with absolute bulk operations, which never move its position.
   */
  private DoubleBuffer rows;

  private DoubleBuffer rows() {
    DoubleBuffer view = rows;
    if (view == null) {
      view = data.asDoubleBuffer();
      rows = view;
    }
    return view;
  }

  private void copyIn(Object row, int offset) {
    rows().put(offset, (double[]) row);
  }

  private void copyOut(Object row, int offset) {
    rows().get(offset, (double[]) row);
  }
}
