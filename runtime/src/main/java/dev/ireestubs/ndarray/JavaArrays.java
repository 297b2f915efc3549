package dev.ireestubs.ndarray;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Copies between n-d arrays and rectangular Java arrays whose type is known only at run time: the
 * dynamic counterpart of the typed {@code of(float[][])} and {@code toArray2D()} methods, used by
 * the dynamic invoker. Java arrays of {@code float}, {@code double}, {@code boolean}, {@code byte},
 * {@code short}, {@code int} and {@code long}, of rank 1 to 4, are supported.
 */
public final class JavaArrays {

  /** The largest rank of a Java array these copies handle. */
  public static final int MAX_RANK = 4;

  private static final Map<Class<?>, Function<Object, NdArray>> IN = new HashMap<>();

  /** By array class, the copy out for each rank (index rank - 1); null where there is none. */
  private static final Map<Class<?>, Function<NdArray, Object>[]> OUT = new HashMap<>();

  static {
    Map<Class<?>, Function<Object, NdArray>> in = IN;
    Map<Class<?>, Function<NdArray, Object>[]> out = OUT;
    put(in, float[].class, a -> FloatArray.of((float[]) a));
    put(in, float[][].class, a -> FloatArray.of((float[][]) a));
    put(in, float[][][].class, a -> FloatArray.of((float[][][]) a));
    put(in, float[][][][].class, a -> FloatArray.of((float[][][][]) a));
    put(in, double[].class, a -> DoubleArray.of((double[]) a));
    put(in, double[][].class, a -> DoubleArray.of((double[][]) a));
    put(in, double[][][].class, a -> DoubleArray.of((double[][][]) a));
    put(in, double[][][][].class, a -> DoubleArray.of((double[][][][]) a));
    put(in, boolean[].class, a -> BoolArray.of((boolean[]) a));
    put(in, boolean[][].class, a -> BoolArray.of((boolean[][]) a));
    put(in, boolean[][][].class, a -> BoolArray.of((boolean[][][]) a));
    put(in, boolean[][][][].class, a -> BoolArray.of((boolean[][][][]) a));
    put(in, byte[].class, a -> ByteArray.of((byte[]) a));
    put(in, byte[][].class, a -> ByteArray.of((byte[][]) a));
    put(in, byte[][][].class, a -> ByteArray.of((byte[][][]) a));
    put(in, byte[][][][].class, a -> ByteArray.of((byte[][][][]) a));
    put(in, short[].class, a -> ShortArray.of((short[]) a));
    put(in, short[][].class, a -> ShortArray.of((short[][]) a));
    put(in, short[][][].class, a -> ShortArray.of((short[][][]) a));
    put(in, short[][][][].class, a -> ShortArray.of((short[][][][]) a));
    put(in, int[].class, a -> IntArray.of((int[]) a));
    put(in, int[][].class, a -> IntArray.of((int[][]) a));
    put(in, int[][][].class, a -> IntArray.of((int[][][]) a));
    put(in, int[][][][].class, a -> IntArray.of((int[][][][]) a));
    put(in, long[].class, a -> LongArray.of((long[]) a));
    put(in, long[][].class, a -> LongArray.of((long[][]) a));
    put(in, long[][][].class, a -> LongArray.of((long[][][]) a));
    put(in, long[][][][].class, a -> LongArray.of((long[][][][]) a));
    put(out, FloatArray.class, 1, a -> ((FloatArray) a).toArray());
    put(out, FloatArray.class, 2, a -> ((FloatArray) a).toArray2D());
    put(out, FloatArray.class, 3, a -> ((FloatArray) a).toArray3D());
    put(out, FloatArray.class, 4, a -> ((FloatArray) a).toArray4D());
    put(out, DoubleArray.class, 1, a -> ((DoubleArray) a).toArray());
    put(out, DoubleArray.class, 2, a -> ((DoubleArray) a).toArray2D());
    put(out, DoubleArray.class, 3, a -> ((DoubleArray) a).toArray3D());
    put(out, DoubleArray.class, 4, a -> ((DoubleArray) a).toArray4D());
    put(out, BoolArray.class, 1, a -> ((BoolArray) a).toArray());
    put(out, BoolArray.class, 2, a -> ((BoolArray) a).toArray2D());
    put(out, BoolArray.class, 3, a -> ((BoolArray) a).toArray3D());
    put(out, BoolArray.class, 4, a -> ((BoolArray) a).toArray4D());
    put(out, ByteArray.class, 1, a -> ((ByteArray) a).toArray());
    put(out, ByteArray.class, 2, a -> ((ByteArray) a).toArray2D());
    put(out, ByteArray.class, 3, a -> ((ByteArray) a).toArray3D());
    put(out, ByteArray.class, 4, a -> ((ByteArray) a).toArray4D());
    put(out, ShortArray.class, 1, a -> ((ShortArray) a).toArray());
    put(out, ShortArray.class, 2, a -> ((ShortArray) a).toArray2D());
    put(out, ShortArray.class, 3, a -> ((ShortArray) a).toArray3D());
    put(out, ShortArray.class, 4, a -> ((ShortArray) a).toArray4D());
    put(out, IntArray.class, 1, a -> ((IntArray) a).toArray());
    put(out, IntArray.class, 2, a -> ((IntArray) a).toArray2D());
    put(out, IntArray.class, 3, a -> ((IntArray) a).toArray3D());
    put(out, IntArray.class, 4, a -> ((IntArray) a).toArray4D());
    put(out, LongArray.class, 1, a -> ((LongArray) a).toArray());
    put(out, LongArray.class, 2, a -> ((LongArray) a).toArray2D());
    put(out, LongArray.class, 3, a -> ((LongArray) a).toArray3D());
    put(out, LongArray.class, 4, a -> ((LongArray) a).toArray4D());
  }

  private JavaArrays() {}

  private static void put(
      Map<Class<?>, Function<Object, NdArray>> map, Class<?> type, Function<Object, NdArray> f) {
    map.put(type, f);
  }

  @SuppressWarnings("unchecked") // an array of a generic type, filled only with that type
  private static void put(
      Map<Class<?>, Function<NdArray, Object>[]> map,
      Class<? extends NdArray> type,
      int rank,
      Function<NdArray, Object> f) {
    map.computeIfAbsent(type, t -> (Function<NdArray, Object>[]) new Function<?, ?>[MAX_RANK])[
            rank - 1] =
        f;
  }

  /**
   * True when {@code value} is a Java array {@link #copyOf} accepts.
   *
   * @param value any object, or null
   * @return true for a primitive Java array of a supported element type and rank, false otherwise
   *     (null included)
   */
  public static boolean isSupported(Object value) {
    return value != null && IN.containsKey(value.getClass());
  }

  /**
   * A new n-d array holding a copy of {@code javaArray} ({@code float[][]} gives a rank-2 {@link
   * FloatArray}, {@code boolean[]} a {@link BoolArray}).
   *
   * @param javaArray a Java array of a supported primitive element type, rectangular, of rank 1 to
   *     {@value #MAX_RANK}
   * @return a new n-d array of the class the component type names, owning its memory
   * @throws IllegalArgumentException when {@code javaArray} is not a supported Java array or is
   *     ragged
   * @throws NullPointerException when it or one of its rows is null
   */
  public static NdArray copyOf(Object javaArray) {
    Objects.requireNonNull(javaArray, "javaArray");
    Function<Object, NdArray> f = IN.get(javaArray.getClass());
    if (f == null) {
      throw new IllegalArgumentException(
          "JavaArrays.copyOf: expected a rectangular Java array of float, double, boolean, byte,"
              + " short, int or long, of rank 1 to "
              + MAX_RANK
              + ", but got "
              + dev.ireestubs.abi.JavaMapping.typeName(javaArray));
    }
    return f.apply(javaArray);
  }

  /**
   * A copy of {@code array} as a nested Java array ({@code float[][]} for a rank-2 {@link
   * FloatArray}).
   *
   * @param array the n-d array to copy; not closed
   * @return a new Java array such as {@code float[][]}, to be cast by the caller
   * @throws IllegalArgumentException when the array's class has no Java array form (half floats,
   *     unsigned integers) or its rank is 0 or above {@value #MAX_RANK}
   */
  public static Object toJavaArray(NdArray array) {
    Objects.requireNonNull(array, "array");
    Function<NdArray, Object>[] byRank = OUT.get(array.getClass());
    int rank = array.rank();
    Function<NdArray, Object> f =
        byRank == null || rank < 1 || rank > MAX_RANK ? null : byRank[rank - 1];
    if (f == null) {
      throw new IllegalArgumentException(
          "JavaArrays.toJavaArray: a "
              + array.getClass().getSimpleName()
              + " of rank "
              + array.rank()
              + " has no Java array form; Java arrays hold float, double, boolean, byte, short,"
              + " int and long elements, at rank 1 to "
              + MAX_RANK);
    }
    return f.apply(array);
  }
}
