package dev.ireestubs.abi;

import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * The declared shape of an array: unranked, or a rank with one dimension per axis, each static
 * (a non-negative size) or dynamic ({@code ?}, JSON {@code null}, V0 {@code d-1}).
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

  /** A shape of unknown rank. */
  public static Shape unranked() {
    return UNRANKED;
  }

  /** The rank-0 shape. */
  public static Shape scalar() {
    return SCALAR;
  }

  /**
   * A ranked shape; each dim is a size {@code >= 0} or {@link #DYNAMIC}.
   *
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

  /** A ranked shape of {@code rank} dynamic dims. */
  public static Shape dynamic(int rank) {
    long[] dims = new long[rank];
    Arrays.fill(dims, DYNAMIC);
    return of(dims);
  }

  /** True unless the rank is unknown. */
  public boolean isRanked() {
    return dims != null;
  }

  /**
   * The rank.
   *
   * @throws IllegalStateException when unranked
   */
  public int rank() {
    requireRanked();
    return dims.length;
  }

  /** The dims, {@link #DYNAMIC} for a dynamic one; a copy. */
  public long[] dims() {
    requireRanked();
    return dims.clone();
  }

  /** The dims as a list, {@link #DYNAMIC} for a dynamic one. */
  public List<Long> dimList() {
    requireRanked();
    Long[] boxed = new Long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      boxed[i] = dims[i];
    }
    return List.of(boxed);
  }

  /** Dimension {@code axis}, or {@link #DYNAMIC}. */
  public long dim(int axis) {
    requireRanked();
    return dims[axis];
  }

  /** True when dimension {@code axis} is dynamic. */
  public boolean isDynamic(int axis) {
    return dim(axis) == DYNAMIC;
  }

  /** True when ranked and every dim is static. */
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

  /** The element count of a static shape (1 for rank 0); empty if not static or it overflows. */
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
    if (!(o instanceof Shape)) {
      return false;
    }
    return Arrays.equals(dims, ((Shape) o).dims);
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
