package dev.ireestubs.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.ireestubs.abi.AbiType;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What printing one method body shares: the statements so far, the names its locals may take
 * (none that shadows a parameter, a field, a holder or a type the body names), and how it refers
 * to its function's constants in their holder.
 */
final class MethodScope {

  private final CodeBlock.Builder body = CodeBlock.builder();
  private final UniqueNames locals;
  private final Map<String, String> parameters = new HashMap<>();
  private final FunctionConstants constants;
  private final ClassName holder;

  /**
   * @param reserved names no local may take (shared, not copied)
   * @param constants the function's constants
   * @param holder the class that holds them
   */
  MethodScope(Set<String> reserved, FunctionConstants constants, ClassName holder) {
    this.constants = constants;
    this.holder = holder;
    this.locals = UniqueNames.inside(reserved);
  }

  CodeBlock.Builder body() {
    return body;
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
    String own = stub.parameter(name, locals);
    parameters.put(name, own);
    return own;
  }

  /** The stub's name for the interface's parameter {@code name}. */
  CodeBlock parameter(String name) {
    return CodeBlock.of("$N", parameters.getOrDefault(name, name));
  }

  /** The descriptor constant of {@code node}: {@code Signatures.PREDICT_FEATURES_IMAGE}. */
  CodeBlock descriptor(AbiType node) {
    return constant(constants.descriptor(node));
  }

  /** A constant of the function's holder. */
  CodeBlock constant(String name) {
    return CodeBlock.of("$T.$N", holder, name);
  }

  /** The constants of a map's sdict. */
  FunctionConstants.MapConstants map(MapBinding map) {
    return constants.map(map);
  }

  /** A string literal of {@code text}, or the holder's constant for a text too long for one. */
  CodeBlock text(String text) {
    String name = constants.longText(text);
    return name == null ? CodeBlock.of("$S", text) : constant(name);
  }
}
