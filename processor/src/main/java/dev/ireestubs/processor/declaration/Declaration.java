package dev.ireestubs.processor.declaration;

import com.palantir.javapoet.ClassName;
import dev.ireestubs.processor.diagnostics.Location;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the user declared, read once from the compiler ({@link DeclarationReader}): an {@code
 * IreeModule} interface, its methods, the records they use and the annotations on them, as plain
 * values with a {@link Location} for each diagnostic.
 *
 * @param simpleName the interface's simple name
 * @param qualifiedName its canonical name
 * @param className the interface, as generated code names it
 * @param stubName {@code Iree_<Outer>_<Inner>} in the interface's package
 * @param packageName the package for messages ({@code (unnamed)} for the unnamed package)
 * @param module the {@code @IreeModule} annotation
 * @param methods the abstract methods to bind: the interface's own in declaration order, then
 *     inherited ones
 * @param records every record a method's types name (directly or through components, lists and
 *     maps), by qualified name
 * @param memberTypeNames the simple names of the types nested in the interface and its
 *     super-interfaces, which the generated stub inherits (and which would shadow its own names)
 * @param unresolved the types the declaration names that did not resolve, in the order met: its
 *     super-interfaces, then any type its methods' parameters and results name, directly or in a
 *     type argument, an array's component or a record's component. Non-empty means "wait for a
 *     later round": another processor may generate them
 * @param location the interface
 * @param marksGenerated whether the stub may be marked {@code @Generated}: its module reads {@code
 *     java.compiler} ({@link ModuleReads})
 */
public record Declaration(
    String simpleName,
    String qualifiedName,
    ClassName className,
    ClassName stubName,
    String packageName,
    ModuleAnnotation module,
    List<Method> methods,
    Map<String, RecordType> records,
    Set<String> memberTypeNames,
    Set<String> unresolved,
    Location location,
    boolean marksGenerated) {

  public Declaration {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(stubName, "stubName");
    Objects.requireNonNull(module, "module");
    methods = List.copyOf(methods);
    records = Map.copyOf(records);
    memberTypeNames = Set.copyOf(memberTypeNames);
    // In the order met, which the diagnostic that names them keeps.
    unresolved = Collections.unmodifiableSet(new LinkedHashSet<>(unresolved));
  }

  /** The record {@code type} names, if it is one of the declaration's records. */
  public Optional<RecordType> record(JavaType type) {
    if (type instanceof JavaType.Declared declared
        && declared.kind() == JavaType.DeclaredKind.RECORD) {
      return Optional.ofNullable(records.get(declared.qualifiedName()));
    }
    return Optional.empty();
  }

  /**
   * {@code @IreeModule}: the values as written (trimmed paths), and where each is.
   *
   * @param name the module name, {@code "module"} by default
   * @param nameExplicit whether {@code name} was written
   * @param abi the JSON module file, or empty
   * @param vmfb the compiled module, or empty
   */
  public record ModuleAnnotation(
      String name,
      boolean nameExplicit,
      String abi,
      String vmfb,
      Location location,
      Location nameLocation,
      Location abiLocation,
      Location vmfbLocation) {}

  /**
   * {@code @IreeFunction} on a method.
   *
   * @param value the function name, empty for the method's own name
   * @param valueExplicit whether {@code value} was written
   * @param abi inline reflection, or empty
   * @param sip a V0 SIP signature, or empty
   * @param pydm whether {@code convention = PYDM}
   */
  public record FunctionAnnotation(
      String value,
      boolean valueExplicit,
      String abi,
      String sip,
      boolean pydm,
      Location location,
      Location valueLocation,
      Location abiLocation,
      Location sipLocation) {}

  /** {@code @IreeKey(value)}, and where its value is. */
  public record Key(String value, Location location) {}

  /**
   * One abstract method.
   *
   * @param parameters with their types as members of the annotated interface
   * @param returnType likewise
   */
  public record Method(
      String name,
      List<Parameter> parameters,
      JavaType returnType,
      Optional<FunctionAnnotation> function,
      Location location) {
    public Method {
      parameters = List.copyOf(parameters);
    }

    /** The module function it calls: {@code @IreeFunction}'s value, else the method's name. */
    public String functionName() {
      return function.map(FunctionAnnotation::value).filter(v -> !v.isEmpty()).orElse(name);
    }
  }

  /** One method parameter. */
  public record Parameter(String name, JavaType type, Optional<Key> key, Location location) {}

  /**
   * A record class a method uses.
   *
   * @param generic whether it declares type parameters (its components' types are then unknown)
   * @param accessible whether the stub's package can name it
   * @param hasSource whether it is compiled from source now (so diagnostics can show its lines)
   * @param components in declaration order (the canonical constructor's)
   */
  public record RecordType(
      String qualifiedName,
      String simpleName,
      ClassName className,
      boolean generic,
      boolean accessible,
      boolean hasSource,
      List<Component> components,
      Location location) {
    public RecordType {
      components = List.copyOf(components);
    }
  }

  /**
   * One record component.
   *
   * @param key its {@code @IreeKey}, if any, located on the canonical constructor's parameter
   *     (where javac keeps the annotation's position), else on the component
   * @param location the component (its field, which javac positions on the component)
   */
  public record Component(String name, JavaType type, Optional<Key> key, Location location) {
    /** Where a problem with the component's key is reported: its {@code @IreeKey}, else itself. */
    public Location keyLocation() {
      return key.map(Key::location).orElse(location);
    }
  }
}
