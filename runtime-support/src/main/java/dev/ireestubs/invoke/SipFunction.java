package dev.ireestubs.invoke;

import dev.ireestubs.internal.Marshal;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.SipNode;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.vm.VmList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A function of the deprecated V0 structured (SIP) ABI called with Java values: nested maps (dict
 * keys), lists (sequence positions) and records go in, each leaf is placed in the raw slot its index
 * names, the flat raw list goes to the VM, and the raw results are rebuilt into the result
 * structure. Leaves are marshalled as {@link AbiValues} marshals the raw type, with the same checks
 * and messages.
 *
 * <pre>{@code
 * SipFunction predict = SipFunction.of(backend.function("module.predict"), structure);
 * Object out = predict.call(List.of(image), Map.of());
 * }</pre>
 *
 * <p>Thread-safe when its backend is: it holds no mutable state.
 */
public final class SipFunction {

  private final BackendFunction function;
  private final SipStructure structure;
  private final String name;

  private SipFunction(BackendFunction function, SipStructure structure) {
    this.function = Objects.requireNonNull(function, "function");
    this.structure = Objects.requireNonNull(structure, "structure");
    String qualified = function.qualifiedName();
    this.name = qualified.substring(qualified.indexOf('.') + 1);
  }

  /** {@code function}, called through {@code structure}. */
  public static SipFunction of(BackendFunction function, SipStructure structure) {
    return new SipFunction(function, structure);
  }

  /** The structure that drives flattening. */
  public SipStructure structure() {
    return structure;
  }

  /**
   * Calls the function: {@code positional} values fill a root sequence of the inputs in key order,
   * {@code named} values a root dict by key.
   *
   * @return null for no results, the value of a root leaf, a {@code List} for a root sequence, a
   *     {@code Map} for a root dict (nested the same way)
   */
  public Object call(List<?> positional, Map<String, ?> named) {
    VmList raw = flatten(positional, named);
    VmList results = function.invoke(raw);
    return rebuild(results);
  }

  /** The flat raw argument list for these values, in raw-index order. */
  public VmList flatten(List<?> positional, Map<String, ?> named) {
    List<AbiType> rawTypes = structure.raw().arguments();
    Object[] slots = new Object[rawTypes.size()];
    if (structure.inputs().isPresent()) {
      SipNode root = structure.inputs().get();
      if (root instanceof SipNode.Dict) {
        if (!positional.isEmpty()) {
          throw Marshal.fail(Side.ARGUMENT, 
              name,
              "the inputs are a dict of keyword arguments "
                  + ((SipNode.Dict) root).keys()
                  + "; pass them by name, not "
                  + positional.size()
                  + " positional");
        }
        place(root, named, name + ": ", slots, rawTypes, true);
      } else if (root instanceof SipNode.Sequence) {
        if (!named.isEmpty()) {
          throw Marshal.fail(Side.ARGUMENT, 
              name, "the inputs are positional; no argument is named " + named.keySet());
        }
        place(root, positional, name + ": ", slots, rawTypes, true);
      } else {
        if (positional.size() != 1 || !named.isEmpty()) {
          throw Marshal.fail(Side.ARGUMENT, name, "expected exactly 1 positional argument");
        }
        place(root, positional.get(0), name + ": arg0", slots, rawTypes, false);
      }
    } else if (!positional.isEmpty() || !named.isEmpty()) {
      throw Marshal.fail(Side.ARGUMENT, name, "the function takes no arguments");
    }
    VmList list = VmList.variant(slots.length);
    for (Object slot : slots) {
      list.push(slot);
    }
    return list;
  }

  private void place(
      SipNode node, Object value, String path, Object[] slots, List<AbiType> rawTypes, boolean root) {
    if (node instanceof SipNode.Leaf) {
      int index = ((SipNode.Leaf) node).rawIndex();
      slots[index] = AbiValues.encode(rawTypes.get(index), value, path);
      return;
    }
    if (node instanceof SipNode.Sequence) {
      List<SipNode.SequenceEntry> entries = ((SipNode.Sequence) node).entries();
      List<?> values = sequenceValues(value, path);
      if (values.size() != entries.size()) {
        throw Marshal.fail(Side.ARGUMENT, 
            root ? name : path,
            "expected "
                + entries.size()
                + (root ? " positional arguments" : " elements")
                + " but got "
                + values.size());
      }
      for (int i = 0; i < entries.size(); i++) {
        String child = root ? path + "arg" + entries.get(i).key() : path + "[" + entries.get(i).key() + "]";
        place(entries.get(i).node(), values.get(i), child, slots, rawTypes, false);
      }
      return;
    }
    SipNode.Dict dict = (SipNode.Dict) node;
    Map<?, ?> map = dictValues(value, dict.keys(), path);
    String problem = Marshal.keysProblem(map, dict.keys());
    if (problem != null) {
      throw Marshal.fail(Side.ARGUMENT, root ? name : path, problem);
    }
    for (SipNode.DictEntry e : dict.entries()) {
      String child = root ? path + e.key() : path + "." + e.key();
      place(e.node(), map.get(e.key()), child, slots, rawTypes, false);
    }
  }

  private static List<?> sequenceValues(Object value, String path) {
    if (value instanceof List) {
      return (List<?>) value;
    }
    if (value instanceof Record) {
      return new ArrayList<>(AbiValues.recordComponents((Record) value, path).values());
    }
    throw Marshal.fail(Side.ARGUMENT, 
        path, "expected a List or a record for a SIP sequence but got " + describe(value));
  }

  private static Map<?, ?> dictValues(Object value, List<String> keys, String path) {
    if (value instanceof Map) {
      return (Map<?, ?>) value;
    }
    if (value instanceof Record) {
      return AbiValues.recordByKeys((Record) value, keys, path); // names or camelCase, as stubs
    }
    throw Marshal.fail(Side.ARGUMENT, 
        path, "expected a Map or a record for a SIP dict but got " + describe(value));
  }

  private static String describe(Object value) {
    return value == null ? "null" : dev.ireestubs.abi.JavaMapping.typeName(value);
  }

  /** The result structure rebuilt from the raw results. */
  public Object rebuild(VmList results) {
    List<AbiType> rawTypes = structure.raw().results();
    Marshal.results(results, rawTypes.size(), name);
    if (structure.results().isEmpty()) {
      return null;
    }
    return build(structure.results().get(), results, rawTypes, name + ": result");
  }

  private static Object build(SipNode node, VmList results, List<AbiType> rawTypes, String path) {
    if (node instanceof SipNode.Leaf) {
      int index = ((SipNode.Leaf) node).rawIndex();
      return AbiValues.decode(rawTypes.get(index), results.get(index), path);
    }
    if (node instanceof SipNode.Sequence) {
      List<Object> out = new ArrayList<>();
      for (SipNode.SequenceEntry e : ((SipNode.Sequence) node).entries()) {
        out.add(build(e.node(), results, rawTypes, path + "[" + e.key() + "]"));
      }
      return Collections.unmodifiableList(out);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (SipNode.DictEntry e : ((SipNode.Dict) node).entries()) {
      out.put(e.key(), build(e.node(), results, rawTypes, path + "." + e.key()));
    }
    return Collections.unmodifiableMap(out);
  }
}
