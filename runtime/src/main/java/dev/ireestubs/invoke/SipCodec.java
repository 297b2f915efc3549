package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.abi.SipNode;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.vm.VmList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The codec of the V0 structured (SIP) ABI: positional values fill a root sequence of the inputs in
 * key order, named values a root dict by key; each leaf goes to the raw slot its index names and is
 * marshalled as {@link AbiValues} marshals the raw type. Results are rebuilt: the value of a root
 * leaf, a {@code List} for a sequence, a {@code Map} for a dict (nested the same way).
 */
final class SipCodec implements CallCodec {

  private final SipStructure structure;

  SipCodec(SipStructure structure) {
    this.structure = Objects.requireNonNull(structure, "structure");
  }

  SipStructure structure() {
    return structure;
  }

  @Override
  public VmList encodeArguments(String name, List<?> positional, Map<String, ?> named) {
    List<AbiType> rawTypes = structure.raw().arguments();
    Object[] slots = new Object[rawTypes.size()];
    if (structure.inputs().isPresent()) {
      placeRoot(name, structure.inputs().get(), positional, named, slots, rawTypes);
    } else if (!positional.isEmpty() || !named.isEmpty()) {
      throw IreeValueException.of(Side.ARGUMENT, name, "the function takes no arguments");
    }
    VmList list = VmList.variant(slots.length);
    for (Object slot : slots) {
      list.push(slot);
    }
    return list;
  }

  private void placeRoot(
      String name,
      SipNode root,
      List<?> positional,
      Map<String, ?> named,
      Object[] slots,
      List<AbiType> rawTypes) {
    if (root instanceof SipNode.Dict dict) {
      if (!positional.isEmpty()) {
        throw IreeValueException.of(
            Side.ARGUMENT,
            name,
            "the inputs are a dict of keyword arguments "
                + dict.keys()
                + "; pass them by name, not "
                + positional.size()
                + " positional");
      }
      place(name, root, named, name + ": ", slots, rawTypes, true);
    } else if (root instanceof SipNode.Sequence) {
      if (!named.isEmpty()) {
        throw IreeValueException.of(
            Side.ARGUMENT,
            name,
            "the inputs are positional; no argument is named " + named.keySet());
      }
      place(name, root, positional, name + ": ", slots, rawTypes, true);
    } else {
      if (positional.size() != 1 || !named.isEmpty()) {
        throw IreeValueException.of(Side.ARGUMENT, name, "expected exactly 1 positional argument");
      }
      place(name, root, positional.get(0), name + ": arg0", slots, rawTypes, false);
    }
  }

  private static void place(
      String name,
      SipNode node,
      Object value,
      String path,
      Object[] slots,
      List<AbiType> rawTypes,
      boolean root) {
    if (node instanceof SipNode.Leaf leaf) {
      int index = leaf.rawIndex();
      slots[index] = AbiValues.encode(rawTypes.get(index), value, path);
      return;
    }
    if (node instanceof SipNode.Sequence sequence) {
      List<SipNode.SequenceEntry> entries = sequence.entries();
      List<?> values = sequenceValues(value, path);
      if (values.size() != entries.size()) {
        throw IreeValueException.of(
            Side.ARGUMENT,
            root ? name : path,
            "expected "
                + entries.size()
                + (root ? " positional arguments" : " elements")
                + " but got "
                + values.size());
      }
      for (int i = 0; i < entries.size(); i++) {
        int key = entries.get(i).key();
        String child = root ? path + "arg" + key : path + "[" + key + "]";
        place(name, entries.get(i).node(), values.get(i), child, slots, rawTypes, false);
      }
      return;
    }
    SipNode.Dict dict = (SipNode.Dict) node;
    Map<?, ?> map = dictValues(value, dict.keys(), path);
    String problem = ValueChecks.keysProblem(map, dict.keys());
    if (problem != null) {
      throw IreeValueException.of(Side.ARGUMENT, root ? name : path, problem);
    }
    for (SipNode.DictEntry e : dict.entries()) {
      String child = root ? path + e.key() : path + "." + e.key();
      place(name, e.node(), map.get(e.key()), child, slots, rawTypes, false);
    }
  }

  private static List<?> sequenceValues(Object value, String path) {
    if (value instanceof List) {
      return (List<?>) value;
    }
    if (value instanceof Record record) {
      return new ArrayList<>(RecordComponents.of(record, path, Side.ARGUMENT).values());
    }
    throw IreeValueException.of(
        Side.ARGUMENT,
        path,
        "expected a List or a record for a SIP sequence but got " + JavaMapping.typeName(value));
  }

  private static Map<?, ?> dictValues(Object value, List<String> keys, String path) {
    if (value instanceof Map) {
      return (Map<?, ?>) value;
    }
    if (value instanceof Record record) {
      return RecordComponents.byKeys(
          record, keys, path, Side.ARGUMENT); // names or camelCase, as stubs
    }
    throw IreeValueException.of(
        Side.ARGUMENT,
        path,
        "expected a Map or a record for a SIP dict but got " + JavaMapping.typeName(value));
  }

  @Override
  public Object decodeResults(String name, VmList results) {
    List<AbiType> rawTypes = structure.raw().results();
    ValueChecks.results(results, rawTypes.size(), name); // closes the list when the count is wrong
    try {
      if (structure.results().isEmpty()) {
        return null;
      }
      return build(structure.results().get(), results, rawTypes, name + ": result");
    } catch (RuntimeException e) {
      throw ValueChecks.closeOnFailure(
          results, e); // the caller never sees the list: release its refs
    }
  }

  private static Object build(SipNode node, VmList results, List<AbiType> rawTypes, String path) {
    if (node instanceof SipNode.Leaf leaf) {
      int index = leaf.rawIndex();
      return AbiValues.decode(rawTypes.get(index), results.get(index), path);
    }
    if (node instanceof SipNode.Sequence sequence) {
      List<Object> out = new ArrayList<>();
      for (SipNode.SequenceEntry e : sequence.entries()) {
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

  @Override
  public String toString() {
    return "SIP " + structure.signature();
  }
}
