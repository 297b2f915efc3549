package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.SipNode;
import dev.ireestubs.processor.model.ComponentBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.printing.Code;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the V0 structured ABI: Java structures to and from the raw VM slots, walking a value's
 * binding alongside its SIP node; each leaf fills or reads the raw slot its index names.
 */
final class SipCode {

  private final MethodScope scope;
  private final ValueCode values;

  SipCode(MethodScope scope, ValueCode values) {
    this.scope = scope;
    this.values = values;
  }

  /** Emits the statements that put {@code value} into the raw slots of {@code node}'s leaves. */
  void flatten(ValueBinding b, SipNode node, Code value, String arguments) {
    if (node instanceof SipNode.Leaf leaf) {
      int slot = leaf.rawIndex();
      scope.statement("$N.set($L, $L)", arguments, slot, values.encode(b, value));
      return;
    }
    List<SipNode> children = children(node);
    if (b instanceof RecordBinding r) {
      String record = values.local(r.record(), value, r.path());
      for (int i = 0; i < children.size(); i++) {
        ComponentBinding c = r.components().get(i);
        flatten(c.binding(), children.get(i), Code.of("$N.$N()", record, c.accessor()), arguments);
      }
      return;
    }
    if (b instanceof MapBinding m) {
      String map = values.requireKeys(m, value);
      for (int i = 0; i < children.size(); i++) {
        Code entry = Code.of("$N.get($L)", map, scope.text(m.keys().get(i)));
        flatten(m.values().get(i), children.get(i), entry, arguments);
      }
      return;
    }
    ListBinding l = (ListBinding) b;
    String list = values.local(l.javaType(), value, null);
    scope.statement(
        "$T.requireSize($N, $L, $L)",
        ValueCode.MARSHAL,
        list,
        children.size(),
        scope.path(l.path()));
    for (int i = 0; i < children.size(); i++) {
      flatten(l.element(), children.get(i), Code.of("$N.get($L)", list, i), arguments);
    }
  }

  /** Emits what the value of {@code node}'s raw results needs and returns its Java expression. */
  Code decode(ValueBinding b, SipNode node, String results) {
    if (node instanceof SipNode.Leaf leaf) {
      return values.decode(b, results, Code.of("$L", leaf.rawIndex()));
    }
    List<SipNode> children = children(node);
    if (b instanceof RecordBinding r) {
      return values.construct(
          r, i -> decode(r.components().get(i).binding(), children.get(i), results));
    }
    if (b instanceof MapBinding m) {
      return values.collect(m, i -> decode(m.values().get(i), children.get(i), results));
    }
    ListBinding l = (ListBinding) b;
    String out = scope.local(scope.baseName(l.path()) + "Values");
    TypeName element = l.element().javaType().box();
    scope.statement(
        "$T $N = new $T($L)",
        ParameterizedTypeName.get(ValueCode.LIST, element),
        out,
        ParameterizedTypeName.get(ValueCode.ARRAY_LIST, element),
        children.size());
    for (SipNode child : children) {
      scope.statement("$N.add($L)", out, decode(l.element(), child, results));
    }
    return ValueCode.unmodifiableList(element, out);
  }

  private static List<SipNode> children(SipNode node) {
    List<SipNode> out = new ArrayList<>();
    if (node instanceof SipNode.Sequence sequence) {
      sequence.entries().forEach(e -> out.add(e.node()));
    } else {
      ((SipNode.Dict) node).entries().forEach(e -> out.add(e.node()));
    }
    return out;
  }
}
