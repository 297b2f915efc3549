package dev.ireestubs.cli;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The Java interface suggested for one module: every decision made ({@link InterfaceSuggester}),
 * nothing left for {@link InterfaceWriter} but to print it. Immutable.
 *
 * @param interfaceName the interface's simple name, e.g. {@code Module}
 * @param moduleName the module name for {@code @IreeModule(name = ...)}
 * @param vmfb the file name for {@code @IreeModule(vmfb = ...)}
 * @param imports the qualified names to import (kept sorted)
 * @param notes lines about the interface as a whole, printed as comments above it
 * @param methods the methods, in export order, each with the records it introduces
 * @param omitted the exports left out of the interface, and why
 */
record InterfaceSuggestion(
    String interfaceName,
    String moduleName,
    String vmfb,
    List<String> imports,
    List<String> notes,
    List<Method> methods,
    List<Omitted> omitted) {

  InterfaceSuggestion {
    Objects.requireNonNull(interfaceName, "interfaceName");
    Objects.requireNonNull(moduleName, "moduleName");
    Objects.requireNonNull(vmfb, "vmfb");
    imports = List.copyOf(new TreeSet<>(imports));
    notes = List.copyOf(notes);
    methods = List.copyOf(methods);
    omitted = List.copyOf(omitted);
  }

  /**
   * A method parameter or record component.
   *
   * @param type the Java type as written in source, with simple names
   * @param name the Java name
   * @param key the {@code @IreeKey} value, when the name alone does not bind
   */
  record Variable(String type, String name, Optional<String> key) {
    Variable {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * A record nested in the interface.
   *
   * @param name its simple name
   * @param components its components, in the order the signature binds them
   */
  record RecordType(String name, List<Variable> components) {
    RecordType {
      Objects.requireNonNull(name, "name");
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
   * @param comments lines to print above the method (without {@code //})
   * @param records the records this method introduces, printed before it
   */
  record Method(
      String name,
      String function,
      List<Variable> parameters,
      String returnType,
      List<String> comments,
      List<RecordType> records) {
    Method {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(function, "function");
      parameters = List.copyOf(parameters);
      Objects.requireNonNull(returnType, "returnType");
      comments = List.copyOf(comments);
      records = List.copyOf(records);
    }

    /** Whether the method needs {@code @IreeFunction} to name its export. */
    boolean renamed() {
      return !name.equals(function);
    }
  }

  /**
   * An export left out of the interface.
   *
   * @param function the export's name
   * @param reason why, as a sentence fragment
   */
  record Omitted(String function, String reason) {
    Omitted {
      Objects.requireNonNull(function, "function");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
