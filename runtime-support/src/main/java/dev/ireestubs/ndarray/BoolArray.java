package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of {@code i1} (boolean) elements, one byte each: 1 for {@code true} and 0
 * for {@code false}, as IREE stores them; HAL element type {@code BOOL_8} ({@code 0x13000008}). Any
 * non-zero byte (from memory written elsewhere) reads as {@code true}, and compares equal to 1.
 *
 * <p>See {@link NdArray} for memory, views and equality.
 */
public final class BoolArray extends NdArray {

  BoolArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new array holding a copy of {@code data} in row-major order, of shape {@code shape}; with no
   * shape given, a rank-1 array of {@code data.length} elements.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static BoolArray of(boolean[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("BoolArray.of", data.length, shape);
    BoolArray array = allocate(dims, "BoolArray.of");
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
  public static BoolArray of(boolean[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new array of rank 3 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static BoolArray of(boolean[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new array of rank 4 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static BoolArray of(boolean[][][][] data) {
    return ofNested(data, 4);
  }

  private static BoolArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "BoolArray.of");
    BoolArray array = allocate(dims, "BoolArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new array of {@code shape} with every element zero (false).
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static BoolArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "BoolArray.zeros");
    return allocate(dims, "BoolArray.zeros");
  }

  /** A new rank-0 array (shape {@code []}) holding {@code value}. */
  public static BoolArray scalar(boolean value) {
    BoolArray array = allocate(new long[0], "BoolArray.scalar");
    array.putRaw(0, (value ? (byte) 1 : (byte) 0));
    return array;
  }

  /**
   * An array over the bytes of {@code buffer} from its position to its limit, sharing them: nothing
   * is copied, and writes through either are visible in both. With no shape given, the array is
   * rank 1.
   *
   * @param buffer a direct buffer, holding exactly the array's bytes (1 per element); its position
   *     and limit are not changed
   * @throws IllegalArgumentException when the buffer is on the Java heap, or its size does not
   *     match the shape
   */
  public static BoolArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.I1, shape, "BoolArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.I1, shape, "BoolArray.wrap");
    return new BoolArray(ElementType.I1, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code i1} elements or 8-bit integers
   * ({@code i8}, {@code si8}, {@code ui8}: IREE stores {@code i1} tensors in bytes and may type an
   * {@code i1} result so), read as booleans (any non-zero byte is {@code true}); nothing is
   * copied when its data is direct (heap data is copied into direct memory).
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static BoolArray fromBufferView(BufferView view) {
    ElementType type = Storage.requireElementType(view, "BoolArray", ElementType.I1);
    return new BoolArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static BoolArray allocate(long[] dims, String where) {
    return new BoolArray(ElementType.I1, dims, Storage.allocate(ElementType.I1, dims, where));
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar); any non-zero byte reads
   * as {@code true}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public boolean get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(boolean value, long... index) {
    int i = offsetOf(index);
    putRaw(i, (value ? (byte) 1 : (byte) 0));
  }

  /**
   * The element at row-major position {@code flatIndex}; any non-zero byte reads as {@code true}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public boolean getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}. The value comes
   * first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(boolean value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, (value ? (byte) 1 : (byte) 0));
  }

  /**
   * Sets every element to {@code value}.
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(boolean value) {
    if (size == 0) {
      return;
    }
    byte raw = (value ? (byte) 1 : (byte) 0);
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /** A copy of every element in row-major order; any non-zero byte reads as {@code true}. */
  public boolean[] toArray() {
    boolean[] out = new boolean[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array; any non-zero byte reads as {@code
   * true}.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public boolean[][] toArray2D() {
    requireRank(2, "BoolArray.toArray2D");
    boolean[][] out = (boolean[][]) Nested.newArray(boolean.class, shape, "BoolArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array; any non-zero byte reads as {@code
   * true}.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public boolean[][][] toArray3D() {
    requireRank(3, "BoolArray.toArray3D");
    boolean[][][] out =
        (boolean[][][]) Nested.newArray(boolean.class, shape, "BoolArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array; any non-zero byte reads as {@code
   * true}.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public boolean[][][][] toArray4D() {
    requireRank(4, "BoolArray.toArray4D");
    boolean[][][][] out =
        (boolean[][][][]) Nested.newArray(boolean.class, shape, "BoolArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  @Override
  public BoolArray reshape(long... shape) {
    return (BoolArray) reshapeView(shape);
  }

  @Override
  public BoolArray slice(long from, long to) {
    return (BoolArray) sliceView(from, to);
  }

  @Override
  public BoolArray select(long index) {
    return (BoolArray) selectView(index);
  }

  @Override
  public BoolArray copy() {
    return new BoolArray(elementType, shape, copyOfData());
  }

  @Override
  BoolArray newView(long[] shape, ByteBuffer data) {
    return new BoolArray(elementType, shape, data);
  }

  @Override
  long elementKey(int flat) {
    boolean v = value(flat);
    return (v ? 1L : 0L);
  }

  @Override
  String formatElement(int flat) {
    boolean v = value(flat);
    return Boolean.toString(v);
  }

  private byte raw(int i) {
    return data.get(i);
  }

  private void putRaw(int i, byte bits) {
    data.put(i, bits);
  }

  private boolean value(int i) {
    return (raw(i) != 0);
  }

  private void copyIn(Object row, int offset) {
    boolean[] values = (boolean[]) row;
    for (int j = 0; j < values.length; j++) {
      putRaw(offset + j, (values[j] ? (byte) 1 : (byte) 0));
    }
  }

  private void copyOut(Object row, int offset) {
    boolean[] values = (boolean[]) row;
    for (int j = 0; j < values.length; j++) {
      values[j] = value(offset + j);
    }
  }
}
