package dev.ireestubs.invoke;

import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.VmResource;
import java.util.Collection;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The parts of a Java value, walked as encoding reads it (lists and other collections, maps,
 * records, {@code Object[]}, to {@link AbiValues#MAX_DEPTH} levels), for what is done with the
 * arrays and VM resources of a value once a call is done with it: {@link AbiValues#packResults}
 * hands a function's returned arrays over (or closes them when packing failed), and {@link
 * AsyncSubmission} releases a decoded value nobody took.
 */
final class ValueWalk {

  private ValueWalk() {}

  /** Runs {@code action} on each part of {@code value} that is none of the containers above. */
  static void forEachPart(Object value, Consumer<Object> action) {
    walk(value, 0, action);
  }

  private static void walk(Object value, int depth, Consumer<Object> action) {
    if (value == null || depth > AbiValues.MAX_DEPTH) {
      return;
    }
    if (value instanceof Collection<?> values) {
      for (Object element : values) {
        walk(element, depth + 1, action);
      }
    } else if (value instanceof Map<?, ?> map) {
      for (Object element : map.values()) {
        walk(element, depth + 1, action);
      }
    } else if (value instanceof Object[] array) {
      for (Object element : array) {
        walk(element, depth + 1, action);
      }
    } else if (value instanceof Record record) {
      Map<String, Object> components;
      try {
        components = RecordComponents.of(record, null, Side.RESULT);
      } catch (RuntimeException unreadable) {
        return; // an accessor we may not call (a record of a module we cannot read): nothing read
      }
      walk(components.values(), depth + 1, action);
    } else {
      action.accept(value);
    }
  }

  /**
   * Hands over an array a function returned ({@link NdArray#handOver()}: nothing for views, arrays
   * over lent memory or a caller's buffer, and an array seen already in this value).
   */
  static void handOver(Object part) {
    if (part instanceof NdArray array) {
      array.handOver();
    }
  }

  /** Closes an array a function returned unless it is over lent memory (a function's argument). */
  static void closeOwned(Object part) {
    if (part instanceof NdArray array && !array.isBorrowed()) {
      array.close();
    }
  }

  /** Closes an array or VM resource of a decoded value nobody took. */
  static void close(Object part) {
    if (part instanceof NdArray array) {
      array.close();
    } else if (part instanceof VmResource resource) {
      resource.close();
    }
  }
}
