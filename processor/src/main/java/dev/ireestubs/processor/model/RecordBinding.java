package dev.ireestubs.processor.model;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.abi.AbiType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An {@code sdict}, {@code slist} or {@code stuple} as a Java record. Its VM form is a variant list
 * of the component values in {@link #components()} order.
 *
 * @param type an {@link AbiType.Dict} or {@link AbiType.Sequence}
 * @param record the record class
 * @param components one per key or element, in DESCRIPTOR order (the VM list order: the sdict's key
 *     order, which is not necessarily the record's declaration order)
 * @param path the run-time path
 * @param constructorOrder the record's component names in declaration order, i.e. the order of the
 *     canonical constructor's parameters (a permutation of the components' accessors)
 */
public record RecordBinding(
    AbiType type,
    ClassName record,
    List<ComponentBinding> components,
    String path,
    List<String> constructorOrder)
    implements ValueBinding {
  public RecordBinding {
    Objects.requireNonNull(type, "type");
    if (!(type instanceof AbiType.Dict) && !(type instanceof AbiType.Sequence)) {
      throw new IllegalArgumentException("a record binds an sdict, slist or stuple: " + type);
    }
    Objects.requireNonNull(record, "record");
    components = List.copyOf(components);
    Objects.requireNonNull(path, "path");
    constructorOrder = List.copyOf(constructorOrder);
    List<String> accessors = accessors(components);
    // Usually the orders agree, and then nothing need be sorted.
    if (!accessors.equals(constructorOrder)
        && !sorted(accessors).equals(sorted(constructorOrder))) {
      throw new IllegalArgumentException(
          "constructorOrder " + constructorOrder + " is not a permutation of " + sorted(accessors));
    }
  }

  /** A record whose declaration order is the descriptor order (always so for sequences). */
  public RecordBinding(
      AbiType type, ClassName record, List<ComponentBinding> components, String path) {
    this(type, record, components, path, accessors(components));
  }

  private static List<String> sorted(List<String> names) {
    List<String> out = new ArrayList<>(names);
    out.sort(null);
    return out;
  }

  /** The components' accessors, in descriptor order. */
  private static List<String> accessors(List<ComponentBinding> components) {
    List<String> out = new ArrayList<>(components.size());
    for (ComponentBinding c : components) {
      out.add(c.accessor());
    }
    return out;
  }

  @Override
  public ClassName javaType() {
    return record;
  }

  /** The components in the canonical constructor's order, for building a record from results. */
  public List<ComponentBinding> componentsInConstructorOrder() {
    Map<String, ComponentBinding> byAccessor =
        components.stream()
            .collect(Collectors.toMap(ComponentBinding::accessor, Function.identity()));
    List<ComponentBinding> out = new ArrayList<>();
    for (String name : constructorOrder) {
      out.add(byAccessor.get(name));
    }
    return out;
  }
}
