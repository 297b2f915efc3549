package dev.ireestubs.vm;

import java.util.Arrays;
import java.util.Objects;

/**
 * An n-d array of refs (of strings, buffer views, lists...) in the VM's form: the tuple (list of
 * values, list of dims), i.e. a variant list of two lists. The values are in row-major order; the
 * dims list is a {@code list<i64>} (dims are {@code index} values, 64-bit in the VM).
 *
 * <p>{@link #pack} builds the tuple and {@link #unpack} reads one back, checking that the product
 * of the dims is the number of values. An instance is a checked pair of the values list (shared,
 * not copied) and the dims (copied); it does not notice later changes to the values list, so {@link
 * #toList()} checks the count again. Thread safety is that of the values list.
 */
public final class VmRefArray {

  private final VmList values;
  private final long[] dims;

  private VmRefArray(VmList values, long[] dims) {
    this.values = values;
    this.dims = dims;
  }

  /**
   * A ref array of {@code values} (row-major) with shape {@code dims}.
   *
   * @param values the elements in row-major order, shared
   * @param dims the shape
   * @return the checked pair
   * @throws IllegalArgumentException when a dim is negative or the product of the dims (the element
   *     count) is not {@code values.size()}
   */
  public static VmRefArray of(VmList values, long... dims) {
    Objects.requireNonNull(values, "values");
    long[] copy = dims.clone();
    check(values, copy);
    return new VmRefArray(values, copy);
  }

  /**
   * The tuple form of {@code values} with shape {@code dims}: {@code [values, list<i64>[dims...]]}.
   *
   * @param values the elements in row-major order
   * @param dims the shape
   * @return a new two-element variant list, the VM form of the array
   * @throws IllegalArgumentException when a dim is negative or the dims do not multiply to the
   *     number of values
   */
  public static VmList pack(VmList values, long... dims) {
    return of(values, dims).toList();
  }

  /**
   * The ref array a tuple holds: a list of exactly two lists, the values and the dims; the dims may
   * be in any list of integer values ({@code list<i64>}, {@code list<i32>}, or a variant list of
   * integers).
   *
   * @param tuple the VM form of a ref array
   * @return the pair of values list and dims it holds
   * @throws VmTypeException when {@code tuple} is not a list of two lists, or a dim is not an
   *     integer value
   * @throws IllegalArgumentException when a dim is negative or the dims do not multiply to the
   *     number of values
   */
  public static VmRefArray unpack(VmList tuple) {
    if (tuple.size() != 2) {
      throw new VmTypeException(
          "a ref n-d array is the tuple (values list, dims list); got a list of size "
              + tuple.size());
    }
    VmList values = tuple.getList(0);
    VmList dimList = tuple.getList(1);
    long[] dims = new long[dimList.size()];
    for (int i = 0; i < dims.length; i++) {
      VmValue d = dimList.getValue(i);
      if (!d.isInteger()) {
        throw new VmTypeException("dim " + i + " of a ref n-d array is " + d + ", not an integer");
      }
      dims[i] = d.asI64();
    }
    check(values, dims);
    return new VmRefArray(values, dims);
  }

  private static void check(VmList values, long[] dims) {
    long count = 1;
    for (long d : dims) {
      if (d < 0) {
        throw new IllegalArgumentException(
            "negative dim in ref n-d array shape " + Arrays.toString(dims));
      }
      try {
        count = Math.multiplyExact(count, d);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(
            "ref n-d array shape " + Arrays.toString(dims) + " is too large");
      }
    }
    if (count != values.size()) {
      throw new IllegalArgumentException(
          "a ref n-d array of shape "
              + Arrays.toString(dims)
              + " has "
              + count
              + " elements, but the values list has "
              + values.size());
    }
  }

  /**
   * The values list, row-major; shared, not copied.
   *
   * @return the values list the array was made with
   */
  public VmList values() {
    return values;
  }

  /**
   * The dims; a copy.
   *
   * @return a new array of the dims
   */
  public long[] dims() {
    return dims.clone();
  }

  /**
   * The rank.
   *
   * @return the number of dims
   */
  public int rank() {
    return dims.length;
  }

  /**
   * The number of elements, the product of the dims.
   *
   * @return how many values the shape holds
   */
  public long elementCount() {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return n;
  }

  /**
   * The tuple form: a new variant list {@code [values, list<i64>[dims...]]} holding the values list
   * itself (not a copy).
   *
   * @return a new variant list of the values list and a new dims list
   * @throws IllegalArgumentException when the values list no longer has {@link #elementCount()}
   *     elements
   */
  public VmList toList() {
    check(values, dims);
    VmList dimList = VmList.ofValues(VmValueType.I64, dims.length);
    for (long d : dims) {
      dimList.pushValue(VmValue.i64(d));
    }
    return VmList.of(values, dimList);
  }

  /** True for a ref array with equal values (structurally) and equal dims. */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof VmRefArray that)) {
      return false;
    }

    return Arrays.equals(dims, that.dims) && values.equals(that.values);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(dims) + values.hashCode();
  }

  /** The shape and the values, e.g. {@code refarray<2x1>[hal.fence@1b6d3586, null]}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("refarray<");
    for (int i = 0; i < dims.length; i++) {
      sb.append(i > 0 ? "x" : "").append(dims[i]);
    }
    return sb.append('>').append(values).toString();
  }
}
