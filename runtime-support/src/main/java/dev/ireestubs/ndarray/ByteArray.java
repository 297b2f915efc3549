package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An n-dimensional array of 8-bit integer elements, read and written as Java {@code byte} (two's
 * complement); element type {@code i8} (HAL {@code INT_8}, {@code 0x10000008}) or {@code si8} (HAL
 * {@code SINT_8}, {@code 0x11000008}).
 *
 * <p>See {@link NdArray} for memory, views and equality.
 *
 * <h2>Signedness</h2>
 *
 * <p>Factories make signless {@code i8} arrays, because that is the type IREE's compiler gives
 * {@code i8} tensors (HAL {@code 0x10000008}). Some senders label the same bytes as signed {@code
 * si8} (HAL {@code 0x11000008}): IREE's Python runtime does so for numpy integer arrays. {@link
 * #fromBufferView} accepts both and keeps the label; {@link #asSigned()} and {@link #asSignless()}
 * relabel without copying. The values are the same either way.
 */
public final class ByteArray extends NdArray {

  ByteArray(ElementType elementType, long[] shape, ByteBuffer data) {
    super(elementType, shape, data);
  }

  /**
   * A new signless {@code i8} array holding a copy of {@code data} in row-major order, of shape
   * {@code shape}; with no shape given, a rank-1 array of {@code data.length} elements.
   *
   * @throws IllegalArgumentException when the shape does not hold exactly {@code data.length}
   *     elements, or a dimension is negative
   */
  public static ByteArray of(byte[] data, long... shape) {
    Objects.requireNonNull(data, "data");
    long[] dims = Storage.shapeFor("ByteArray.of", data.length, shape);
    ByteArray array = allocate(dims, "ByteArray.of");
    array.copyIn(data, 0);
    return array;
  }

  /**
   * A new signless {@code i8} array of rank 2 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ByteArray of(byte[][] data) {
    return ofNested(data, 2);
  }

  /**
   * A new signless {@code i8} array of rank 3 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ByteArray of(byte[][][] data) {
    return ofNested(data, 3);
  }

  /**
   * A new signless {@code i8} array of rank 4 holding a copy of the rectangular array {@code data}.
   *
   * @throws IllegalArgumentException when {@code data} is ragged, naming the first row whose length
   *     differs
   * @throws NullPointerException when a row is null, naming it
   */
  public static ByteArray of(byte[][][][] data) {
    return ofNested(data, 4);
  }

  private static ByteArray ofNested(Object data, int depth) {
    long[] dims = Nested.shapeOf(data, depth, "ByteArray.of");
    ByteArray array = allocate(dims, "ByteArray.of");
    Nested.forEachRow(data, depth, array::copyIn);
    return array;
  }

  /**
   * A new signless {@code i8} array of {@code shape} with every element zero.
   *
   * @throws IllegalArgumentException when a dimension is negative or the array would exceed {@link
   *     Integer#MAX_VALUE} bytes
   */
  public static ByteArray zeros(long... shape) {
    long[] dims = Storage.checkDims(shape, "ByteArray.zeros");
    return allocate(dims, "ByteArray.zeros");
  }

  /** A new signless {@code i8} rank-0 array (shape {@code []}) holding {@code value}. */
  public static ByteArray scalar(byte value) {
    ByteArray array = allocate(new long[0], "ByteArray.scalar");
    array.putRaw(0, value);
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
  public static ByteArray wrap(ByteBuffer buffer, long... shape) {
    ByteBuffer bytes = Storage.wrap(buffer, ElementType.I8, shape, "ByteArray.wrap");
    long[] dims = Storage.wrapShape(bytes.remaining(), ElementType.I8, shape, "ByteArray.wrap");
    return new ByteArray(ElementType.I8, dims, bytes);
  }

  /**
   * An array over the memory of {@code view}, which must hold {@code i8} or {@code si8} elements (or
   * {@code i1}, whose bytes it reads as 0 and 1, typed {@code si8});
   * nothing is copied when its data is direct (heap data is copied into direct memory). The element
   * type (signless or signed) is kept.
   *
   * @throws IllegalArgumentException when the view holds another element type, naming it and the
   *     array class that holds it
   */
  public static ByteArray fromBufferView(BufferView view) {
    ElementType type =
        Storage.requireElementType(view, "ByteArray", ElementType.SI8);
    return new ByteArray(type, view.shape(), Storage.bytesOf(view));
  }

  private static ByteArray allocate(long[] dims, String where) {
    return new ByteArray(ElementType.I8, dims, Storage.allocate(ElementType.I8, dims, where));
  }

  /**
   * The element at {@code index} (one index per axis; none for a scalar).
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   */
  public byte get(long... index) {
    return value(offsetOf(index));
  }

  /**
   * Sets the element at {@code index} (one index per axis; none for a scalar) to {@code value}.
   *
   * @throws IllegalArgumentException when the number of indices is not the rank
   * @throws IndexOutOfBoundsException naming the axis whose index is out of bounds
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void set(byte value, long... index) {
    int i = offsetOf(index);
    putRaw(i, value);
  }

  /**
   * The element at row-major position {@code flatIndex}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  public byte getFlat(long flatIndex) {
    return value(checkFlat(flatIndex));
  }

  /**
   * Sets the element at row-major position {@code flatIndex} to {@code value}. The value comes
   * first, as in {@link #set}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void setFlat(byte value, long flatIndex) {
    int i = checkFlat(flatIndex);
    putRaw(i, value);
  }

  /**
   * Sets every element to {@code value}.
   *
   * @throws java.nio.ReadOnlyBufferException when the memory is read-only
   */
  public void fill(byte value) {
    if (size == 0) {
      return;
    }
    byte raw = value;
    for (int i = 0; i < size; i++) {
      putRaw(i, raw);
    }
  }

  /** A copy of every element in row-major order. */
  public byte[] toArray() {
    byte[] out = new byte[size];
    copyOut(out, 0);
    return out;
  }

  /**
   * A copy of this rank-2 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 2, naming the shape
   */
  public byte[][] toArray2D() {
    requireRank(2, "ByteArray.toArray2D");
    byte[][] out = (byte[][]) Nested.newArray(byte.class, shape, "ByteArray.toArray2D");
    Nested.forEachRow(out, 2, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-3 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 3, naming the shape
   */
  public byte[][][] toArray3D() {
    requireRank(3, "ByteArray.toArray3D");
    byte[][][] out = (byte[][][]) Nested.newArray(byte.class, shape, "ByteArray.toArray3D");
    Nested.forEachRow(out, 3, this::copyOut);
    return out;
  }

  /**
   * A copy of this rank-4 array as a rectangular Java array.
   *
   * @throws IllegalStateException when the rank is not 4, naming the shape
   */
  public byte[][][][] toArray4D() {
    requireRank(4, "ByteArray.toArray4D");
    byte[][][][] out = (byte[][][][]) Nested.newArray(byte.class, shape, "ByteArray.toArray4D");
    Nested.forEachRow(out, 4, this::copyOut);
    return out;
  }

  /** True when the element type is the signed {@code si8}, false for the signless {@code i8}. */
  public boolean isSigned() {
    return elementType.kind() == ElementType.Kind.SIGNED_INTEGER;
  }

  /**
   * This array labelled signed {@code si8} (HAL {@code 0x11000008}): a view sharing the memory, or
   * this array when it is signed already. The values do not change.
   */
  public ByteArray asSigned() {
    return isSigned() ? this : new ByteArray(ElementType.SI8, shape, data);
  }

  /**
   * This array labelled signless {@code i8} (HAL {@code 0x10000008}): a view sharing the memory, or
   * this array when it is signless already. The values do not change.
   */
  public ByteArray asSignless() {
    return isSigned() ? new ByteArray(ElementType.I8, shape, data) : this;
  }

  @Override
  public ByteArray reshape(long... shape) {
    return (ByteArray) reshapeView(shape);
  }

  @Override
  public ByteArray slice(long from, long to) {
    return (ByteArray) sliceView(from, to);
  }

  @Override
  public ByteArray select(long index) {
    return (ByteArray) selectView(index);
  }

  @Override
  public ByteArray copy() {
    return new ByteArray(elementType, shape, copyOfData());
  }

  @Override
  ByteArray newView(long[] shape, ByteBuffer data) {
    return new ByteArray(elementType, shape, data);
  }

  @Override
  long elementKey(int flat) {
    byte v = value(flat);
    return v;
  }

  @Override
  String formatElement(int flat) {
    byte v = value(flat);
    return Byte.toString(v);
  }

  private byte raw(int i) {
    return data.get(i);
  }

  private void putRaw(int i, byte bits) {
    data.put(i, bits);
  }

  private byte value(int i) {
    return raw(i);
  }

  private void copyIn(Object row, int offset) {
    data.put(offset, (byte[]) row);
  }

  private void copyOut(Object row, int offset) {
    data.get(offset, (byte[]) row);
  }
}
