package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.processor.model.ArrayBinding;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ComponentBinding;
import dev.ireestubs.processor.model.JavaArrayBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.ScalarBinding;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.names.Names;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a method's shared body is made of, read from its plan without printing it: {@link
 * SharedBodies} prints one body per shape, not one per method, and methods of equal shapes call it.
 *
 * <p>The shape is every part of the plan the body's code is printed from, but for what a shared
 * body takes as parameters: the function (its name, and the name in front of every path) and the
 * constants. A constant is written as its slot, the order in which the walk first met it, so that
 * two functions whose values name one constant twice and two constants once have other shapes, as
 * their bodies have other parameters. Parts the writer does not print (an n-d array's dimensions,
 * which travel in its descriptor constant) are left out; everything else is in, so that equal
 * shapes print equal bodies ({@code BodyShapeTest} checks this against the printed bodies of every
 * golden and generated module).
 *
 * @param key equal for methods whose shared bodies are equal
 * @param constants the constants of the method's function, by slot
 */
record BodyShape(String key, List<String> constants) {

  /**
   * The shape of {@code plan}'s body, or null when its body cannot be shared (its code names the
   * function: a path not under the function's name, a text too long for a literal, a map marshalled
   * in a loop, whose list of paths is a constant of the function).
   */
  static BodyShape of(CallPlan plan, FunctionConstants constants) {
    if (!(plan instanceof CallPlan.Plain) || constants.hasLongTexts()) {
      return null;
    }
    Walk walk = new Walk(plan.functionName(), constants, SharedBodies.pathNames(plan));
    StringBuilder key = walk.key;
    key.append(plan.rawResultCount()).append('(');
    for (ParameterModel p : plan.parameters()) {
      type(key, p.javaType()).append(' ');
      if (walk.parameters.isEmpty()) {
        key.append(p.javaName()).append(' '); // printed as it is: see Walk.parameters
      }
      if (!walk.path(p.path()) || !walk.binding(p.binding())) {
        return null;
      }
      key.append(',');
    }
    walk.arguments = false; // what follows are results: their paths start with "result"
    key.append(")->");
    ResultModel result = plan.result();
    type(key.append(result.getClass().getSimpleName()).append(' '), result.javaType());
    ValueBinding binding =
        result instanceof ResultModel.Single single
            ? single.binding()
            : result instanceof ResultModel.Inlined inlined ? inlined.binding() : null;
    if (binding != null && !walk.binding(binding)) {
      return null;
    }
    return new BodyShape(key.toString(), List.copyOf(walk.slots.keySet()));
  }

  /** One walk over a plan's bindings, appending to the key. */
  private static final class Walk {
    final StringBuilder key = new StringBuilder();
    final Map<String, Integer> slots = new LinkedHashMap<>();
    private final String function;
    private final FunctionConstants constants;

    /**
     * The names the function's paths give its parameters, to their positions: a shared body is
     * printed in one method's names and takes the others' ({@link MethodScope#renameParameter}), so
     * the shape has positions for them. Empty when a name is empty, holds a {@code .} or {@code [}
     * (a key of a {@code named} argument such as {@code input.0}, which a path could not be told
     * apart from) or repeats another: the shape then spells the names as they are.
     */
    final Map<String, Integer> parameters = new HashMap<>();

    /** True while the arguments are walked: only their paths start with a parameter's name. */
    boolean arguments = true;

    Walk(String function, FunctionConstants constants, List<String> parameterNames) {
      this.function = function;
      this.constants = constants;
      for (String name : parameterNames) {
        if (name.isEmpty()
            || name.indexOf('.') >= 0
            || name.indexOf('[') >= 0
            || parameters.put(name, parameters.size()) != null) {
          parameters.clear();
          break;
        }
      }
    }

    /** Appends {@code b}'s shape; false when it cannot be shared. */
    boolean binding(ValueBinding b) {
      type(key.append(b.getClass().getSimpleName()).append('['), b.javaType())
          .append(' ')
          .append(b.type().getClass().getSimpleName())
          .append(' ');
      if (!path(b.path())) {
        return false;
      }
      if (b instanceof ScalarBinding s) {
        key.append(s.type().element()).append(s.boxed() ? " boxed" : "");
      } else if (b instanceof ArrayBinding arrayBinding) {
        type(key, arrayBinding.arrayClass());
        slot(constants.descriptor(b.type()));
      } else if (b instanceof JavaArrayBinding a) {
        type(key.append(a.rank()).append(' '), a.component());
        slot(constants.descriptor(a.type()));
      } else if (b instanceof RecordBinding r) {
        key.append(r.constructorOrder());
        for (ComponentBinding c : r.components()) {
          if (c.key() != null) {
            text(c.key());
          }
          key.append(c.accessor()).append('=');
          if (!binding(c.binding())) {
            return false;
          }
        }
      } else if (b instanceof ListBinding l) {
        key.append(l.fixedSize()).append(' ');
        if (!binding(l.element())) {
          return false;
        }
      } else if (b instanceof MapBinding m) {
        FunctionConstants.MapConstants map = constants.map(m);
        if (map.loop()) {
          return false;
        }
        slot(map.keys());
        for (int i = 0; i < m.keys().size(); i++) {
          text(m.keys().get(i));
          if (!binding(m.values().get(i))) {
            return false;
          }
        }
      } else {
        key.append(b.type());
      }
      key.append(']');
      return true;
    }

    /** Appends {@code path} relative to the function; false when it is not under its name. */
    boolean path(String path) {
      if (path.equals(function)) {
        key.append("@ ");
        return true;
      }
      String inside = Names.insideFunction(function, path);
      if (inside != null) {
        text(positional(inside));
        return true;
      }
      return false;
    }

    /** {@code relative} with its parameter's name as its position ({@code %0.image}). */
    private String positional(String relative) {
      if (!arguments || parameters.isEmpty()) {
        return relative;
      }
      int end = Names.leadingName(relative);
      Integer position = parameters.get(relative.substring(0, end));
      return position == null ? relative : "%" + position + relative.substring(end);
    }

    /** Appends a text that cannot run into what follows. */
    private void text(String text) {
      key.append(text.length()).append(':').append(text).append(' ');
    }

    private void slot(String constant) {
      Integer slot = slots.get(constant);
      if (slot == null) {
        slot = slots.size();
        slots.put(constant, slot);
      }
      key.append('#').append(slot).append(' ');
    }
  }

  /**
   * Appends {@code t} as the code spells it, up to imports: what {@code t.toString()} says, without
   * printing it through JavaPoet for each new name (most of a shape's cost in a cold compiler).
   */
  static StringBuilder type(StringBuilder out, TypeName t) {
    if (!t.annotations().isEmpty()) {
      return out.append(t);
    }
    if (t instanceof ClassName className) {
      return out.append(className.canonicalName());
    }
    if (t instanceof ArrayTypeName arrayTypeName) {
      return type(out, arrayTypeName.componentType()).append("[]");
    }
    if (t instanceof ParameterizedTypeName p && p.enclosingType() == null) {
      type(out, p.rawType()).append('<');
      for (int i = 0; i < p.typeArguments().size(); i++) {
        type(i == 0 ? out : out.append(", "), p.typeArguments().get(i));
      }
      return out.append('>');
    }
    return out.append(t); // primitives (printed once each), wildcards, type variables
  }

  /** The names of this shape's constants in the order {@code order} names the lead's constants. */
  static List<String> reordered(BodyShape lead, BodyShape member, List<String> order) {
    List<String> out = new ArrayList<>(order.size());
    for (String constant : order) {
      int slot = lead.constants().indexOf(constant);
      if (slot < 0) {
        return null;
      }
      out.add(member.constants().get(slot));
    }
    return out;
  }
}
