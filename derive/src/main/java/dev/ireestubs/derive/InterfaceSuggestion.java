package dev.ireestubs.derive;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The Java interface derived from one module: every decision made ({@link InterfaceSuggester}),
 * nothing left for {@link InterfaceWriter} but to print it. Immutable.
 *
 * @param interfaceName the interface's simple name, e.g. {@code MobileNet}
 * @param moduleName the module name for {@code @IreeModule(name = ...)}
 * @param source the file the interface is checked against: {@code @IreeModule(vmfb = ...)} or
 *     {@code @IreeModule(abi = ...)}
 * @param imports the qualified names to import (kept sorted)
 * @param notes sentences about the interface as a whole, printed in its Javadoc
 * @param methods the methods, in export order, each with the records it introduces
 * @param omitted the exports left out of the interface, and why
 */
public record InterfaceSuggestion(
    String interfaceName,
    String moduleName,
    Source source,
    List<String> imports,
    List<String> notes,
    List<Method> methods,
    List<Omitted> omitted) {

  /**
   * Checks and copies the lists.
   *
   * @param interfaceName the interface's simple name, e.g. {@code MobileNet}
   * @param moduleName the module name for {@code @IreeModule(name = ...)}
   * @param source the file the interface is checked against: {@code @IreeModule(vmfb = ...)} or
   *     {@code @IreeModule(abi = ...)}
   * @param imports the qualified names to import (kept sorted)
   * @param notes sentences about the interface as a whole, printed in its Javadoc
   * @param methods the methods, in export order, each with the records it introduces
   * @param omitted the exports left out of the interface, and why
   */
  public InterfaceSuggestion {
    Objects.requireNonNull(interfaceName, "interfaceName");
    Objects.requireNonNull(moduleName, "moduleName");
    Objects.requireNonNull(source, "source");
    imports = List.copyOf(new TreeSet<>(imports));
    notes = List.copyOf(notes);
    methods = List.copyOf(methods);
    omitted = List.copyOf(omitted);
  }

  /**
   * Where the signatures come from, as {@code @IreeModule} names it.
   *
   * @param compiled true for a compiled module ({@code vmfb = path}), false for an {@code iree.abi}
   *     JSON module file ({@code abi = path})
   * @param path the resource path
   */
  public record Source(boolean compiled, String path) {
    /**
     * Checks the path.
     *
     * @param compiled true for a compiled module ({@code vmfb = path}), false for an {@code
     *     iree.abi} JSON module file ({@code abi = path})
     * @param path the resource path
     */
    public Source {
      Objects.requireNonNull(path, "path");
    }

    /**
     * A compiled module at {@code path}.
     *
     * @param path the path the interface's {@code @IreeModule(vmfb = ...)} names
     * @return the source of a compiled module
     */
    public static Source vmfb(String path) {
      return new Source(true, path);
    }

    /**
     * An {@code iree.abi} JSON module file at {@code path}.
     *
     * @param path the path the interface's {@code @IreeModule(abi = ...)} names
     * @return the source of a JSON module file
     */
    public static Source abi(String path) {
      return new Source(false, path);
    }
  }

  /**
   * A method parameter or record component.
   *
   * @param type the Java type as written in source, with simple names
   * @param name the Java name
   * @param key the {@code @IreeKey} value, when the name alone does not bind
   */
  public record Variable(String type, String name, Optional<String> key) {
    /**
     * Checks for nulls.
     *
     * @param type the Java type as written in source, with simple names
     * @param name the Java name
     * @param key the {@code @IreeKey} value, when the name alone does not bind
     */
    public Variable {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * A record nested in the interface.
   *
   * @param name its simple name
   * @param what what it holds, for its Javadoc (a sentence fragment)
   * @param components its components, in the order the signature binds them
   */
  public record RecordType(String name, String what, List<Variable> components) {
    /**
     * Checks and copies.
     *
     * @param name its simple name
     * @param what what it holds, for its Javadoc (a sentence fragment)
     * @param components its components, in the order the signature binds them
     */
    public RecordType {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(what, "what");
      components = List.copyOf(components);
    }
  }

  /**
   * One method, bound to one export.
   *
   * @param name the Java method name
   * @param function the export's name, for {@code @IreeFunction} when it differs from {@link
   *     #name()}
   * @param parameters the parameters, one per argument of the signature
   * @param returnType {@code void} or a Java type
   * @param reflection the function's reflection as the module states it (its declaration, its
   *     {@code iree.abi} JSON or its calling convention), quoted in the Javadoc
   * @param checkedAgainst the signature the method is checked against, readable, with the
   *     reflection it came from, e.g. {@code (tensor<4xf32>) -> (tensor<4xf32>) (from
   *     iree.abi.declaration)}
   * @param comments further sentences for the Javadoc (coarse fences, warnings)
   * @param unchecked true when only a calling convention describes the function, so the types of
   *     its refs are not checked
   * @param records the records this method introduces, printed before it
   */
  public record Method(
      String name,
      String function,
      List<Variable> parameters,
      String returnType,
      String reflection,
      String checkedAgainst,
      List<String> comments,
      boolean unchecked,
      List<RecordType> records) {
    /**
     * Checks and copies.
     *
     * @param name the Java method name
     * @param function the export's name, for {@code @IreeFunction} when it differs from {@link
     *     #name()}
     * @param parameters the parameters, one per argument of the signature
     * @param returnType {@code void} or a Java type
     * @param reflection the function's reflection as the module states it (its declaration, its
     *     {@code iree.abi} JSON or its calling convention), quoted in the Javadoc
     * @param checkedAgainst the signature the method is checked against, readable, with the
     *     reflection it came from, e.g. {@code (tensor<4xf32>) -> (tensor<4xf32>) (from
     *     iree.abi.declaration)}
     * @param comments further sentences for the Javadoc (coarse fences, warnings)
     * @param unchecked true when only a calling convention describes the function, so the types of
     *     its refs are not checked
     * @param records the records this method introduces, printed before it
     */
    public Method {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(function, "function");
      Objects.requireNonNull(checkedAgainst, "checkedAgainst");
      parameters = List.copyOf(parameters);
      Objects.requireNonNull(returnType, "returnType");
      Objects.requireNonNull(reflection, "reflection");
      comments = List.copyOf(comments);
      records = List.copyOf(records);
    }

    /**
     * Whether the method needs {@code @IreeFunction} to name its export.
     *
     * @return true when the method's name differs from the export's
     */
    public boolean renamed() {
      return !name.equals(function);
    }
  }

  /**
   * An export left out of the interface.
   *
   * @param function the export's name
   * @param reason why, as a sentence fragment
   * @param bookkeeping true for IREE's own exports ({@code __init}, an {@code $async} twin), left
   *     out by design; false for an export no Java type binds, worth a warning
   */
  public record Omitted(String function, String reason, boolean bookkeeping) {
    /**
     * Checks for nulls.
     *
     * @param function the export's name
     * @param reason why, as a sentence fragment
     * @param bookkeeping true for IREE's own exports ({@code __init}, an {@code $async} twin), left
     *     out by design; false for an export no Java type binds, worth a warning
     */
    public Omitted {
      Objects.requireNonNull(function, "function");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
