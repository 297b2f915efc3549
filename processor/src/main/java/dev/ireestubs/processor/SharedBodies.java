package dev.ireestubs.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which methods of a stub share one body, a layout step: each V1 method's body is printed as a
 * shared body would be ({@link MethodScope#shared}: the function, its name and its constants as
 * parameters, each value named by its path inside the function), and methods whose printed bodies
 * (with their parameter and return types) are equal call one {@code private static} method of that
 * body. A module whose functions repeat a few structures (with other names, dimensions or element
 * types of equal Java types) then costs javac one body per structure, not one per function. A
 * method whose body is its own keeps it inline, exactly as before.
 *
 * <p>Equality of the printed text is the whole rule: two methods share only what the writer would
 * print identically, so sharing never changes what a call does, and a failure of a check says what
 * the method's own body would (the body puts the function's name in front of the path it caught).
 * One difference remains, outside the stub's own checks: a value exception that user code throws
 * while the body runs (a record accessor or a list's iterator that itself calls a stub) gets the
 * function's name in front of its path too.
 */
final class SharedBodies {

  /**
   * One body that several methods call.
   *
   * @param name the method's name, unique among the stub's methods
   * @param owner the holder class that declares it, or null for the stub itself
   * @param members the indexes of the functions whose methods call it, in order
   * @param parameters the function, its name, the method's parameters, then the constants
   * @param returns the methods' return type
   * @param code the body
   */
  record Body(
      String name,
      ClassName owner,
      List<Integer> members,
      List<ParameterSpec> parameters,
      TypeName returns,
      CodeBlock code) {}

  /** How one method calls its shared body: the constants it passes, in the body's order. */
  record Use(Body body, List<String> constants) {}

  /** A body printed for sharing, and the constants of the method it was printed for. */
  private record Printed(
      List<ParameterSpec> parameters, TypeName returns, CodeBlock code, List<String> constants) {}

  private SharedBodies() {}

  /**
   * Finds the methods of {@code model} that share a body.
   *
   * @param reservedForLocals names no local or parameter of a body may take
   * @param constants the constants of each function
   * @param holderOf the holder of each function's constants
   * @param constantTypes the type of every constant, by name
   * @param grouped when true, a body goes into the holder of its first member, else into the stub
   * @return per function, how its method calls a shared body, or null when its body is its own
   */
  static Use[] of(
      StubModel model,
      StubScope scope,
      Set<String> reservedForLocals,
      List<FunctionConstants> constants,
      ClassName[] holderOf,
      Map<String, TypeName> constantTypes,
      boolean grouped) {
    List<CallPlan> functions = model.functions();
    Map<String, List<Integer>> byBody = new LinkedHashMap<>();
    List<Printed> printed = new ArrayList<>();
    // Equal bodies have equal parameters and return types: only methods that share those with
    // another are printed to compare (a module of distinct methods prints nothing twice).
    Map<String, Integer> headers = new HashMap<>();
    for (CallPlan plan : functions) {
      headers.merge(header(plan), 1, Integer::sum);
    }
    for (int i = 0; i < functions.size(); i++) {
      CallPlan plan = functions.get(i);
      Printed p =
          plan instanceof CallPlan.Plain && headers.get(header(plan)) > 1
              ? print(plan, scope, reservedForLocals, constants.get(i), constantTypes)
              : null;
      printed.add(p);
      if (p == null) {
        continue;
      }
      byBody.computeIfAbsent(key(p), k -> new ArrayList<>()).add(i);
    }
    Set<String> methodNames = new HashSet<>(Set.of("bind"));
    functions.forEach(f -> methodNames.add(f.methodName()));
    UniqueNames names = new UniqueNames(methodNames);
    Use[] uses = new Use[functions.size()];
    for (List<Integer> members : byBody.values()) {
      if (members.size() < 2) {
        continue;
      }
      int lead = members.get(0);
      Printed p = printed.get(lead);
      Body body =
          new Body(
              names.newName("callLike" + capitalized(functions.get(lead).methodName())),
              grouped ? holderOf[lead] : null,
              List.copyOf(members),
              p.parameters(),
              p.returns(),
              p.code());
      for (int m : members) {
        uses[m] = new Use(body, printed.get(m).constants());
      }
    }
    return uses;
  }

  /** The body of {@code plan} printed for sharing, or null when it cannot be shared. */
  private static Printed print(
      CallPlan plan,
      StubScope scope,
      Set<String> reservedForLocals,
      FunctionConstants constants,
      Map<String, TypeName> constantTypes) {
    MethodScope s = MethodScope.shared(reservedForLocals, constants, plan.functionName());
    List<ParameterSpec> own = new ArrayList<>();
    for (ParameterModel p : plan.parameters()) {
      own.add(ParameterSpec.builder(p.javaType(), s.parameter(p.javaName(), scope)).build());
    }
    String function = s.local("function");
    String functionName = s.declareFunctionName();
    CallWriter.Body body = new CallWriter(plan, CodeBlock.of("$N", function), s).write();
    if (!s.shareable() || body.unchecked()) {
      return null;
    }
    List<ParameterSpec> parameters = new ArrayList<>();
    parameters.add(ParameterSpec.builder(StubWriter.BACKEND_FUNCTION, function).build());
    parameters.add(ParameterSpec.builder(ClassName.get(String.class), functionName).build());
    parameters.addAll(own);
    List<String> passed = new ArrayList<>();
    for (Map.Entry<String, String> c : s.constantParameters().entrySet()) {
      TypeName type = constantTypes.get(c.getKey());
      if (type == null) {
        return null; // not a constant of a holder: keep the body inline
      }
      parameters.add(ParameterSpec.builder(type, c.getValue()).build());
      passed.add(c.getKey());
    }
    return new Printed(List.copyOf(parameters), body.returns(), body.code(), List.copyOf(passed));
  }

  /** The method's parameters (types and names) and return type, which sharing methods have equal. */
  private static String header(CallPlan plan) {
    StringBuilder header = new StringBuilder();
    for (ParameterModel p : plan.parameters()) {
      header.append(p.javaType()).append(' ').append(p.javaName()).append(", ");
    }
    return header.append("-> ").append(plan.result().javaType()).toString();
  }

  /** What two methods must have equal to share a body: its text, parameters and return type. */
  private static String key(Printed p) {
    StringBuilder key = new StringBuilder(p.code().toString());
    for (ParameterSpec parameter : p.parameters()) {
      key.append('\n').append(parameter.type()).append(' ').append(parameter.name());
    }
    return key.append("\n-> ").append(p.returns()).toString();
  }

  private static String capitalized(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }
}
