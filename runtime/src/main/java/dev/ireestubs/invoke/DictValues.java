package dev.ireestubs.invoke;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The decoded values of an {@code sdict}: an unmodifiable map in descriptor order over two arrays,
 * which is what the dynamic invoker returns for a dict (a few keys, read by name), without the hash
 * table and entry objects of a {@code LinkedHashMap} per call. Equal to any map of the same
 * entries; {@code null} values are allowed (an empty ref slot).
 */
final class DictValues extends AbstractMap<String, Object> {

  private final String[] keys;
  private final Object[] values;

  /** Takes both arrays (not copied): the caller fills them and drops them; keys are distinct. */
  DictValues(String[] keys, Object[] values) {
    this.keys = keys;
    this.values = values;
  }

  @Override
  public int size() {
    return keys.length;
  }

  private int indexOf(Object key) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public Object get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return keys.length;
      }

      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < keys.length;
          }

          @Override
          public Map.Entry<String, Object> next() {
            if (next >= keys.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new AbstractMap.SimpleImmutableEntry<>(keys[i], values[i]);
          }
        };
      }
    };
  }

  @Override
  public int hashCode() {
    int h = 0;
    for (int i = 0; i < keys.length; i++) {
      h += keys[i].hashCode() ^ Objects.hashCode(values[i]);
    }
    return h;
  }
}
