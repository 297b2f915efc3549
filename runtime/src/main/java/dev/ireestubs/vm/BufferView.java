package dev.ireestubs.vm;

import dev.ireestubs.abi.ElementType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A HAL buffer view in host memory: an element type (its HAL code), a shape, and the dense
 * row-major bytes in native byte order, as IREE's {@code iree_hal_buffer_view_t} with encoding
 * {@code DENSE_ROW_MAJOR}.
 *
 * <p>The view does not copy: it keeps the buffer it is given ({@link #data()} returns a duplicate
 * positioned at 0, writable when the buffer is), so the bytes of a direct buffer are shared with
 * the caller. The shape and element type are immutable; the bytes are as mutable as the caller's
 * buffer.
 *
 * <h2>Lent memory</h2>
 *
 * <p>A view made by {@link #lend} (as every array's {@code asBufferView()} is, and every array
 * argument a stub passes) carries the {@link MemoryLease} of its memory: the memory is lent, and
 * its owner may free it once it is done (an array's {@code close()}, or the end of the call a stub
 * made a temporary copy for). Whoever reads such a view follows one rule:
 *
 * <ul>
 *   <li>Reading the bytes only while the owner still uses them (inside the call the view was passed
 *       to): {@link #pin()} and close the pin when done.
 *   <li>Keeping the bytes longer (importing them into a device, making an array over them): hold a
 *       {@link #pin()} for as long as they are read; the memory is freed only after the last pin is
 *       closed.
 *   <li>{@link #data()} hands out a raw buffer that may be read at any later time, so it marks the
 *       memory escaped: it is then never freed early, only by the garbage collector. Code that
 *       knows nothing of leases is therefore always safe, only slower.
 * </ul>
 *
 * <p>A view whose memory was already freed throws {@link IllegalStateException} from {@code pin()}
 * and {@code data()}. Views made by {@link #wrap} carry no lease: pins hold nothing and {@code
 * data()} marks nothing.
 *
 * <p>Limits: one view holds at most {@link Integer#MAX_VALUE} bytes (a {@link ByteBuffer}).
 */
public final class BufferView implements VmRef {

  /** The VM type name of buffer views. */
  public static final String REF_TYPE = "hal.buffer_view";

  private final int elementType;
  private final long[] shape;
  private final ByteBuffer data;

  /** The lease of lent memory, or null. */
  private final MemoryLease lease;

  /** True when {@link #endCall()} ends {@link #lease}: memory made for one call only. */
  private final boolean endsWithCall;

  private BufferView(
      int elementType, long[] shape, ByteBuffer data, MemoryLease lease, boolean endsWithCall) {
    this.elementType = elementType;
    this.shape = shape;
    this.data = data;
    this.lease = lease;
    this.endsWithCall = endsWithCall;
  }

  /**
   * Wraps {@code data} (not copied) as a view of {@code shape} with HAL element type {@code
   * elementType}.
   *
   * @param elementType the HAL element type code, e.g. {@code 0x21000020} for f32
   * @param shape the dims, each {@code >= 0}
   * @param data exactly {@code product(shape) * elementBytes} bytes from its position to its limit;
   *     native byte order is expected and set on the view's duplicate
   * @return a view over {@code data}, sharing it
   * @throws IllegalArgumentException when a dim is negative, the byte count does not match, or the
   *     element size is not a whole number of bytes
   */
  public static BufferView wrap(int elementType, long[] shape, ByteBuffer data) {
    return make(elementType, shape, data, null, false);
  }

  /**
   * A view over lent memory, as {@link #wrap} but carrying the memory's lease (see "Lent memory"):
   * readers pin it, and {@link #data()} marks it escaped.
   *
   * @param elementType the HAL element type code, e.g. {@code 0x21000020} for f32
   * @param shape the dims, each {@code >= 0}
   * @param data exactly {@code product(shape) * elementBytes} bytes from its position to its limit,
   *     in memory {@code lease} controls
   * @param lease the lease of the memory under {@code data}
   * @return a view over {@code data}, sharing it
   * @throws IllegalArgumentException as {@link #wrap} does
   */
  public static BufferView lend(int elementType, long[] shape, ByteBuffer data, MemoryLease lease) {
    return make(elementType, shape, data, Objects.requireNonNull(lease, "lease"), false);
  }

  /**
   * A view over memory made for one call only (a stub's copy of a Java array): as {@link #lend},
   * and {@link #endCall()} ends the lease when the call is over.
   *
   * @param elementType the HAL element type code, e.g. {@code 0x21000020} for f32
   * @param shape the dims, each {@code >= 0}
   * @param data exactly {@code product(shape) * elementBytes} bytes from its position to its limit,
   *     in memory {@code lease} controls
   * @param lease the lease of the memory under {@code data}, which the call now owns
   * @return a view over {@code data}, sharing it
   * @throws IllegalArgumentException as {@link #wrap} does
   */
  public static BufferView lendForCall(
      int elementType, long[] shape, ByteBuffer data, MemoryLease lease) {
    return make(elementType, shape, data, Objects.requireNonNull(lease, "lease"), true);
  }

  private static BufferView make(
      int elementType, long[] shape, ByteBuffer data, MemoryLease lease, boolean endsWithCall) {
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(data, "data");
    long[] dims = shape.clone();
    long count = elementCount(dims);
    int bits = elementType & 0xFF_FFFF;
    int elementBytes = elementBytes(elementType);
    if (bits % 8 != 0 && count > 1) {
      throw new IllegalArgumentException(
          "element type 0x"
              + Integer.toHexString(elementType)
              + " is "
              + bits
              + " bits wide; only whole-byte elements are supported");
    }
    long expected;
    try {
      expected = Math.multiplyExact(count, elementBytes);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("shape " + Arrays.toString(dims) + " is too large");
    }
    if (expected != data.remaining()) {
      throw new IllegalArgumentException(
          "a buffer view of shape "
              + Arrays.toString(dims)
              + " and "
              + elementBytes
              + "-byte elements needs "
              + expected
              + " bytes, got "
              + data.remaining());
    }
    // A buffer that spans its whole capacity is kept as it is (no new buffer object per view);
    // data() reads it through a duplicate cleared to that span, so later changes to the caller's
    // position or limit do not move the view's bytes.
    ByteBuffer view =
        data.position() == 0 && data.limit() == data.capacity()
            ? data
            : data.slice().order(ByteOrder.nativeOrder());
    return new BufferView(elementType, dims, view, lease, endsWithCall);
  }

  /**
   * Allocates a zeroed direct buffer for a view of {@code shape}.
   *
   * @param elementType the HAL element type code, e.g. {@code 0x21000020} for f32
   * @param shape the dims, each {@code >= 0}
   * @return a view of zeros that owns its new buffer
   */
  public static BufferView allocate(int elementType, long... shape) {
    long count = elementCount(shape);
    long bytes = count * elementBytes(elementType);
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "shape "
              + Arrays.toString(shape)
              + " needs "
              + bytes
              + " bytes; the limit is "
              + Integer.MAX_VALUE);
    }
    return wrap(
        elementType, shape, ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder()));
  }

  private static long elementCount(long[] dims) {
    long n = 1;
    for (long d : dims) {
      if (d < 0) {
        throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(dims));
      }
      try {
        n = Math.multiplyExact(n, d);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("shape " + Arrays.toString(dims) + " is too large");
      }
    }
    return n;
  }

  /**
   * Bytes per element of a HAL element type (bits rounded up to whole bytes).
   *
   * @param elementType the HAL element type code
   * @return the element size in bytes, at least 1
   */
  public static int elementBytes(int elementType) {
    int bits = elementType & 0xFF_FFFF;
    return (bits + 7) / 8;
  }

  /**
   * The HAL element type code.
   *
   * @return the code this view was made with, such as {@code 0x21000020} for f32
   */
  public int elementTypeCode() {
    return elementType;
  }

  /**
   * The element type the HAL code names, if it names a known one.
   *
   * @return the element type, or empty for a code iree-stubs does not map
   */
  public Optional<ElementType> elementType() {
    return ElementType.fromHalCode(elementType);
  }

  /**
   * The shape; a copy.
   *
   * @return a new array of the dims, outermost first
   */
  public long[] shape() {
    return shape.clone();
  }

  /**
   * The rank.
   *
   * @return the number of dims, 0 for a scalar
   */
  public int rank() {
    return shape.length;
  }

  /**
   * Dimension {@code axis}.
   *
   * @param axis the dim's index, from 0 to {@code rank() - 1}
   * @return the size of that dim
   */
  public long dim(int axis) {
    return shape[axis];
  }

  /**
   * The number of elements.
   *
   * @return the product of the dims, 1 for a scalar
   */
  public long elementCount() {
    return elementCount(shape);
  }

  /**
   * The size of the data in bytes.
   *
   * @return the element count times the element size
   */
  public int byteLength() {
    return data.capacity();
  }

  /**
   * The bytes, shared (not copied): a duplicate positioned at 0, in native order. Writes through it
   * are visible to every holder of the buffer.
   *
   * <p>For a view over lent memory this hands the bytes out with no end: the memory is marked
   * escaped and is then freed only by the garbage collector. A backend reading the bytes for a call
   * uses {@link #pin()} instead (see "Lent memory").
   *
   * @return a new buffer object over the same bytes
   * @throws IllegalStateException when the view's lent memory was already freed
   */
  public ByteBuffer data() {
    if (lease != null) {
      lease.escape();
    }
    return bytes();
  }

  private ByteBuffer bytes() {
    ByteBuffer bytes = data.duplicate();
    bytes.clear();
    return bytes.order(ByteOrder.nativeOrder());
  }

  /**
   * The bytes, held valid until the returned pin is closed: the way to read a view's memory without
   * making it escape (see "Lent memory"). Use try-with-resources for a read within a call; keep the
   * pin (and close it later, on any thread) to keep the memory longer. For a view over memory no
   * lease controls, the pin holds nothing and closing it does nothing.
   *
   * @return a new pin whose {@link MemoryLease.Pin#data() data()} is a buffer over the bytes,
   *     positioned at 0, in native order
   * @throws IllegalStateException when the view's lent memory was already freed
   */
  public MemoryLease.Pin pin() {
    return lease == null ? MemoryLease.Pin.unleased(bytes()) : lease.pin(bytes());
  }

  /**
   * Holds the view's memory as {@link #pin()} does, but without a pin object: for a holder that
   * keeps the bytes in an object of its own (an array made over the view) and records the lease
   * there to {@link MemoryLease#release() release} it exactly once when done. Reading a result into
   * an array thus costs no allocation beyond the holder's. When {@code holder} throws, the hold is
   * released before the exception propagates.
   *
   * @param holder takes the bytes (positioned at 0, limit at the end, in native order) and the
   *     lease now held, or null when the view is not lent (then nothing is held and nothing is to
   *     be released); for a lent view the bytes are the view's own buffer object, shared with every
   *     holder: read it with absolute gets and puts, and change its position, limit or byte order
   *     only on a {@link ByteBuffer#duplicate() duplicate}
   * @param <T> what the holder makes
   * @return what {@code holder} returned
   * @throws IllegalStateException when the view's lent memory was already freed
   */
  public <T> T hold(Holder<T> holder) {
    if (lease == null) {
      return holder.take(bytes(), null);
    }
    lease.acquire();
    try {
      // Lent memory comes from an owner that follows the rules (an array, a backend's result), and
      // its buffer spans the view from 0 (make): handed over as it is, with no new buffer object.
      return holder.take(data, lease);
    } catch (RuntimeException | Error e) {
      lease.release();
      throw e;
    }
  }

  /**
   * What {@link #hold} hands a view's bytes to.
   *
   * @param <T> what the holder makes of them
   */
  @FunctionalInterface
  public interface Holder<T> {
    /**
     * Takes held bytes.
     *
     * @param data the bytes, positioned at 0, in native order
     * @param lease the lease now held, to be released exactly once; null when none is held
     * @return what the holder made
     */
    T take(ByteBuffer data, MemoryLease lease);
  }

  /**
   * Ends the lease of memory made for one call ({@link #lendForCall}): called by the code that made
   * the call once it is over. The memory is freed now, or when the last pin is released; after that
   * {@link #pin()} and {@link #data()} throw. Does nothing for other views.
   */
  public void endCall() {
    if (endsWithCall) {
      lease.end();
    }
  }

  /**
   * True when the view carries a {@link MemoryLease} (its memory is lent: see "Lent memory").
   *
   * @return whether the view was made by {@link #lend} or {@link #lendForCall}
   */
  public boolean isLent() {
    return lease != null;
  }

  /**
   * True when the data lives in direct (native) memory.
   *
   * @return true for direct memory, false for a heap buffer
   */
  public boolean isDirect() {
    return data.isDirect();
  }

  @Override
  public String refTypeName() {
    return REF_TYPE;
  }

  /** E.g. {@code hal.buffer_view<2x3xf32>}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(REF_TYPE).append('<');
    for (long d : shape) {
      sb.append(d).append('x');
    }
    sb.append(
        elementType().map(ElementType::mlirName).orElse("0x" + Integer.toHexString(elementType)));
    return sb.append('>').toString();
  }
}
