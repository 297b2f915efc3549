package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.invoke.IreeValueException.Side;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The component values of a record passed where a structure is declared, read through accessors
 * looked up once per record class: in component order for an {@code slist}/{@code stuple}, by the
 * dict key each stands for (the key or its camelCase form, as generated stubs name components) for
 * an {@code sdict}. Read by {@link ValueEncoder}, {@link SipCodec} and {@link ValueWalk}.
 */
final class RecordComponents {

  private RecordComponents() {}

  /** The component named {@code key}, or named as its camelCase form ({@code class_ids}). */
  static String match(Map<String, Object> components, String key) {
    if (components.containsKey(key)) {
      return key;
    }
    String camel = AbiType.Dict.camelCase(key);
    return components.containsKey(camel) ? camel : null;
  }

  /**
   * A record's component values by the dict key each stands for (the key itself or its camelCase
   * form), plus the components no key claims, under their own names (so a key check reports them).
   */
  static Map<String, Object> byKeys(Record record, List<String> keys, String path, Side side) {
    Map<String, Object> components = of(record, path, side);
    Map<String, Object> out = new LinkedHashMap<>();
    for (String key : keys) {
      String component = match(components, key);
      if (component != null) {
        out.put(key, components.remove(component));
      }
    }
    out.putAll(components);
    return out;
  }

  /**
   * A record's component values by component name, in component order.
   *
   * @throws IreeValueException (on {@code side}: an argument, or a host function's result) when a
   *     component cannot be read
   */
  static Map<String, Object> of(Record record, String path, Side side) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Accessor c : ACCESSORS.get(record.getClass())) {
      try {
        if (c.inaccessible != null) {
          throw c.inaccessible;
        }
        values.put(c.name, c.method.invoke(record));
      } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
        throw IreeValueException.of(
            side,
            path,
            "cannot read component "
                + c.name
                + " of record "
                + JavaMapping.typeName(record)
                + ": "
                + e);
      }
    }
    return values;
  }

  /** A record component's accessor, looked up and made accessible once per record class. */
  private static final class Accessor {
    final String name;
    final java.lang.reflect.Method method;
    final RuntimeException inaccessible; // why setAccessible failed, reported at each call

    Accessor(RecordComponent component) {
      this.name = component.getName();
      this.method = component.getAccessor();
      RuntimeException failure = null;
      try {
        method.setAccessible(true);
      } catch (RuntimeException e) {
        failure = e;
      }
      this.inaccessible = failure;
    }
  }

  /** The accessors of each record class, in component order: no reflective lookup per call. */
  private static final ClassValue<Accessor[]> ACCESSORS =
      new ClassValue<>() {
        @Override
        protected Accessor[] computeValue(Class<?> type) {
          RecordComponent[] components = type.getRecordComponents();
          Accessor[] accessors = new Accessor[components.length];
          for (int i = 0; i < components.length; i++) {
            accessors[i] = new Accessor(components[i]);
          }
          return accessors;
        }
      };
}
