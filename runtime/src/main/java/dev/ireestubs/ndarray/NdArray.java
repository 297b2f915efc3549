package dev.ireestubs.ndarray;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A dense, row-major n-dimensional array in direct, native-order memory: the Java face of an IREE
 * tensor. Each subclass names its element type ({@link FloatArray} holds {@code f32}, {@link
 * IntArray} {@code i32}, ...), so a stub's signature says what it takes and returns:
 *
 * <pre>{@code
 * FloatArray embed(IntArray ids);
 * }</pre>
 *
 * <h2>Memory</h2>
 *
 * <p>Every array is a shape over a direct {@link ByteBuffer} in {@link ByteOrder#nativeOrder()
 * native order}, which is exactly the bytes of a HAL buffer view with encoding {@code
 * DENSE_ROW_MAJOR}. Arrays an array class allocates itself are zeroed and 64-byte aligned (below
 * 2<sup>31</sup> - 64 bytes; the few larger ones have the platform allocator's alignment).
 *
 * <ul>
 *   <li>{@code of(...)} factories copy Java arrays (flat or nested) into new memory;
 *   <li>{@code wrap(...)} factories and {@link #fromBufferView} share the caller's memory and copy
 *       nothing;
 *   <li>{@link #asBufferView()}, {@link #data()}, {@code reshape}, {@code slice} and {@code select}
 *       are views: they share this array's memory, so a write through one is visible through all;
 *   <li>{@code toArray()} and friends copy out into new Java arrays; {@code copy()} copies into new
 *       memory;
 *   <li>{@code copyFrom(...)} and {@code copyInto(...)} copy between an array and Java arrays (flat
 *       or nested) of the caller's, allocating nothing: an array made once can take frame after
 *       frame.
 * </ul>
 *
 * <p>The shape and element type of an array never change; its elements are mutable (unless the
 * memory is read-only, see {@link #isReadOnly()}). Arrays are not safe for concurrent writes, just
 * as Java arrays are not.
 *
 * <h2>Ownership and closing</h2>
 *
 * <p>An array is {@link AutoCloseable}. The array a factory returns ({@code of}, {@code zeros},
 * {@code scalar}, {@code copy}, {@code wrap}, {@code fromBufferView}) owns its memory; its views
 * ({@code reshape}, {@code slice}, {@code select}, {@code asSigned}, ...) share the owner's memory
 * and own nothing.
 *
 * <ul>
 *   <li>{@link #close()} on the owner ends the use of the memory for the owner and every view of
 *       it. Memory the array allocated itself is freed at once (not when a garbage collection
 *       happens to run: it goes back to {@link dev.ireestubs.vm.MemoryPool}, which gives it to the
 *       next array of its size, so making and closing small arrays costs tens of nanoseconds),
 *       unless someone else may still read it:
 *       <ul>
 *         <li><b>Lent memory is pinned.</b> {@link #asBufferView()} (which every stub call and
 *             backend uses) lends the memory: the view carries the memory's {@link MemoryLease}. A
 *             reader that keeps the memory past the call (IREE importing it into a device buffer,
 *             an array made over the view with {@link #fromBufferView}, a result that is the
 *             argument itself) holds a pin, and the memory is freed when the last pin is released
 *             after {@code close()}. Until then it stays valid for those readers.
 *         <li><b>Handed-out memory escapes.</b> {@link #data()}, the {@code as...Buffer()} methods
 *             and a lent view's {@link BufferView#data()} give out raw buffers that may be read at
 *             any later time, so the memory is then left to the garbage collector to free once
 *             those buffers are unreachable, as it is for arrays never closed.
 *       </ul>
 *       Memory of a caller's buffer ({@code wrap}, {@code fromBufferView} of a view not lent) is
 *       the caller's and is never freed by {@code close()}.
 *   <li>An array made by {@link #fromBufferView} over a lent view (a function's argument in a host
 *       module, a result that aliases an argument) pins the lender's memory until it is closed;
 *       closing it releases the pin and frees nothing else. One made over a backend's result memory
 *       (IREE's mapped results) releases that memory when closed, if nothing else pins it.
 *   <li>{@link #handOver()} passes an array's memory to the reader of its buffer view instead of
 *       freeing it: a host module's value function's result, which the caller's result array holds
 *       and frees when it is closed. The handed-over array is closed.
 *   <li><b>Argument memory is lent only for the call.</b> A stub passing a Java array ({@code
 *       float[][] m}) copies it into a new array that the call owns ({@link #asCallArgument()}): it
 *       is closed once the call is over, so its memory is freed at once unless a backend still pins
 *       it (IREE keeps the last few imported arguments) or a result views it. Arrays the caller
 *       passes stay the caller's.
 *   <li>{@code close()} on a view does nothing: close the array the factory returned.
 *   <li>Closing twice does nothing. After close, using the array or a view of it (reading, writing,
 *       copying, making views, {@code equals}, {@code hashCode}) throws {@link
 *       IllegalStateException}; {@link #isClosed()} tells, and {@link #toString()} still works.
 *       This holds however the memory is reused: each allocation has a lease of its own, so no
 *       array, view or buffer view of a closed array reaches the next array's bytes. Only a raw
 *       buffer kept against the rules can: one taken from a {@link MemoryLease.Pin} and used after
 *       the pin was closed reads whatever the memory holds later (it never reads memory returned to
 *       the system while it is reachable, so it never crashes the JVM); on JDK 22 and later, a raw
 *       buffer over memory above {@link dev.ireestubs.vm.MemoryPool#MAX_POOLED} bytes, which is
 *       released rather than reused, throws {@code IllegalStateException} when used.
 *   <li>An array that is never closed is freed by the garbage collector, as any direct buffer is.
 *       Close arrays made in a loop, or better, make one and fill it with {@code copyFrom}.
 *   <li>Do not close an array while another thread uses it (arrays are not thread-safe): after a
 *       close that happens before the use (the same thread, or any synchronisation between the two)
 *       the use throws, but a use racing with the close may read or write the bytes of the array
 *       that reuses the memory. Arrays may be made on one thread and closed on another.
 * </ul>
 *
 * <h2>Equality</h2>
 *
 * <p>Two arrays are {@linkplain #equals equal} when they are of the same class and element type (so
 * an {@code i32} and an {@code si32} {@link IntArray} differ), have the same shape and equal
 * elements. Floating-point elements compare as {@link Float#equals} does: all NaNs are equal to
 * each other, and {@code 0.0} differs from {@code -0.0}. Because elements are mutable, the hash
 * code changes when they do, as a {@link java.util.List}'s does.
 *
 * <h2>Limits</h2>
 *
 * <p>One array holds at most {@link Integer#MAX_VALUE} bytes (one {@link ByteBuffer}). Indices are
 * {@code long} for the day that limit goes away.
 */
public abstract sealed class NdArray implements AutoCloseable
    permits FloatArray,
        DoubleArray,
        HalfArray,
        BFloat16Array,
        BoolArray,
        ByteArray,
        ShortArray,
        IntArray,
        LongArray,
        UByteArray,
        UShortArray,
        UIntArray,
        ULongArray {

  /** Arrays with more elements than this print a summary: the first and last few per axis. */
  private static final int PREVIEW_LIMIT = 100;

  /** Elements shown at each end of a summarised axis. */
  private static final int PREVIEW_EDGE = 3;

  final ElementType elementType;
  final long[] shape; // row-major: positions are computed from it, with no strides array
  final int size;

  /**
   * Native order, position 0, capacity = limit = byte length. Only absolute get/put are used on it,
   * so its position never moves and it can be shared safely between views.
   */
  final ByteBuffer data;

  /** The memory {@link #data} is part of, shared with every view; where closing is recorded. */
  final Memory memory;

  /** True for the array a factory returned, false for its views: only the owner closes. */
  private final boolean owner;

  /** The view {@link #asBufferView()} made, given again on later calls; null until then. */
  private BufferView lentView;

  NdArray(ElementType elementType, long[] shape, ByteBuffer data, Memory memory, boolean owner) {
    this.elementType = elementType;
    this.shape = shape;
    this.data = data;
    this.memory = memory;
    this.owner = owner;
    this.size = Math.toIntExact(Storage.count(shape));
  }

  /**
   * The elements of one row along axis 0 (the product of the other dims): the row-major stride of
   * axis 0. Computed, not stored: an array of strides was one more allocation per array of rank 2
   * or more, a cost every call result paid (issue #36).
   */
  private long rowElements() {
    long n = 1;
    for (int axis = 1; axis < shape.length; axis++) {
      n *= shape[axis];
    }
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Creating arrays from buffer views

  /**
   * An array over the memory of {@code view}, of the class its HAL element type names: {@code f32}
   * gives a {@link FloatArray}, {@code i32} and {@code si32} an {@link IntArray}, {@code ui8} a
   * {@link UByteArray}, {@code i1} a {@link BoolArray}, and so on.
   *
   * <p>When the view's data is direct (as it is for every view made from an array, and for views
   * from IREE's runtime), the array shares it and nothing is copied. Data on the Java heap is
   * copied into new direct memory, because arrays always live in direct memory.
   *
   * @param view a buffer view, e.g. a function result from a backend; its shape and element type
   *     become the array's
   * @return an array of the class the view's element type names, sharing the view's memory when it
   *     is direct
   * @throws IllegalArgumentException when no array class holds the view's element type (complex,
   *     8-bit floats, odd integer widths, opaque codes); the message names the type
   */
  public static NdArray fromBufferView(BufferView view) {
    Objects.requireNonNull(view, "view");
    ElementType type = view.elementType().orElse(null);
    if (type == null || classNameFor(type) == null) {
      throw new IllegalArgumentException(
          "NdArray.fromBufferView: no array class holds elements of "
              + (type == null ? "HAL element type" : type + " (HAL")
              + " "
              + Storage.hex(view.elementTypeCode())
              + (type == null ? "" : ")")
              + " (buffer view of shape "
              + Storage.describe(view.shape())
              + "); arrays hold"
              + " f16, bf16, f32, f64, i1, and 8-, 16-, 32- and 64-bit integers of any"
              + " signedness");
    }
    return create(type, view.shape(), Storage.bytesOf(view));
  }

  /**
   * An array of class {@code type} over the memory of {@code view}, as that class's own {@code
   * fromBufferView} makes it: {@code fromBufferView(view, FloatArray.class)} is {@code
   * FloatArray.fromBufferView(view)}; {@code NdArray.class} gives the class the view's element type
   * names ({@link #fromBufferView(BufferView)}).
   *
   * @param <A> the array class made
   * @param view a buffer view, e.g. a function result from a backend; its shape and element type
   *     become the array's
   * @param type the array class to make, e.g. {@code FloatArray.class}; {@code NdArray.class} for
   *     the class the element type names
   * @return an array of class {@code type}, sharing the view's memory when it is direct
   * @throws IllegalArgumentException when the class does not hold the view's element type
   */
  public static <A extends NdArray> A fromBufferView(BufferView view, Class<A> type) {
    Objects.requireNonNull(type, "type");
    NdArray array;
    if (type == NdArray.class) {
      array = fromBufferView(view);
    } else if (type == FloatArray.class) {
      array = FloatArray.fromBufferView(view);
    } else if (type == DoubleArray.class) {
      array = DoubleArray.fromBufferView(view);
    } else if (type == HalfArray.class) {
      array = HalfArray.fromBufferView(view);
    } else if (type == BFloat16Array.class) {
      array = BFloat16Array.fromBufferView(view);
    } else if (type == BoolArray.class) {
      array = BoolArray.fromBufferView(view);
    } else if (type == ByteArray.class) {
      array = ByteArray.fromBufferView(view);
    } else if (type == ShortArray.class) {
      array = ShortArray.fromBufferView(view);
    } else if (type == IntArray.class) {
      array = IntArray.fromBufferView(view);
    } else if (type == LongArray.class) {
      array = LongArray.fromBufferView(view);
    } else if (type == UByteArray.class) {
      array = UByteArray.fromBufferView(view);
    } else if (type == UShortArray.class) {
      array = UShortArray.fromBufferView(view);
    } else if (type == UIntArray.class) {
      array = UIntArray.fromBufferView(view);
    } else {
      array = ULongArray.fromBufferView(view); // the last class the sealed hierarchy permits
    }
    return type.cast(array);
  }

  /**
   * The simple name of the array class that holds {@code type} ({@code "FloatArray"} for {@code
   * f32}), or null when none does: {@link JavaMapping#arrayClass}.
   */
  static String classNameFor(ElementType type) {
    return JavaMapping.arrayClass(type).orElse(null);
  }

  /**
   * The simple name of the array class that holds {@code type} ({@code FloatArray} for {@code f32},
   * {@code IntArray} for {@code i32} and {@code si32}, {@code UIntArray} for {@code ui32}), the one
   * {@link #fromBufferView} makes; empty when no class does (complex, 8-bit floats, odd widths).
   * The table is {@link JavaMapping#arrayClass}, shared with the annotation processor.
   *
   * @param type an element type
   * @return the simple class name, or empty when no array class holds the type
   */
  public static Optional<String> className(ElementType type) {
    return JavaMapping.arrayClass(Objects.requireNonNull(type, "type"));
  }

  /**
   * The simple names of the array classes that may stand for arrays declared with element type
   * {@code declared}, preferred first: the class that holds it, and for a signless integer also the
   * unsigned class of its width (the {@code iree.abi} JSON drops signedness, and unsigned arrays
   * read signless buffer views). Empty when no class holds the type, or it is unknown. See {@link
   * JavaMapping#arrayClassesAccepting}.
   *
   * @param declared the element type a signature declares
   * @return the simple class names, preferred first; an empty list when no class holds the type
   */
  public static List<String> classNamesAccepting(ElementType declared) {
    Objects.requireNonNull(declared, "declared");
    return declared.isKnown() ? JavaMapping.arrayClassesAccepting(declared) : List.of();
  }

  /** An array of the class that holds {@code type}, over {@code data} (already checked). */
  private static NdArray create(ElementType type, long[] shape, Memory memory) {
    ByteBuffer data = memory.data;
    return switch (classNameFor(type)) {
      case "FloatArray" -> new FloatArray(type, shape, data, memory, true);
      case "DoubleArray" -> new DoubleArray(type, shape, data, memory, true);
      case "HalfArray" -> new HalfArray(type, shape, data, memory, true);
      case "BFloat16Array" -> new BFloat16Array(type, shape, data, memory, true);
      case "BoolArray" -> new BoolArray(type, shape, data, memory, true);
      case "ByteArray" -> new ByteArray(type, shape, data, memory, true);
      case "ShortArray" -> new ShortArray(type, shape, data, memory, true);
      case "IntArray" -> new IntArray(type, shape, data, memory, true);
      case "LongArray" -> new LongArray(type, shape, data, memory, true);
      case "UByteArray" -> new UByteArray(type, shape, data, memory, true);
      case "UShortArray" -> new UShortArray(type, shape, data, memory, true);
      case "UIntArray" -> new UIntArray(type, shape, data, memory, true);
      case "ULongArray" -> new ULongArray(type, shape, data, memory, true);
      default -> throw new AssertionError(type);
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Shape and type

  /**
   * The element type, e.g. {@code f32}; for integer arrays, signless or signed as created.
   *
   * @return the element type, never null
   */
  public final ElementType elementType() {
    return elementType;
  }

  /**
   * The HAL element type code, e.g. {@code 0x21000020} for {@code f32}.
   *
   * @return the 32-bit HAL element type code
   */
  public final int halElementType() {
    return elementType.halCode().get();
  }

  /**
   * The dimensions; a copy ({@code []} for a rank-0 array).
   *
   * @return a new array of one dimension per axis, outermost first; empty for a scalar
   */
  public final long[] shape() {
    return shape.clone();
  }

  /**
   * The number of dimensions: 0 for a scalar.
   *
   * @return the rank, 0 or more
   */
  public final int rank() {
    return shape.length;
  }

  /**
   * Dimension {@code axis}.
   *
   * @param axis the axis, from 0 (outermost) to {@code rank() - 1}
   * @return the length of axis {@code axis}, 0 or more
   * @throws IndexOutOfBoundsException when {@code axis} is not in {@code [0, rank)}
   */
  public final long dim(int axis) {
    if (axis < 0 || axis >= shape.length) {
      throw new IndexOutOfBoundsException(
          "axis " + axis + " is out of bounds for " + describe() + " of rank " + shape.length);
    }
    return shape[axis];
  }

  /**
   * The number of elements: the product of the dimensions (1 for a scalar).
   *
   * @return the element count, 0 when any dimension is 0
   */
  public final long size() {
    return size;
  }

  /**
   * The size of the data in bytes.
   *
   * @return the element count times the element size in bytes
   */
  public final int byteLength() {
    return data.capacity();
  }

  // ---------------------------------------------------------------------------------------------
  // Memory

  /**
   * The bytes, shared (not copied): a new buffer object over this array's memory, positioned at 0,
   * in native order. Writes through it are visible in the array and every view of it.
   *
   * <p>The buffer outlives the array's control of its memory, so {@link #close()} then leaves
   * freeing the memory to the garbage collector (see "Ownership and closing").
   *
   * @return a new buffer over the array's memory, of {@link #byteLength()} bytes; read-only when
   *     the array is
   * @throws IllegalStateException when the array is closed
   */
  public final ByteBuffer data() {
    requireOpen();
    memory.escape();
    return data.duplicate().order(ByteOrder.nativeOrder());
  }

  /**
   * True when the memory cannot be written (it came from a read-only buffer).
   *
   * @return true when writes fail with {@code ReadOnlyBufferException}
   */
  public final boolean isReadOnly() {
    return data.isReadOnly();
  }

  /**
   * A HAL buffer view of this array, sharing its memory: nothing is copied, and writes through
   * either are visible in both. The view's element type is {@link #halElementType()}.
   *
   * <p>The memory is lent, not handed out: the view carries its {@link MemoryLease}, so a backend
   * that keeps the memory past a call pins it, and {@link #close()} frees it only once the last pin
   * is released; code that takes the view's raw bytes ({@link BufferView#data()}) makes it escape.
   * See "Ownership and closing".
   *
   * @return a buffer view over this array's memory, with its shape and element type: the same
   *     (immutable) view object on every call
   * @throws IllegalStateException when the array is closed
   */
  public final BufferView asBufferView() {
    requireOpen();
    BufferView view = lentView;
    if (view == null) {
      MemoryLease lease = memory.lease();
      // The view takes its own slice of the memory (and its own copy of the shape). It is
      // immutable, so it is made once and given to every caller: an array passed call after call
      // costs no new view (a benign race may make two, both right).
      view =
          lease == null
              ? BufferView.wrap(halElementType(), shape, data)
              : BufferView.lend(halElementType(), shape, data, lease);
      lentView = view;
    }
    return view;
  }

  /**
   * A HAL buffer view of this array for one call, which the call then owns: the array is closed
   * when the call ends ({@link BufferView#endCall()}), freeing its memory at once unless a backend
   * still pins it or a raw buffer over it escaped. For code that made the array only to pass it (a
   * stub passing a copy of a Java array); do not use the array after the call. For an array that
   * does not own its memory (a view, a wrapped buffer), and when the memory pool is turned off on
   * JDK 22+ for one under 32 KiB (where closing its arena costs more than the garbage collector's
   * freeing: {@link dev.ireestubs.vm.MemoryPool#freeingIsCheap}), this is {@link #asBufferView()}.
   *
   * @return a buffer view over this array's memory, with its shape and element type
   * @throws IllegalStateException when the array is closed
   */
  public final BufferView asCallArgument() {
    requireOpen();
    MemoryLease lease = memory.lease();
    return owner && memory.freesOnClose() && memory.freeingAfterCallPays()
        ? BufferView.lendForCall(halElementType(), shape, data, lease)
        : asBufferView();
  }

  // ---------------------------------------------------------------------------------------------
  // Lifetime

  /**
   * Ends the use of this array's memory, for it and every view of it, when this is the array a
   * factory returned; does nothing on a view or when already closed. Memory the array allocated
   * itself is freed at once unless a buffer over it was handed out. See "Ownership and closing" in
   * the class description.
   */
  @Override
  public final void close() {
    if (owner) {
      memory.close();
    }
  }

  /**
   * Passes this array's memory to whoever reads its {@linkplain #asBufferView() buffer view} next,
   * as a host module does with the arrays a value function returns: the array is closed (using it
   * later throws {@link IllegalStateException}, saying it was handed over), but its memory stays
   * valid for the view, and it is freed when the last hold on it is released, for instance when an
   * array made over the view with {@link #fromBufferView} (a stub's result) is closed, as memory a
   * backend returns is. Memory nobody ever holds is left to the garbage collector.
   *
   * <p>Only an array that owns memory it allocated is handed over. A view ({@code reshape}, {@code
   * slice}, ...), an array over a lent view's memory ({@link #isBorrowed()}: a function's argument)
   * or over a caller's buffer ({@code wrap}) is left as it is, and this returns false.
   *
   * @return true when the memory was handed over; false when the array was left as it is, or was
   *     closed or handed over already
   */
  public final boolean handOver() {
    return owner && memory.handOver();
  }

  /**
   * True when this array (or the one it views) was made by {@link #fromBufferView} over a lent
   * buffer view and holds a pin on the lender's memory until it is closed; closing it then frees
   * nothing of its own, it only lets the lender free its memory.
   *
   * @return whether the memory is borrowed from a lent view
   */
  public final boolean isBorrowed() {
    return memory.isBorrowed();
  }

  /**
   * True when the array that owns this array's memory (this one, or the one it views) is closed.
   *
   * @return true once {@link #close()} has been called on the owning array; a closed array's
   *     elements cannot be read or written
   */
  public final boolean isClosed() {
    return memory.isClosed();
  }

  /**
   * Throws unless the memory is usable.
   *
   * @throws IllegalStateException when the owner of the memory was closed
   */
  final void requireOpen() {
    if (memory.isClosed()) {
      if (memory.isHandedOver()) {
        throw new IllegalStateException(
            describe()
                + " was handed over: a host module's value function returned "
                + (owner ? "it" : "the array it is a view of")
                + ", and the arrays a value function returns pass to the caller with their"
                + " memory (the caller's close() of the result frees it); return a new array or"
                + " a copy() on each call instead of one the function keeps");
      }
      throw new IllegalStateException(
          describe()
              + " is closed: close() on "
              + (owner ? "it" : "the array it is a view of")
              + " ended the use of its memory; make a new array, or close it only when done");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Views and copies

  /**
   * A view of the same memory with another shape of the same element count. One dimension may be
   * {@code -1}, meaning "whatever makes the count match".
   *
   * @param shape the new dimensions, whose product must be {@link #size()}; at most one may be
   *     {@code -1}
   * @return a view of this array's class sharing its memory; closing it frees nothing
   * @throws IllegalArgumentException when the counts differ, or the {@code -1} cannot be resolved
   */
  public abstract NdArray reshape(long... shape);

  /**
   * A view of the rows {@code [from, to)} along axis 0: same rank, dimension 0 becomes {@code to -
   * from}. Rows are contiguous in row-major order, so this shares memory.
   *
   * @param from the first row of the view, from 0
   * @param to one past the last row of the view, at most {@code dim(0)}
   * @return a view of this array's class sharing its memory; closing it frees nothing
   * @throws IllegalArgumentException for a rank-0 array
   * @throws IndexOutOfBoundsException unless {@code 0 <= from <= to <= dim(0)}
   */
  public abstract NdArray slice(long from, long to);

  /**
   * A view of row {@code index} along axis 0, with rank one less (a rank-1 array gives a scalar).
   *
   * @param index the row to view, from 0
   * @return a view of this array's class sharing its memory; closing it frees nothing
   * @throws IllegalArgumentException for a rank-0 array
   * @throws IndexOutOfBoundsException unless {@code 0 <= index < dim(0)}
   */
  public abstract NdArray select(long index);

  /**
   * A copy in new direct memory, of the same class, element type and shape; the copy owns its
   * memory (see "Ownership and closing").
   *
   * @return a new array that owns its memory
   */
  public abstract NdArray copy();

  /** A view of this array's memory: this class and element type over {@code data} (checked). */
  abstract NdArray newView(long[] shape, ByteBuffer data);

  final NdArray reshapeView(long[] newShape) {
    Objects.requireNonNull(newShape, "shape");
    requireOpen();
    long[] dims = newShape.clone();
    int inferred = -1;
    long known = 1;
    for (int axis = 0; axis < dims.length; axis++) {
      if (dims[axis] == -1 && inferred < 0) {
        inferred = axis;
      } else if (dims[axis] < 0) {
        throw new IllegalArgumentException(
            "reshape: cannot reshape "
                + describe()
                + " to "
                + Arrays.toString(newShape)
                + ": dimensions must be >= 0, with at most one -1");
      } else {
        long k = Storage.count(new long[] {known, dims[axis]});
        known = k < 0 ? Long.MAX_VALUE : k;
      }
    }
    if (inferred >= 0) {
      if (known == 0 || size % known != 0) {
        throw new IllegalArgumentException(
            "reshape: cannot reshape "
                + describe()
                + " ("
                + size
                + " elements) to "
                + Arrays.toString(newShape)
                + ": no size for the -1 dimension makes "
                + size
                + " elements");
      }
      dims[inferred] = size / known;
      known = size;
    }
    if (known != size) {
      throw new IllegalArgumentException(
          "reshape: cannot reshape "
              + describe()
              + " ("
              + size
              + " elements) to "
              + Storage.describe(dims)
              + " ("
              + (known == Long.MAX_VALUE ? "too many" : known)
              + " elements)");
    }
    return newView(dims, data);
  }

  final NdArray sliceView(long from, long to) {
    requireOpen();
    requireAxis0("slice");
    if (from < 0 || to < from || to > shape[0]) {
      throw new IndexOutOfBoundsException(
          "slice: rows ["
              + from
              + ", "
              + to
              + ") are out of bounds for axis 0 with size "
              + shape[0]
              + " ("
              + describe()
              + "); need 0 <= from <= to <= "
              + shape[0]);
    }
    int rowBytes = (int) rowElements() * elementType.byteSize();
    long[] dims = shape.clone();
    dims[0] = to - from;
    ByteBuffer rows =
        data.slice((int) from * rowBytes, (int) (to - from) * rowBytes)
            .order(ByteOrder.nativeOrder());
    return newView(dims, rows);
  }

  final NdArray selectView(long index) {
    requireOpen();
    requireAxis0("select");
    if (index < 0 || index >= shape[0]) {
      throw new IndexOutOfBoundsException(
          "select: index "
              + index
              + " is out of bounds for axis 0 with size "
              + shape[0]
              + " ("
              + describe()
              + ")");
    }
    int rowBytes = (int) rowElements() * elementType.byteSize();
    ByteBuffer row = data.slice((int) index * rowBytes, rowBytes).order(ByteOrder.nativeOrder());
    return newView(Arrays.copyOfRange(shape, 1, shape.length), row);
  }

  final Memory copyOfData() {
    requireOpen();
    Memory copy = Storage.allocate(data.capacity());
    copy.data.duplicate().put(data.duplicate());
    return copy;
  }

  private void requireAxis0(String what) {
    if (shape.length == 0) {
      throw new IllegalArgumentException(
          what + ": " + describe() + " has no axis 0; a scalar has no rows");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Indexing

  /**
   * The flat (row-major) position of {@code index}.
   *
   * @throws IllegalArgumentException when the index has the wrong number of dimensions
   * @throws IndexOutOfBoundsException naming the axis that is out of bounds
   */
  final int offsetOf(long[] index) {
    Objects.requireNonNull(index, "index");
    requireOpen();
    if (index.length != shape.length) {
      throw new IllegalArgumentException(
          describe()
              + " takes "
              + shape.length
              + (shape.length == 1 ? " index" : " indices")
              + ", got "
              + index.length
              + ": "
              + Storage.indexString(index));
    }
    long flat = 0;
    for (int axis = 0; axis < index.length; axis++) {
      long i = index[axis];
      if (i < 0 || i >= shape[axis]) {
        throw new IndexOutOfBoundsException(
            "index "
                + i
                + " is out of bounds for axis "
                + axis
                + " with size "
                + shape[axis]
                + " (index "
                + Storage.indexString(index)
                + ", "
                + describe()
                + ")");
      }
      flat = flat * shape[axis] + i; // row-major (Horner's scheme over the dims)
    }
    return (int) flat;
  }

  /**
   * Checks a flat (row-major) index.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= flatIndex < size()}
   */
  final int checkFlat(long flatIndex) {
    requireOpen();
    if (flatIndex < 0 || flatIndex >= size) {
      throw new IndexOutOfBoundsException(
          "flat index "
              + flatIndex
              + " is out of bounds for "
              + size
              + " elements ("
              + describe()
              + ")");
    }
    return (int) flatIndex;
  }

  /** The n-d index of flat position {@code flat}, for messages. */
  final String indexOf(int flat) {
    long[] index = new long[shape.length];
    long rest = flat;
    for (int axis = shape.length - 1; axis >= 0; axis--) { // flat < size: no dim is 0
      index[axis] = rest % shape[axis];
      rest /= shape[axis];
    }
    return Storage.indexString(index);
  }

  /**
   * Throws unless this array has rank {@code rank}; for the {@code toArrayND} copies.
   *
   * @throws IllegalStateException naming the shape
   */
  final void requireRank(int rank, String what) {
    if (shape.length != rank) {
      throw new IllegalStateException(
          what
              + " needs an array of rank "
              + rank
              + ", but this is "
              + describe()
              + " of rank "
              + shape.length);
    }
  }

  /**
   * Throws unless a flat Java array of {@code length} elements holds exactly this array's elements;
   * for {@code copyFrom} and {@code copyInto}.
   *
   * @throws IllegalArgumentException naming both sizes
   */
  final void requireSize(int length, String where) {
    requireSize(length, where, "the Java array has", "");
  }

  /**
   * Throws unless a buffer has exactly this array's elements remaining; for {@code copyFrom} and
   * {@code copyInto}.
   *
   * @throws IllegalArgumentException naming both sizes
   */
  final void requireRemaining(int remaining, String where) {
    requireSize(remaining, where, "the buffer has", " remaining");
  }

  private void requireSize(int length, String where, String holder, String after) {
    if (length != size) {
      throw new IllegalArgumentException(
          where
              + ": "
              + holder
              + " "
              + length
              + " elements"
              + after
              + " but "
              + describe()
              + " has "
              + size
              + "; the sizes must be equal");
    }
  }

  /**
   * Throws unless the shape of a nested Java array ({@code what}, e.g. {@code "data"}) is this
   * array's; for {@code copyFrom} and {@code copyInto}.
   *
   * @throws IllegalArgumentException naming both shapes
   */
  final void requireShape(long[] dims, String where, String what) {
    boolean same = dims.length == shape.length;
    for (int axis = 0; same && axis < dims.length; axis++) {
      if (dims[axis] != shape[axis]) {
        same = false;
      } else if (dims[axis] == 0) {
        break; // A Java array has no rows below an empty level to measure: 2x0x3 reads as 2x0x0.
      }
    }
    if (!same) {
      throw new IllegalArgumentException(
          where
              + ": "
              + what
              + " has shape "
              + Storage.describe(dims)
              + " but this is "
              + describe()
              + "; the shapes must be equal (reshape the array, or copy through a flat Java array)");
    }
  }

  /**
   * The error for a nested Java array ({@code what}, e.g. {@code "data"}) whose copy found a level
   * of another length than this array's shape, or a null row: ragged or null rows as {@link
   * Nested#shapeOf} names them, else the two shapes.
   */
  final RuntimeException shapeError(Object javaArray, int rank, String where, String what) {
    long[] dims = Nested.shapeOf(javaArray, rank, where); // throws for ragged or null rows
    requireShape(dims, where, what); // throws for another shape
    return new IllegalArgumentException(
        where + ": " + what + " changed shape while it was being copied; copy it again");
  }

  /** {@code "FloatArray of shape 2x3"}, for messages. */
  final String describe() {
    return getClass().getSimpleName() + " of shape " + Storage.describe(shape);
  }

  // ---------------------------------------------------------------------------------------------
  // Equality and printing

  /**
   * A value that identifies element {@code flat} for equality and hashing: equal elements have
   * equal keys (for floats, {@code floatToIntBits} of the value, so NaNs are all equal).
   */
  abstract long elementKey(int flat);

  /** Element {@code flat} as printed. */
  abstract String formatElement(int flat);

  /**
   * True when {@code o} is an array of the same class, element type and shape with equal elements;
   * see the class description for floating-point elements.
   */
  @Override
  public final boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof NdArray that)) {
      return false;
    }

    requireOpen();
    that.requireOpen();
    if (getClass() != that.getClass()
        || !elementType.equals(that.elementType)
        || !Arrays.equals(shape, that.shape)) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      if (elementKey(i) != that.elementKey(i)) {
        return false;
      }
    }
    return true;
  }

  /** A hash of the class, element type, shape and every element. */
  @Override
  public final int hashCode() {
    requireOpen();
    int h = getClass().getSimpleName().hashCode();
    h = 31 * h + elementType.hashCode();
    h = 31 * h + Arrays.hashCode(shape);
    for (int i = 0; i < size; i++) {
      h = 31 * h + Long.hashCode(elementKey(i));
    }
    return h;
  }

  /**
   * The class, shape and element type as MLIR writes a tensor type, then the elements nested by
   * axis, e.g. {@code FloatArray<2x3xf32> [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}; a scalar prints as
   * {@code FloatArray<f32> 1.5}, and an array with no elements as {@code FloatArray<3x0xf32> []}.
   * Arrays of more than 100 elements print only the first and last three entries of each longer
   * axis, with {@code ...} between. A closed array prints as {@code FloatArray<2x3xf32> (closed)}.
   */
  @Override
  public final String toString() {
    StringBuilder sb = new StringBuilder(getClass().getSimpleName()).append('<');
    for (long d : shape) {
      sb.append(d).append('x');
    }
    sb.append(elementType).append("> ");
    if (memory.isClosed()) {
      return sb.append("(closed)").toString();
    }
    if (shape.length == 0) {
      return sb.append(formatElement(0)).toString();
    }
    if (size == 0) {
      // Nothing to print; the shape is in the prefix. (Walking the rows of, say, a 1e9x0 array
      // would print a billion empty brackets.)
      return sb.append("[]").toString();
    }
    appendElements(sb, size > PREVIEW_LIMIT);
    return sb.toString();
  }

  /**
   * Appends the nested elements of a non-empty array of rank at least 1. Iterative (an odometer
   * over the axes), so a very high rank cannot overflow the stack.
   */
  private void appendElements(StringBuilder sb, boolean summarise) {
    int rank = shape.length;
    int[] position = new int[rank]; // position in each axis's sequence of printed entries
    long[] index = new long[rank];
    for (int axis = 0; axis < rank; axis++) {
      sb.append('[');
    }
    while (true) {
      long offset = 0;
      for (int axis = 0; axis < rank; axis++) {
        offset = offset * shape[axis] + index[axis];
      }
      sb.append(formatElement((int) offset));
      int axis = rank - 1;
      while (axis >= 0) {
        boolean elided = summarise && shape[axis] > 2 * PREVIEW_EDGE;
        int entries = elided ? 2 * PREVIEW_EDGE : (int) shape[axis];
        position[axis]++;
        if (position[axis] < entries) {
          sb.append(", ");
          if (elided && position[axis] == PREVIEW_EDGE) {
            sb.append("..., ");
          }
          index[axis] =
              elided && position[axis] >= PREVIEW_EDGE
                  ? shape[axis] - 2 * PREVIEW_EDGE + position[axis]
                  : position[axis];
          break;
        }
        sb.append(']');
        position[axis] = 0;
        index[axis] = 0;
        axis--;
      }
      if (axis < 0) {
        return;
      }
      for (int deeper = axis + 1; deeper < rank; deeper++) {
        sb.append('[');
      }
    }
  }
}
