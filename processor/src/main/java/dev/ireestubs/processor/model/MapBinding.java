package dev.ireestubs.processor.model;

import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import java.util.List;
import java.util.Objects;

/**
 * An {@code sdict} whose values all bind to one Java type {@code V}, as {@code
 * java.util.Map<String, V>}. Its VM form is a variant list of the values in descriptor order (the
 * sdict's key order). Arguments must have exactly the sdict's keys (checked at run time); results
 * are an unmodifiable map in descriptor order.
 *
 * @param type the sdict
 * @param javaType {@code Map<String, V>}
 * @param keys the sdict's keys, in descriptor order
 * @param values the binding of each key's value, in the same order; paths {@code "fn: d.key"}
 * @param path the run-time path
 */
public record MapBinding(
    AbiType.Dict type, TypeName javaType, List<String> keys, List<ValueBinding> values, String path)
    implements ValueBinding {
  public MapBinding {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(javaType, "javaType");
    keys = List.copyOf(keys);
    values = List.copyOf(values);
    Objects.requireNonNull(path, "path");
    if (!keys.equals(type.keys())) {
      throw new IllegalArgumentException(
          "keys " + keys + " differ from the sdict's " + type.keys());
    }
    if (values.size() != keys.size()) {
      throw new IllegalArgumentException(
          values.size() + " value bindings for " + keys.size() + " keys");
    }
  }

  /**
   * True when the values are leaves that marshal alike (scalars of one VM width, arrays of one
   * class, refs of one kind), so a stub marshals them in one loop over the keys, whatever their
   * number; their descriptors, when they have any, are those of the sdict's entries.
   */
  public boolean hasLeafValues() {
    if (values.isEmpty()) {
      return false; // nothing to loop over
    }
    ValueBinding first = values.get(0);
    for (ValueBinding v : values) {
      if (!marshalsAlike(first, v)) {
        return false;
      }
    }
    return true;
  }

  private static boolean marshalsAlike(ValueBinding a, ValueBinding b) {
    // Scalars of one Java type have one VM width (the Java type is the width's primitive).
    if (a instanceof ScalarBinding || a instanceof ArrayBinding || a instanceof JavaArrayBinding) {
      return a.getClass() == b.getClass() && a.javaType().equals(b.javaType());
    }
    if (a instanceof RefBinding && b instanceof RefBinding) {
      return (a.type() instanceof AbiType.Any) == (b.type() instanceof AbiType.Any)
          && a.javaType().equals(b.javaType());
    }
    return false;
  }
}
