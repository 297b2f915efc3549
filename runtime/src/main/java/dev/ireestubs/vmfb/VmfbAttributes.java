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

  /**
   * One attribute.
   *
   * @param key the attribute's name, such as {@code iree.abi}
   * @param value the attribute's text
   */
  public record Entry(String key, String value) {
    /**
     * Refuses a null key or value.
     *
     * @param key the attribute's name, such as {@code iree.abi}
     * @param value the attribute's text
     */
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return key + "=" + value;
    }
  }

  /**
   * No attributes.
   *
   * @return an attribute list with no entries
   */
  public static VmfbAttributes empty() {
    return EMPTY;
  }

  /**
   * These entries, in order.
   *
   * @param entries the attributes in stored order, repeated keys allowed
   * @return an attribute list holding a copy of {@code entries}
   */
  public static VmfbAttributes of(List<Entry> entries) {
    return entries.isEmpty() ? EMPTY : new VmfbAttributes(List.copyOf(entries));
  }

  /**
   * Alternating keys and values, e.g. {@code of("fv", "1", "f", "I1!R1!")}.
   *
   * @param keysAndValues a key, its value, the next key, and so on
   * @return an attribute list of those pairs, in the order given
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

  /**
   * The entries in stored order.
   *
   * @return every entry, repeated keys included; unmodifiable
   */
  public List<Entry> entries() {
    return entries;
  }

  /**
   * The value of the first entry with this key.
   *
   * @param key the attribute name, such as {@code iree.abi}
   * @return its value, or empty when no entry has that key
   */
  public Optional<String> get(String key) {
    return Optional.ofNullable(map.get(key));
  }

  /**
   * Whether some entry has this key.
   *
   * @param key the attribute name
   * @return true when at least one entry has that key
   */
  public boolean containsKey(String key) {
    return map.containsKey(key);
  }

  /**
   * Key to value in stored order, the first entry winning for a repeated key; unmodifiable.
   *
   * @return the attributes as a map, for lookups that do not care about repeated keys
   */
  public Map<String, String> asMap() {
    return map;
  }

  /**
   * The number of entries (repeated keys counted).
   *
   * @return how many entries were stored
   */
  public int size() {
    return entries.size();
  }

  /**
   * Whether there are no entries.
   *
   * @return true when the module stored no attribute here
   */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VmfbAttributes vmfbAttributes && vmfbAttributes.entries.equals(entries);
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
