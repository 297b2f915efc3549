package dev.ireestubs.invoke;

import dev.ireestubs.ndarray.NdArray;
import java.util.Collection;
import java.util.Map;

/**
 * What {@link AbiValues#packResults} does with the n-d arrays of a function's Java value once it is
 * packed: hands them over to the result list, or, when packing failed, closes them. Walks the value
 * as encoding reads it: lists, maps, records and {@code Object[]}, to {@link AbiValues#MAX_DEPTH}
 * levels.
 */
final class ResultArrays {

  private ResultArrays() {}

  /**
   * Hands over ({@code handOver} true) or closes every array in {@code value} that the result list
   * would take over: arrays over lent memory (a function's arguments) are left alone either way, as
   * {@link NdArray#handOver()} and the closing of a view leave views alone.
   */
  static void release(Object value, int depth, boolean handOver) {
    if (value == null || depth > AbiValues.MAX_DEPTH) {
      return;
    }
    if (value instanceof NdArray array) {
      if (handOver) {
        array.handOver(); // false, and nothing done, for an array seen already in this value
      } else if (!array.isBorrowed()) {
        array.close();
      }
    } else if (value instanceof Collection<?> values) {
      for (Object element : values) {
        release(element, depth + 1, handOver);
      }
    } else if (value instanceof Map<?, ?> map) {
      for (Object element : map.values()) {
        release(element, depth + 1, handOver);
      }
    } else if (value instanceof Object[] array) {
      for (Object element : array) {
        release(element, depth + 1, handOver);
      }
    } else if (value instanceof Record record) {
      Map<String, Object> components;
      try {
        components = AbiValues.recordComponents(record, null);
      } catch (IreeValueException unreadable) {
        return; // packing read it; a record that fails now has nothing packed to release
      }
      release(components.values(), depth + 1, handOver);
    }
  }
}
