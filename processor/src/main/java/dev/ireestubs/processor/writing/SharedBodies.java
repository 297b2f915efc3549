package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.names.Names;
import dev.ireestubs.processor.names.UniqueNames;
import dev.ireestubs.processor.printing.Code;
import dev.ireestubs.processor.printing.JavaSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which methods of a stub share one body, a layout step: V1 methods whose bodies, printed as a
 * shared body would be ({@link MethodScope#shared}: the function, its name and its constants as
 * parameters, each value named by its path inside the function), are equal with their parameter and
 * return types call one {@code private static} method of that body. A module whose functions repeat
 * a few structures (with other names, dimensions or element types of equal Java types) then costs
 * javac one body per structure, not one per function. A method whose body is its own keeps it
 * inline, exactly as before.
 *
 * <p>Equality of the printed body is the rule: two methods share only what the writer would print
 * identically, so sharing never changes what a call does, and a failure of a check says what the
 * method's own body would (the body puts the function's name in front of the path it caught). It is
 * decided without printing every method: methods are grouped by their {@link BodyShape} (what the
 * body is printed from), one body is printed per group, and each member passes its own constants in
 * that body's order. One difference remains, outside the stub's own checks: a value exception that
 * user code throws while the body runs (a record accessor or a list's iterator that itself calls a
 * stub) gets the function's name in front of its path too.
 */
final class SharedBodies {

  /**
   * One body that several methods call.
   *
   * @param name the method's name, unique among the stub's methods
   * @param owner the holder class that declares it, or null for the stub itself
   * @param members the indexes of the functions whose methods call it, in order
   * @param parameters the function, its name, the method's parameters, when {@code named} the names
   *     the calling function gives them, then the constants
   * @param returns the methods' return type
   * @param code the body
   * @param named true when the body takes the names the methods give their parameters (the methods
   *     of its shape do not all name them alike), each method passing its own
   */
  record Body(
      String name,
      ClassName owner,
      List<Integer> members,
      List<JavaSource.Parameter> parameters,
      TypeName returns,
      Code code,
      boolean named) {}

  /**
   * How one method calls its shared body: the constants it passes, in the body's order, and when
   * the body takes them the names its parameters have in its paths (else empty).
   */
  record Use(Body body, List<String> constants, List<String> names) {}

  /** A body printed for sharing, and the constants of the method it was printed for. */
  record Printed(
      List<JavaSource.Parameter> parameters, TypeName returns, Code code, List<String> constants) {

    /** The body as text with its parameters and return type: equal for methods that share it. */
    String text() {
      StringBuilder text = new StringBuilder(code.toString());
      for (JavaSource.Parameter parameter : parameters) {
        text.append('\n').append(parameter.type()).append(' ').append(parameter.name());
      }
      return text.append("\n-> ").append(returns).toString();
    }
  }

  private SharedBodies() {}

  /**
   * Finds the methods of {@code model} that share a body.
   *
   * @param reservedForLocals names no local or parameter of a body may take
   * @param constants the constants of each function
   * @param holders the holder of each function's constants
   * @param constantTypes the type of every constant, by name
   * @param grouped when true, a body goes into the holder of its first member, else into the stub
   * @return per function, how its method calls a shared body, or null when its body is its own
   */
  static Use[] of(
      StubModel model,
      StubScope scope,
      Set<String> reservedForLocals,
      List<FunctionConstants> constants,
      List<ClassName> holders,
      Map<String, TypeName> constantTypes,
      boolean grouped) {
    List<CallPlan> functions = model.functions();
    BodyShape[] shapes = shapes(functions, constants);
    Map<String, List<Integer>> byShape = new LinkedHashMap<>();
    for (int i = 0; i < functions.size(); i++) {
      if (shapes[i] != null) {
        byShape.computeIfAbsent(shapes[i].key(), k -> new ArrayList<>()).add(i);
      }
    }
    Set<String> methodNames = new HashSet<>(Set.of("bind"));
    functions.forEach(f -> methodNames.add(f.methodName()));
    UniqueNames names = new UniqueNames(methodNames);
    Use[] uses = new Use[functions.size()];
    for (List<Integer> members : byShape.values()) {
      Group g =
          members.size() < 2
              ? null
              : group(
                  members, shapes, functions, scope, reservedForLocals, constants, constantTypes);
      if (g == null) {
        continue;
      }
      int lead = g.passed().keySet().iterator().next();
      Body body =
          new Body(
              names.newName("callLike" + capitalized(functions.get(lead).methodName())),
              grouped ? holders.get(lead) : null,
              List.copyOf(g.passed().keySet()),
              g.printed().parameters(),
              g.printed().returns(),
              g.printed().code(),
              g.named());
      g.passed().forEach((m, p) -> uses[m] = new Use(body, p.constants(), p.names()));
    }
    return uses;
  }

  /**
   * The shape of each function's body, or null when it has none: not shareable, or no other method
   * has its parameter and return types (equal bodies have equal ones, so a module of distinct
   * methods compares nothing).
   */
  private static BodyShape[] shapes(List<CallPlan> functions, List<FunctionConstants> constants) {
    String[] header = new String[functions.size()];
    Map<String, Integer> headers = new HashMap<>();
    for (int i = 0; i < functions.size(); i++) {
      header[i] = header(functions.get(i));
      headers.merge(header[i], 1, Integer::sum);
    }
    BodyShape[] shapes = new BodyShape[functions.size()];
    for (int i = 0; i < functions.size(); i++) {
      if (headers.get(header[i]) > 1) {
        shapes[i] = BodyShape.of(functions.get(i), constants.get(i));
      }
    }
    return shapes;
  }

  /**
   * The body that {@code members}, methods of one shape, share: printed once, for the first, each
   * member passing its own constants in that body's order; null when it cannot be shared or fewer
   * than two members can pass constants of the body's types.
   */
  private static Group group(
      List<Integer> members,
      BodyShape[] shapes,
      List<CallPlan> functions,
      StubScope scope,
      Set<String> reservedForLocals,
      List<FunctionConstants> constants,
      Map<String, TypeName> constantTypes) {
    int lead = members.get(0);
    CallPlan plan = functions.get(lead);
    List<String> leadNames = pathNames(plan);
    boolean named = false;
    for (int m : members) {
      named |= !pathNames(functions.get(m)).equals(leadNames);
    }
    Printed p =
        print(plan, plan, named, scope, reservedForLocals, constants.get(lead), constantTypes);
    if (p == null) {
      return null;
    }
    Map<Integer, Passed> passed = new LinkedHashMap<>();
    for (int m : members) {
      List<String> own = BodyShape.reordered(shapes[lead], shapes[m], p.constants());
      if (own != null && sameTypes(own, p.constants(), constantTypes)) {
        passed.put(m, new Passed(own, named ? pathNames(functions.get(m)) : List.of()));
      }
    }
    return passed.size() > 1 ? new Group(p, named, passed) : null;
  }

  /**
   * The methods that call one body: the body, whether it takes the methods' parameter names, and
   * what each method passes.
   */
  private record Group(Printed printed, boolean named, Map<Integer, Passed> passed) {}

  /** What a method passes to its shared body: its constants and, if taken, parameter names. */
  private record Passed(List<String> constants, List<String> names) {}

  /** The names {@code plan}'s paths give its parameters, in order ({@code features}). */
  static List<String> pathNames(CallPlan plan) {
    List<String> names = new ArrayList<>(plan.parameters().size());
    for (ParameterModel p : plan.parameters()) {
      String inside = Names.insideFunction(plan.functionName(), p.path());
      names.add(inside != null ? inside : p.path());
    }
    return names;
  }

  /** True when each of {@code own} has the type of the constant at its place in {@code lead}. */
  private static boolean sameTypes(
      List<String> own, List<String> lead, Map<String, TypeName> constantTypes) {
    for (int i = 0; i < own.size(); i++) {
      TypeName type = constantTypes.get(own.get(i));
      if (type == null || !type.equals(constantTypes.get(lead.get(i)))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The body of {@code plan} printed for sharing in the parameter names of {@code as}, taking the
   * names the calling function gives its parameters when {@code named}; null when it cannot be
   * shared. A stub prints each body for its first method ({@code as} is {@code plan}); {@code
   * BodyShapeTest} prints other methods of the shape in its names, to check that {@link BodyShape}
   * stands for the printed body.
   */
  static Printed print(
      CallPlan plan,
      CallPlan as,
      boolean named,
      StubScope scope,
      Set<String> reservedForLocals,
      FunctionConstants constants,
      Map<String, TypeName> constantTypes) {
    MethodScope s = MethodScope.shared(reservedForLocals, constants, plan.functionName());
    List<String> ownNames = pathNames(plan);
    List<String> printedNames = pathNames(as);
    List<JavaSource.Parameter> own = new ArrayList<>();
    for (int i = 0; i < plan.parameters().size(); i++) {
      ParameterModel p = plan.parameters().get(i);
      String printed = as.parameters().get(i).javaName();
      own.add(new JavaSource.Parameter(p.javaType(), s.parameter(p.javaName(), printed, scope)));
      s.renameParameter(ownNames.get(i), printedNames.get(i));
    }
    String function = s.local("function");
    String functionName = s.declareFunctionName();
    List<JavaSource.Parameter> names = new ArrayList<>();
    if (named) {
      for (int i = 0; i < as.parameters().size(); i++) {
        String name =
            s.declareParameterName(printedNames.get(i), as.parameters().get(i).javaName() + "Name");
        names.add(new JavaSource.Parameter(ClassName.get(String.class), name));
      }
    }
    CallWriter.Body body = new CallWriter(plan, Code.of("$N", function), s).write();
    if (!s.shareable() || body.unchecked()) {
      return null;
    }
    List<JavaSource.Parameter> parameters = new ArrayList<>();
    parameters.add(new JavaSource.Parameter(StubWriter.BACKEND_FUNCTION, function));
    parameters.add(new JavaSource.Parameter(ClassName.get(String.class), functionName));
    parameters.addAll(own);
    parameters.addAll(names);
    List<String> passed = new ArrayList<>();
    for (Map.Entry<String, String> c : s.constantParameters().entrySet()) {
      TypeName type = constantTypes.get(c.getKey());
      if (type == null) {
        return null; // not a constant of a holder: keep the body inline
      }
      parameters.add(new JavaSource.Parameter(type, c.getValue()));
      passed.add(c.getKey());
    }
    if (slots(parameters) > MAX_PARAMETER_SLOTS) {
      return null; // javac: "too many parameters"; each method keeps its own body
    }
    return new Printed(List.copyOf(parameters), body.returns(), body.code(), List.copyOf(passed));
  }

  /** The most parameter slots a static method may take (JVMS 4.3.3: long and double take two). */
  static final int MAX_PARAMETER_SLOTS = 255;

  /** The slots {@code parameters} take in a method's descriptor. */
  private static int slots(List<JavaSource.Parameter> parameters) {
    int slots = 0;
    for (JavaSource.Parameter p : parameters) {
      slots += p.type().equals(TypeName.LONG) || p.type().equals(TypeName.DOUBLE) ? 2 : 1;
    }
    return slots;
  }

  /** The method's parameter and return types, which sharing methods have equal. */
  private static String header(CallPlan plan) {
    StringBuilder header = new StringBuilder();
    for (ParameterModel p : plan.parameters()) {
      BodyShape.type(header, p.javaType()).append(", ");
    }
    return BodyShape.type(header.append("-> "), plan.result().javaType()).toString();
  }

  private static String capitalized(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }
}
