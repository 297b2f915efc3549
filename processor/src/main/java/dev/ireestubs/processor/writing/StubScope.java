package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.WildcardTypeName;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.names.UniqueNames;
import dev.ireestubs.processor.printing.JavaSource;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names a stub's code lives among, so that every identifier it introduces is hygienic: the
 * types it writes by simple name (the runtime's, the user's, and the types nested in the interface,
 * which the stub inherits and which shadow its imports), the parameters of every method, and the
 * members the stub declares. Types whose simple names the user's own names shadow are written fully
 * qualified ({@link #alwaysQualify()}, which {@link JavaSource} honours as JavaPoet did).
 */
final class StubScope {

  /** The simple names of the classes generated code refers to, besides the user's. */
  static final Set<String> RUNTIME_NAMES = runtimeNames();

  /** The nested classes of the runtime that generated code names, by their top-level class. */
  static final Map<String, List<String>> NESTED_RUNTIME_NAMES =
      Map.of(
          "AbiType",
          List.of(
              "Scalar",
              "NdArray",
              "Sequence",
              "SequenceKind",
              "Entry",
              "Dict",
              "HomogeneousList",
              "Named",
              "Ref",
              "Any",
              "Unknown",
              "Unsupported"),
          "FunctionSignature",
          List.of("CallingModel"));

  private final Set<String> typeNames = new LinkedHashSet<>();
  private final Set<String> packageRoots = new LinkedHashSet<>(List.of("dev", "java", "javax"));
  private final Set<String> alwaysQualify = new LinkedHashSet<>();
  private final Set<String> parameterNames = new LinkedHashSet<>();
  private final UniqueNames members;

  StubScope(StubModel model) {
    typeNames.addAll(RUNTIME_NAMES);
    typeNames.addAll(model.inheritedTypeNames());
    addTypeNames(model.iface());
    addTypeNames(model.stubName());
    for (CallPlan plan : model.functions()) {
      for (ParameterModel p : plan.parameters()) {
        parameterNames.add(p.javaName());
        addTypeNames(p.javaType());
        addBindingTypeNames(p.binding());
      }
      ResultModel result = plan.result();
      if (result instanceof ResultModel.Single single) {
        addTypeNames(single.javaType());
        addBindingTypeNames(single.binding());
      } else if (result instanceof ResultModel.Inlined inlined) {
        addTypeNames(inlined.javaType());
        addBindingTypeNames(inlined.binding());
      }
    }
    alwaysQualify.addAll(model.inheritedTypeNames());
    // JavaSource (by JavaPoet's rules) qualifies a nested class by its own simple name, then
    // imports its top-level class: a clash of the top-level name must name the nested classes too.
    for (String name : model.inheritedTypeNames()) {
      alwaysQualify.addAll(NESTED_RUNTIME_NAMES.getOrDefault(name, List.of()));
    }
    Set<String> reserved = new LinkedHashSet<>(typeNames);
    reserved.addAll(packageRoots);
    reserved.addAll(parameterNames);
    members = new UniqueNames(reserved);
  }

  /**
   * Names {@link JavaSource} must always qualify ({@link JavaSource.TypeDecl#alwaysQualify}): the
   * types nested in the interface (inherited by the stub) shadow imports of the same simple name.
   */
  Set<String> alwaysQualify() {
    return alwaysQualify;
  }

  /**
   * The stub's name for a parameter: the interface's, unless it is the simple name of a type the
   * body writes, or the first part of a package it may write a name in (a parameter named {@code
   * Marshal} or {@code dev} would hide them), then a variant.
   */
  String parameter(String name, UniqueNames method) {
    if (typeNames.contains(name) || packageRoots.contains(name)) {
      return method.newName(name);
    }
    method.reserve(name);
    return name;
  }

  /** Allocates a member of the stub (a field or a holder class) that shadows nothing. */
  String member(String suggestion) {
    return members.newName(suggestion);
  }

  /**
   * The names no local of a method may take: types written by simple name, the first parts of
   * packages, and the stub's members (a local named like a field or a holder would shadow it).
   */
  Set<String> reservedForLocals(List<String> members) {
    Set<String> out = new LinkedHashSet<>(typeNames);
    out.addAll(packageRoots);
    out.addAll(members);
    return out;
  }

  private void addBindingTypeNames(ValueBinding b) {
    addTypeNames(b.javaType());
    if (b instanceof RecordBinding recordBinding) {
      recordBinding.components().forEach(c -> addBindingTypeNames(c.binding()));
    } else if (b instanceof ListBinding listBinding) {
      addBindingTypeNames(listBinding.element());
    } else if (b instanceof MapBinding mapBinding) {
      mapBinding.values().forEach(this::addBindingTypeNames);
    }
  }

  private void addTypeNames(TypeName t) {
    if (t instanceof ClassName c) {
      typeNames.addAll(c.simpleNames());
      if (!c.packageName().isEmpty()) {
        packageRoots.add(c.packageName().split("\\.")[0]);
      }
    } else if (t instanceof ParameterizedTypeName p) {
      addTypeNames(p.rawType());
      p.typeArguments().forEach(this::addTypeNames);
    } else if (t instanceof ArrayTypeName arrayTypeName) {
      addTypeNames(arrayTypeName.componentType());
    } else if (t instanceof WildcardTypeName wildcardTypeName) {
      wildcardTypeName.upperBounds().forEach(this::addTypeNames);
      wildcardTypeName.lowerBounds().forEach(this::addTypeNames);
    }
  }

  private static Set<String> runtimeNames() {
    Set<String> names = new LinkedHashSet<>();
    names.addAll(
        List.of(
            "Marshal",
            "StubMarshal",
            "VmList",
            "VmValue",
            "VmRef",
            "VmKind",
            "FunctionBinder",
            "BackendFunction",
            "ModuleBackend",
            "FunctionSignature",
            "AbiType",
            "ElementType",
            "Shape",
            "ReflectionFormat",
            "StubConstants",
            "PyDm",
            "OptionalInt",
            "List",
            "ArrayList",
            "Collections",
            "LinkedHashMap",
            "Map",
            "Objects",
            "Generated",
            "Override",
            "SuppressWarnings",
            "String",
            "LinkageError",
            "Object"));
    names.add(JavaMapping.ANY_ARRAY_CLASS);
    names.addAll(JavaMapping.ARRAY_CLASSES);
    return Set.copyOf(names);
  }
}
