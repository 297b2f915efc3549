package dev.ireestubs.vmfb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An ordered, immutable list of key/value string attributes: a function's reflection attributes or
 * a module's attributes, in the order the module stores them (IREE's compiler sorts them by key). A
 * key may repeat in a hand-made module; lookups then return the first, as IREE's runtime does.
 */
public final class VmfbAttributes {

  private static final VmfbAttributes EMPTY = new VmfbAttributes(List.of());

  private final List<Entry> entries;
  private final Map<String, String> map;

  private VmfbAttributes(List<Entry> entries) {
    this.entries = entries;
    Map<String, String> m = new LinkedHashMap<>();
    for (Entry e : entries) {
      m.putIfAbsent(e.key(), e.value());
    }
    this.map = Collections.unmodifiableMap(m);
  }

  /** One attribute. */
  public record Entry(String key, String value) {
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return key + "=" + value;
    }
  }

  /** No attributes. */
  public static VmfbAttributes empty() {
    return EMPTY;
  }

  /** These entries, in order. */
  public static VmfbAttributes of(List<Entry> entries) {
    return entries.isEmpty() ? EMPTY : new VmfbAttributes(List.copyOf(entries));
  }

  /**
   * Alternating keys and values, e.g. {@code of("fv", "1", "f", "I1!R1!")}.
   *
   * @throws IllegalArgumentException when the count is odd
   */
  public static VmfbAttributes of(String... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException(
          "expected alternating keys and values, got an odd count " + keysAndValues.length);
    }
    List<Entry> list = new ArrayList<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      list.add(new Entry(keysAndValues[i], keysAndValues[i + 1]));
    }
    return of(list);
  }

  /** The entries in stored order. */
  public List<Entry> entries() {
    return entries;
  }

  /** The value of the first entry with this key. */
  public Optional<String> get(String key) {
    return Optional.ofNullable(map.get(key));
  }

  /** Whether some entry has this key. */
  public boolean containsKey(String key) {
    return map.containsKey(key);
  }

  /** Key to value in stored order, the first entry winning for a repeated key; unmodifiable. */
  public Map<String, String> asMap() {
    return map;
  }

  /** The number of entries (repeated keys counted). */
  public int size() {
    return entries.size();
  }

  /** Whether there are no entries. */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VmfbAttributes && ((VmfbAttributes) o).entries.equals(entries);
  }

  @Override
  public int hashCode() {
    return entries.hashCode();
  }

  /** E.g. {@code {fv=1, f=I1!R1!}}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < entries.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(entries.get(i));
    }
    return sb.append('}').toString();
  }
}
