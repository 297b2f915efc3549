package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.vm.BufferView;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/** Shape arithmetic, memory allocation and the checks shared by every array class. */
final class Storage {

  /**
   * Alignment of memory the arrays allocate, in bytes: IREE's heap buffers are 64-byte aligned
   * ({@code IREE_HAL_HEAP_BUFFER_ALIGNMENT}), so a backend can import ours without copying.
   */
  static final int ALIGNMENT = dev.ireestubs.vm.MemoryPool.ALIGNMENT;

  private Storage() {}

  /** A validated copy of {@code shape}: non-null, every dim {@code >= 0}. */
  static long[] checkDims(long[] shape, String where) {
    Objects.requireNonNull(shape, "shape");
    for (int axis = 0; axis < shape.length; axis++) {
      if (shape[axis] < 0) {
        throw new IllegalArgumentException(
            where
                + ": dimension "
                + axis
                + " of shape "
                + java.util.Arrays.toString(shape)
                + " is negative ("
                + shape[axis]
                + "); every dimension must be >= 0");
      }
    }
    return shape.clone();
  }

  /**
   * The element count of a valid shape, or {@code -1} when it overflows a {@code long}. A shape
   * with a zero dimension counts 0 whatever its other dimensions are (so {@code [2^62, 2^62, 0]}
   * holds 0 elements, not "too many").
   */
  static long count(long[] dims) {
    for (long d : dims) {
      if (d == 0) {
        return 0;
      }
    }
    long n = 1;
    for (long d : dims) {
      try {
        n = Math.multiplyExact(n, d);
      } catch (ArithmeticException e) {
        return -1;
      }
    }
    return n;
  }

  /**
   * The byte length of an array of {@code type} and {@code dims} (already validated).
   *
   * @throws IllegalArgumentException when it exceeds {@link Integer#MAX_VALUE}
   */
  static int byteLength(ElementType type, long[] dims, String where) {
    long n = count(dims);
    long bytes = n < 0 ? -1 : n * type.byteSize();
    if (n < 0 || bytes / type.byteSize() != n || bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          where
              + ": shape "
              + describe(dims)
              + " of "
              + type
              + " needs "
              + (n < 0
                  ? "more than 2^63 elements"
                  : n + " elements of " + type.byteSize() + " bytes")
              + "; an array holds at most "
              + Integer.MAX_VALUE
              + " bytes");
    }
    return (int) bytes;
  }

  /**
   * Zeroed direct memory of {@code bytes} bytes, native order, {@link #ALIGNMENT}-aligned, owned by
   * the caller: from {@link dev.ireestubs.vm.MemoryPool} (see {@link Memory}).
   */
  static Memory allocate(int bytes) {
    return Memory.allocate(bytes);
  }

  /** Zeroed memory for an array of {@code type} and {@code dims} (already validated). */
  static Memory allocate(ElementType type, long[] dims, String where) {
    return allocate(byteLength(type, dims, where));
  }

  /**
   * The shape for {@code length} elements given as Java data: {@code [length]} when {@code shape}
   * is empty, else {@code shape} after checking that it holds exactly {@code length} elements.
   */
  static long[] shapeFor(String where, int length, long[] shape) {
    Objects.requireNonNull(shape, "shape");
    if (shape.length == 0) {
      return new long[] {length};
    }
    long[] dims = checkDims(shape, where);
    long n = count(dims);
    if (n != length) {
      throw new IllegalArgumentException(
          where
              + ": shape "
              + describe(dims)
              + " holds "
              + (n < 0 ? "more than 2^63" : Long.toString(n))
              + " elements but the data has "
              + length);
    }
    return dims;
  }

  /**
   * Checks a caller's buffer for wrapping and returns a slice of it (same memory) in native order.
   * A missing shape means one dimension of as many elements as the buffer holds.
   */
  static ByteBuffer wrap(ByteBuffer buffer, ElementType type, long[] shape, String where) {
    Objects.requireNonNull(buffer, "buffer");
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException(
          where
              + ": the buffer is a heap buffer, but arrays live in direct memory that native code"
              + " can read without copying; allocate it with ByteBuffer.allocateDirect, or copy"
              + " the data with of(...)");
    }
    if (type.byteSize() > 1 && buffer.order() != ByteOrder.nativeOrder()) {
      throw new IllegalArgumentException(
          where
              + ": the buffer's byte order is "
              + buffer.order()
              + " but "
              + type
              + " elements are stored in native order ("
              + ByteOrder.nativeOrder()
              + "); if the bytes are already in native order, pass"
              + " buffer.order(ByteOrder.nativeOrder())");
    }
    return buffer.slice().order(ByteOrder.nativeOrder());
  }

  /** The shape a wrapped buffer of {@code bytes} bytes has: {@code shape}, or 1-d by default. */
  static long[] wrapShape(int bytes, ElementType type, long[] shape, String where) {
    Objects.requireNonNull(shape, "shape");
    int size = type.byteSize();
    if (shape.length == 0) {
      if (bytes % size != 0) {
        throw new IllegalArgumentException(
            where
                + ": the buffer has "
                + bytes
                + " bytes, not a whole number of "
                + size
                + "-byte "
                + type
                + " elements");
      }
      return new long[] {bytes / size};
    }
    long[] dims = checkDims(shape, where);
    long n = count(dims);
    long needed = n < 0 || n > Long.MAX_VALUE / size ? -1 : n * size;
    if (needed != bytes) {
      throw new IllegalArgumentException(
          where
              + ": shape "
              + describe(dims)
              + " of "
              + type
              + " needs "
              + (n < 0
                  ? "more than 2^63 elements"
                  : needed < 0
                      ? "more than 2^63 bytes (" + n + " x " + size + ")"
                      : needed + " bytes (" + n + " x " + size + ")")
              + " but the buffer has "
              + bytes
              + " bytes remaining");
    }
    return dims;
  }

  /**
   * The bytes of a buffer view as array storage: the view's own memory when it is direct (no copy),
   * otherwise a copy into new direct memory. Lent memory is pinned until the array is closed (so it
   * stays valid however long the array is used), rather than marked escaped.
   */
  static Memory bytesOf(BufferView view) {
    if (view.isLent()) {
      return Memory.borrowed(view); // lent memory is always direct
    }
    ByteBuffer bytes = view.data(); // already this caller's own buffer, at 0, in native order
    if (bytes.isDirect()) {
      return Memory.foreign(bytes);
    }
    Memory copy = allocate(bytes.remaining());
    copy.data.duplicate().put(bytes);
    return copy;
  }

  /** The element types {@link #requireElementType} lists in its message, in this order. */
  private static final ElementType[] LISTED = {
    ElementType.I1,
    ElementType.I8,
    ElementType.SI8,
    ElementType.UI8,
    ElementType.I16,
    ElementType.SI16,
    ElementType.UI16,
    ElementType.F16,
    ElementType.BF16,
    ElementType.I32,
    ElementType.SI32,
    ElementType.UI32,
    ElementType.F32,
    ElementType.I64,
    ElementType.SI64,
    ElementType.UI64,
    ElementType.F64
  };

  /**
   * The element type an array of class {@code className}, which holds {@code holds}, takes from
   * {@code view}: the view's own type when {@link ElementType#accepts} accepts it for {@code holds}
   * ({@code si32} and signless {@code i32} for {@code IntArray}), except that an {@code i1} array
   * over an 8-bit integer view (IREE's storage of {@code i1}) is typed {@code i1}, and an integer
   * array over an {@code i1} view is typed as the array's own type.
   *
   * @throws IllegalArgumentException naming the class, what it holds and what the view holds
   */
  static ElementType requireElementType(BufferView view, String className, ElementType holds) {
    Objects.requireNonNull(view, "view");
    ElementType actual = view.elementType().orElse(null);
    if (actual != null && holds.accepts(actual)) {
      boolean retyped =
          (holds.kind() == ElementType.Kind.BOOLEAN) != (actual.kind() == ElementType.Kind.BOOLEAN);
      return retyped ? holds : actual;
    }
    // First the type the class's factories create (signless for the signed classes), then the rest.
    ElementType first =
        holds.kind() == ElementType.Kind.SIGNED_INTEGER ? ElementType.integer(holds.bits()) : holds;
    StringBuilder holdsText = new StringBuilder();
    holdsText.append(first).append(" (HAL ").append(hex(first.halCode().get())).append(')');
    for (ElementType t : LISTED) {
      if (!t.equals(first) && holds.accepts(t)) {
        holdsText
            .append(" or ")
            .append(t)
            .append(" (HAL ")
            .append(hex(t.halCode().get()))
            .append(')');
      }
    }
    String got =
        (actual == null ? "an element type with no array class" : actual.toString())
            + " (HAL "
            + hex(view.elementTypeCode())
            + ")";
    String hint = "";
    if (actual != null) {
      String other = NdArray.classNameFor(actual);
      if (other != null) {
        hint = "; " + other + ".fromBufferView reads it, as does NdArray.fromBufferView";
      }
    }
    throw new IllegalArgumentException(
        className
            + ".fromBufferView: "
            + className
            + " holds "
            + holdsText
            + " but the buffer view"
            + " holds "
            + got
            + ", shape "
            + describe(view.shape())
            + hint);
  }

  /** {@code 0x21000020}. */
  static String hex(int code) {
    return String.format("0x%08x", code);
  }

  /** A concrete shape for messages: {@code 2x3}, or {@code scalar} for rank 0. */
  static String describe(long[] dims) {
    if (dims.length == 0) {
      return "scalar";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < dims.length; i++) {
      if (i > 0) {
        sb.append('x');
      }
      sb.append(dims[i]);
    }
    return sb.toString();
  }

  /** An index for messages: {@code [1, 2]}. */
  static String indexString(long[] index) {
    return java.util.Arrays.toString(index);
  }
}
