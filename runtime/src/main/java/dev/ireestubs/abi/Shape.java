package dev.ireestubs.abi;

import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * The declared shape of an array: unranked, or a rank with one dimension per axis, each static (a
 * non-negative size) or dynamic ({@code ?}, JSON {@code null}, V0 {@code d-1}).
 *
 * <p>Immutable. Printed as MLIR does: {@code 2x?x3}, the empty string for rank 0, {@code *} for
 * unranked.
 */
public final class Shape {

  /** The value {@link #dims()} holds for a dynamic dimension. */
  public static final long DYNAMIC = -1;

  private static final Shape UNRANKED = new Shape(null);
  private static final Shape SCALAR = new Shape(new long[0]);

  private final long[] dims; // null when unranked

  private Shape(long[] dims) {
    this.dims = dims;
  }

  /**
   * A shape of unknown rank.
   *
   * @return the shape that accepts any rank
   */
  public static Shape unranked() {
    return UNRANKED;
  }

  /**
   * The rank-0 shape.
   *
   * @return the shape of a single value
   */
  public static Shape scalar() {
    return SCALAR;
  }

  /**
   * A ranked shape; each dim is a size {@code >= 0} or {@link #DYNAMIC}.
   *
   * @param dims the dims, outermost first
   * @return the shape
   * @throws IllegalArgumentException for any other negative dim
   */
  public static Shape of(long... dims) {
    for (long d : dims) {
      if (d < 0 && d != DYNAMIC) {
        throw new IllegalArgumentException("dimension must be >= 0 or DYNAMIC, got " + d);
      }
    }
    return dims.length == 0 ? SCALAR : new Shape(dims.clone());
  }

  /**
   * A ranked shape of {@code rank} dynamic dims.
   *
   * @param rank the number of dims
   * @return a shape of that rank whose every dim is {@link #DYNAMIC}
   */
  public static Shape dynamic(int rank) {
    long[] dims = new long[rank];
    Arrays.fill(dims, DYNAMIC);
    return of(dims);
  }

  /**
   * True unless the rank is unknown.
   *
   * @return true when the rank is known
   */
  public boolean isRanked() {
    return dims != null;
  }

  /**
   * The rank.
   *
   * @return the number of dims
   * @throws IllegalStateException when unranked
   */
  public int rank() {
    requireRanked();
    return dims.length;
  }

  /**
   * The dims, {@link #DYNAMIC} for a dynamic one; a copy.
   *
   * @return a new array of the dims
   */
  public long[] dims() {
    requireRanked();
    return dims.clone();
  }

  /**
   * The dims as a list, {@link #DYNAMIC} for a dynamic one.
   *
   * @return the dims, unmodifiable
   */
  public List<Long> dimList() {
    requireRanked();
    Long[] boxed = new Long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      boxed[i] = dims[i];
    }
    return List.of(boxed);
  }

  /**
   * Dimension {@code axis}, or {@link #DYNAMIC}.
   *
   * @param axis the dim's index, from 0 to {@code rank() - 1}
   * @return the dim's size, or {@link #DYNAMIC} when only known at run time
   */
  public long dim(int axis) {
    requireRanked();
    return dims[axis];
  }

  /**
   * True when dimension {@code axis} is dynamic.
   *
   * @param axis the dim's index, from 0 to {@code rank() - 1}
   * @return true when the dim's size is known only at run time
   */
  public boolean isDynamic(int axis) {
    return dim(axis) == DYNAMIC;
  }

  /**
   * True when ranked and every dim is static.
   *
   * @return true when every dim's size is known
   */
  public boolean isStatic() {
    if (dims == null) {
      return false;
    }
    for (long d : dims) {
      if (d == DYNAMIC) {
        return false;
      }
    }
    return true;
  }

  /**
   * The element count of a static shape (1 for rank 0); empty if not static or it overflows.
   *
   * @return the product of the dims, when known and within a {@code long}
   */
  public OptionalLong elementCount() {
    if (!isStatic()) {
      return OptionalLong.empty();
    }
    long n = 1;
    for (long d : dims) {
      try {
        n = Math.multiplyExact(n, d);
      } catch (ArithmeticException e) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.of(n);
  }

  /**
   * True when a concrete shape {@code actual} fits this declared shape: same rank and equal static
   * dims. Every concrete shape fits an unranked one.
   *
   * @param actual the dims of a value that arrived
   * @return true when the value's shape fits the declaration
   */
  public boolean accepts(long[] actual) {
    if (dims == null) {
      return true;
    }
    if (actual.length != dims.length) {
      return false;
    }
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] != DYNAMIC && dims[i] != actual[i]) {
        return false;
      }
    }
    return true;
  }

  private void requireRanked() {
    if (dims == null) {
      throw new IllegalStateException("shape is unranked");
    }
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Shape shape)) {
      return false;
    }
    return Arrays.equals(dims, shape.dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  /** MLIR style: {@code 2x?x3}, {@code ""} for rank 0, {@code *} for unranked. */
  @Override
  public String toString() {
    if (dims == null) {
      return "*";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < dims.length; i++) {
      if (i > 0) {
        sb.append('x');
      }
      sb.append(dims[i] == DYNAMIC ? "?" : Long.toString(dims[i]));
    }
    return sb.toString();
  }
}
