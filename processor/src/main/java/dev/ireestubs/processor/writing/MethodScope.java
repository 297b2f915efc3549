package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.names.Names;
import dev.ireestubs.processor.names.UniqueNames;
import dev.ireestubs.processor.printing.Code;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What printing one method body shares: the statements so far, the names its locals may take (none
 * that shadows a parameter, a field, a holder or a type the body names), and how it refers to its
 * function's constants in their holder.
 *
 * <p>A body printed {@linkplain #shared shared} is one that several methods may call: it takes the
 * function's name and its constants as parameters, and names each value by its path inside the
 * function ({@code features.image}), the name put in front only when a check fails ({@code
 * Marshal.inFunction}). It may be printed in another method's parameter names ({@link
 * #renameParameter}): methods that differ only in those share it, each passing its own names, which
 * replace the body's in a path only when a check fails. Such a body is {@linkplain #shareable()
 * shareable} unless it needs a text that cannot be made relative to the function (a long text, a
 * map's list of paths).
 */
final class MethodScope {

  private Code.Builder body = Code.builder();
  private final UniqueNames locals;
  private final Map<String, String> parameters = new HashMap<>();
  private final FunctionConstants constants;
  private final ClassName holder;

  /** The function whose name starts every path; null when the body is the method's own. */
  private final String function;

  /** When shared: the constants the body names, in order of first use, with their parameter. */
  private final Map<String, String> constantParameters = new LinkedHashMap<>();

  private String functionNameParameter;
  private boolean shareable = true;

  /** When shared: a parameter's name in the function's paths, to the name the body prints. */
  private final Map<String, String> pathNames = new HashMap<>();

  /** True while the arguments are printed: only their paths start with a parameter's name. */
  private boolean encodingArguments;

  /**
   * When shared and named: per parameter, the name the body prints and the local of the method's.
   */
  private final List<NameParameter> nameParameters = new ArrayList<>();

  /** A parameter of a shared body: what the calling method calls the body's {@code printed}. */
  private record NameParameter(String printed, String local) {}

  /**
   * @param reserved names no local may take (shared, not copied)
   * @param constants the function's constants
   * @param holder the class that holds them
   */
  MethodScope(Set<String> reserved, FunctionConstants constants, ClassName holder) {
    this(reserved, constants, holder, null);
  }

  private MethodScope(
      Set<String> reserved, FunctionConstants constants, ClassName holder, String function) {
    this.constants = constants;
    this.holder = holder;
    this.function = function;
    this.locals = UniqueNames.inside(reserved);
  }

  /**
   * The scope of a body that methods of equal bodies share: paths relative to {@code function}, the
   * function's name and constants parameters.
   */
  static MethodScope shared(Set<String> reserved, FunctionConstants constants, String function) {
    return new MethodScope(reserved, constants, null, function);
  }

  /** True when the body is printed to be shared (see the class comment). */
  boolean shared() {
    return function != null;
  }

  /** False when a shared body needs a text only the function's own body can have. */
  boolean shareable() {
    return shareable;
  }

  /**
   * When shared, declares the parameter that carries the function's name, after the method's
   * parameters (whose names it must not take); returns its name.
   */
  String declareFunctionName() {
    functionNameParameter = local("functionName");
    return functionNameParameter;
  }

  /**
   * When shared, prints the parameter that the function's paths call {@code own} (the first name of
   * a path, before any {@code .} or {@code [}) as {@code printed}, as the method of another
   * function with that name would: see the class comment.
   */
  void renameParameter(String own, String printed) {
    pathNames.put(own, printed);
  }

  /**
   * Says whether what is printed next encodes the arguments (paths that start with a parameter's
   * name) or decodes results (paths that start with {@code result}, whatever the parameters are
   * called).
   */
  void encodingArguments(boolean encodingArguments) {
    this.encodingArguments = encodingArguments;
  }

  /**
   * When shared, declares the parameter that carries the name the calling function gives the body's
   * parameter {@code printed} in its paths, suggesting {@code suggestion}; returns its name.
   */
  String declareParameterName(String printed, String suggestion) {
    String local = local(suggestion);
    nameParameters.add(new NameParameter(printed, local));
    return local;
  }

  /**
   * The arguments that rename the body's parameters to the function's in a failure's path: {@code ,
   * "in", inName} for each; empty when the body takes no names.
   */
  Code parameterNames() {
    Code.Builder b = Code.builder();
    for (NameParameter p : nameParameters) {
      b.add(", $S, $N", p.printed(), p.local());
    }
    return b.build();
  }

  /** When shared: the constants the body named, in order of first use, to their parameters. */
  Map<String, String> constantParameters() {
    return constantParameters;
  }

  Code.Builder body() {
    return body;
  }

  /**
   * Makes {@code next} the builder statements go to, returning the one it replaces: to print
   * statements apart (a lambda's body) and put them back in place.
   */
  Code.Builder swapBody(Code.Builder next) {
    Code.Builder previous = body;
    body = next;
    return previous;
  }

  /** Adds a statement. */
  void statement(String format, Object... args) {
    body.addStatement(format, args);
  }

  /** A new local variable name, {@code suggestion} or a variant of it. */
  String local(String suggestion) {
    return locals.newName(suggestion);
  }

  /**
   * Declares a parameter: its name in the interface, kept unless {@code stub} says it would hide a
   * name the body writes. Returns the name the stub's method uses.
   */
  String parameter(String name, StubScope stub) {
    return parameter(name, name, stub);
  }

  /**
   * Declares the interface's parameter {@code name} under {@code printed}, the name another method
   * gives the parameter at its place (a shared body is printed in one method's names), kept unless
   * {@code stub} says it would hide a name the body writes. Returns the name the body uses.
   */
  String parameter(String name, String printed, StubScope stub) {
    String own = stub.parameter(printed, locals);
    parameters.put(name, own);
    return own;
  }

  /** The stub's name for the interface's parameter {@code name}. */
  Code parameter(String name) {
    return Code.of("$N", parameters.getOrDefault(name, name));
  }

  /**
   * The descriptor constant of {@code node}: {@code Signatures.PREDICT_FEATURES_IMAGE}, or when
   * shared the parameter that carries it.
   */
  Code descriptor(AbiType node) {
    return constant(constants.descriptor(node), "descriptor");
  }

  /** A constant of the function's holder, or when shared the parameter that carries it. */
  Code constant(String name) {
    return constant(name, "constant");
  }

  private Code constant(String name, String suggestion) {
    if (shared()) {
      return Code.of("$N", constantParameters.computeIfAbsent(name, n -> local(suggestion)));
    }
    return Code.of("$T.$N", holder, name);
  }

  /** The constants of a map's sdict. */
  FunctionConstants.MapConstants map(MapBinding map) {
    FunctionConstants.MapConstants m = constants.map(map);
    if (shared() && m.loop()) {
      shareable = false; // its list of paths names the function
    }
    return m;
  }

  /** A string literal of {@code text}, or the holder's constant for a text too long for one. */
  Code text(String text) {
    String name = constants.longText(text);
    if (name != null && shared()) {
      shareable = false;
    }
    return name == null ? Code.of("$S", text) : constant(name);
  }

  /**
   * The path of a value ({@code predict: features.image}), or the function's name ({@code
   * predict}); when shared, the path inside the function ({@code features.image}) or the parameter
   * that carries the name.
   */
  Code path(String path) {
    if (!shared()) {
      return text(path);
    }
    if (constants.longText(path) != null) {
      shareable = false;
      return Code.of("$S", "");
    }
    if (path.equals(function)) {
      return Code.of("$N", functionNameParameter);
    }
    String inside = Names.insideFunction(function, path);
    if (inside != null) {
      return Code.of("$S", printedPath(inside));
    }
    shareable = false;
    return Code.of("$S", path);
  }

  /** {@code relative} (a path inside the function), its parameter named as the body prints it. */
  private String printedPath(String relative) {
    if (!encodingArguments || pathNames.isEmpty()) {
      return relative;
    }
    int end = Names.leadingName(relative);
    String printed = pathNames.get(relative.substring(0, end));
    return printed == null ? relative : printed + relative.substring(end);
  }

  /**
   * A word for naming a local after the value at {@code path} ({@link ValueCode#baseName}), of the
   * path as the body prints it.
   */
  String baseName(String path) {
    String inside = shared() ? Names.insideFunction(function, path) : null;
    return ValueCode.baseName(inside != null ? printedPath(inside) : path);
  }

  /**
   * The name of the function for messages: a literal, or when shared the parameter that carries it.
   */
  Code functionName(String name) {
    return path(name);
  }
}
