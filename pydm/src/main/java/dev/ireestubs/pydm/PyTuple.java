package dev.ireestubs.pydm;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A Python tuple: an immutable {@link java.util.List} that the {@linkplain PyObjects codec} writes
 * with type code {@code Tuple}, where any other {@code List} is written as a {@code List}. Decoding
 * a {@code Tuple} record gives a {@code PyTuple}, a {@code List} record an unmodifiable plain list,
 * so the two survive a round trip.
 *
 * <p>Elements may be {@code null} (Python {@code None}). As the {@code List} contract requires, a
 * tuple {@linkplain #equals equals} any list with equal elements; test {@code instanceof PyTuple}
 * to tell a tuple from a list.
 */
public final class PyTuple extends AbstractList<Object> implements RandomAccess {

  private static final PyTuple EMPTY = new PyTuple(new Object[0]);

  private final Object[] elements;

  private PyTuple(Object[] elements) {
    this.elements = elements;
  }

  /**
   * The tuple of {@code elements} (copied; {@code null}s allowed).
   *
   * @param elements the tuple's elements, in order
   * @return a new immutable tuple
   */
  public static PyTuple of(Object... elements) {
    Objects.requireNonNull(elements, "elements");
    return elements.length == 0 ? EMPTY : new PyTuple(elements.clone());
  }

  /**
   * The tuple of the elements of {@code elements}, in iteration order (copied).
   *
   * @param elements the tuple's elements
   * @return a new immutable tuple
   */
  public static PyTuple copyOf(Collection<?> elements) {
    if (elements instanceof PyTuple pyTuple) {
      return pyTuple;
    }
    Object[] copy = Objects.requireNonNull(elements, "elements").toArray();
    return copy.length == 0 ? EMPTY : new PyTuple(copy);
  }

  @Override
  public Object get(int index) {
    Objects.checkIndex(index, elements.length);
    return elements[index];
  }

  @Override
  public int size() {
    return elements.length;
  }

  @Override
  public Object[] toArray() {
    return elements.clone();
  }

  /** Python's form: {@code ()}, {@code (1,)}, {@code (1, 2)}. */
  @Override
  public String toString() {
    if (elements.length == 1) {
      return "(" + elements[0] + ",)";
    }
    String inner = Arrays.toString(elements);
    return "(" + inner.substring(1, inner.length() - 1) + ")";
  }
}
