package dev.ireestubs.ndarray;

import java.lang.reflect.Array;

/** Shapes of nested (rectangular) Java arrays: checking them and making them. */
final class Nested {

  private Nested() {}

  /**
   * The shape of {@code data}, nested {@code depth} deep, as its first rows give it ({@code
   * data.length}, {@code data[0].length}, ...), without checking the others: for a copy that checks
   * every row as it goes. A null or empty level makes the deeper dimensions 0.
   */
  static long[] firstShape(Object data, int depth, String where) {
    if (data == null) {
      throw new NullPointerException(where + ": data is null");
    }
    long[] shape = new long[depth];
    Object level = data;
    for (int axis = 0; axis < depth && level != null; axis++) {
      int length = Array.getLength(level);
      shape[axis] = length;
      level = axis + 1 < depth && length > 0 ? ((Object[]) level)[0] : null;
    }
    return shape;
  }

  /**
   * The shape of {@code data}, nested {@code depth} deep, after checking that it is rectangular and
   * holds no null rows. An empty level makes the deeper dimensions 0.
   */
  static long[] shapeOf(Object data, int depth, String where) {
    long[] shape = firstShape(data, depth, where);
    check(data, 0, shape, new int[depth], where);
    return shape;
  }

  private static void check(Object level, int axis, long[] shape, int[] index, String where) {
    if (level == null) {
      throw new NullPointerException(where + ": data" + path(index, axis) + " is null");
    }
    int length = Array.getLength(level);
    if (length != shape[axis]) {
      int[] first = new int[axis];
      throw new IllegalArgumentException(
          where
              + ": the data is ragged: data"
              + path(index, axis)
              + " has length "
              + length
              + " but data"
              + path(first, axis)
              + " has length "
              + shape[axis]
              + "; every row at one depth must have the same length");
    }
    if (axis + 1 < shape.length) {
      Object[] rows = (Object[]) level;
      for (int i = 0; i < length; i++) {
        index[axis] = i;
        check(rows[i], axis + 1, shape, index, where);
      }
      index[axis] = 0;
    }
  }

  private static String path(int[] index, int axis) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < axis; i++) {
      sb.append('[').append(index[i]).append(']');
    }
    return sb.toString();
  }

  /**
   * A new rectangular array of {@code component} (e.g. {@code float.class}) and {@code shape}.
   *
   * @throws IllegalStateException when a dimension exceeds the length of a Java array (possible
   *     only when a later dimension is 0), naming {@code where}
   */
  static Object newArray(Class<?> component, long[] shape, String where) {
    int[] dims = new int[shape.length];
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] > Integer.MAX_VALUE) {
        throw new IllegalStateException(
            where
                + ": dimension "
                + i
                + " of shape "
                + Storage.describe(shape)
                + " is "
                + shape[i]
                + ", longer than a Java array can be ("
                + Integer.MAX_VALUE
                + ")");
      }
      dims[i] = (int) shape[i];
    }
    return Array.newInstance(component, dims);
  }
}
