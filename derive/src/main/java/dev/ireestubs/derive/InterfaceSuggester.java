package dev.ireestubs.derive;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.CoarseFences;
import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.derive.InterfaceSuggestion.Method;
import dev.ireestubs.derive.InterfaceSuggestion.Omitted;
import dev.ireestubs.derive.InterfaceSuggestion.RecordType;
import dev.ireestubs.derive.InterfaceSuggestion.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides the Java interface a user could write for a module, one export at a time, following the
 * type mapping of DESIGN.md as the annotation processor checks it:
 *
 * <ul>
 *   <li>an ndarray is the typed array class naming its element type ({@code FloatArray} for f32,
 *       {@code UByteArray} for ui8...), {@code NdArray} when the element type is not known;
 *   <li>a scalar {@code i1 i8 i16 i32 i64 f32 f64} is {@code boolean byte short int long float
 *       double} (every integer signedness and {@code index} by its width);
 *   <li>an {@code sdict} is a record nested in the interface, named after its argument or key, with
 *       a component per key ({@code @IreeKey} where the component's name does not bind by itself);
 *   <li>an {@code slist}/{@code stuple} is {@code List<T>} when every element has one type, else a
 *       positional record; {@code py_homogeneous_list} is {@code List<T>};
 *   <li>a {@code named} argument is a parameter of that name ({@code @IreeKey} when the name is not
 *       a Java name);
 *   <li>refs, {@code any} and {@code unknown} are {@code VmRef};
 *   <li>results: {@code void}, the one result's type, or a record for several results and for an
 *       inlined {@code slist}/{@code stuple}/{@code sdict}.
 * </ul>
 *
 * <p>Every name comes from a {@link NameAllocator}, so methods, parameters, components and records
 * never collide, keywords get a {@code _} suffix, and the output is deterministic. An export whose
 * signature holds a type no Java type binds to is {@linkplain #omit omitted} with the reason.
 */
public final class InterfaceSuggester {

  /** The package of the annotations, with a dot. */
  public static final String ANNOTATIONS = "dev.ireestubs.annotations.";

  /** The package of the typed arrays, with a dot. */
  public static final String NDARRAY = "dev.ireestubs.ndarray.";

  /** The opaque ref type. */
  public static final String VM_REF = "dev.ireestubs.vm.VmRef";

  /** The list type. */
  public static final String LIST = "java.util.List";

  /** The future an asynchronous method returns. */
  public static final String COMPLETABLE_FUTURE = "java.util.concurrent.CompletableFuture";

  /** Simple names a nested record must not take: they would shadow a type the interface uses. */
  private static final Set<String> RESERVED_TYPE_NAMES = reservedTypeNames();

  private static Set<String> reservedTypeNames() {
    Set<String> names = new TreeSet<>(JavaMapping.ARRAY_CLASSES);
    names.add(JavaMapping.ANY_ARRAY_CLASS);
    names.addAll(
        List.of(
            "IreeModule",
            "IreeFunction",
            "IreeKey",
            "VmRef",
            "List",
            "Object",
            "String",
            "Record",
            "Boolean",
            "Byte",
            "Short",
            "Integer",
            "Long",
            "Float",
            "Double",
            "Character",
            "Number",
            "Void",
            "Override",
            "Deprecated",
            "CompletableFuture"));
    return Set.copyOf(names);
  }

  private final String moduleName;
  private final InterfaceSuggestion.Source source;
  private final String interfaceName;
  private final NameAllocator typeNames = new NameAllocator();
  private final NameAllocator methodNames = new NameAllocator();
  private final Map<RecordKey, String> records = new HashMap<>();
  private final Set<String> imports = new TreeSet<>();
  private final List<Method> methods = new ArrayList<>();
  private final List<Omitted> omitted = new ArrayList<>();
  private final List<String> extraNotes = new ArrayList<>();

  /** Records with the same name base and shape are declared once and shared. */
  private record RecordKey(String base, Object shape) {}

  /** One type written in Java source, and its boxed form for a type argument. */
  private record JavaType(String source, String boxed) {
    static JavaType of(String source) {
      return new JavaType(source, source);
    }
  }

  /**
   * A suggester for one module, writing its interface under the given names.
   *
   * @param moduleName the module's name, for {@code @IreeModule(name = ...)} and the interface name
   * @param source the file {@code @IreeModule} names
   * @param interfaceName the interface's simple name; empty: the module's name in PascalCase
   */
  public InterfaceSuggester(
      String moduleName, InterfaceSuggestion.Source source, Optional<String> interfaceName) {
    this.moduleName = Objects.requireNonNull(moduleName, "moduleName");
    this.source = Objects.requireNonNull(source, "source");
    String name = interfaceName.orElse(JavaNames.typeName(moduleName, "Module"));
    this.interfaceName =
        interfaceName.isEmpty() && RESERVED_TYPE_NAMES.contains(name) ? name + "Module" : name;
    typeNames.reserve(RESERVED_TYPE_NAMES).reserve(this.interfaceName);
    methodNames.reserve(JavaNames.OBJECT_METHOD_NAMES);
    imports.add(ANNOTATIONS + "IreeModule");
  }

  /**
   * Adds a method for export {@code function}, or records it as omitted when some type of its
   * signature has no Java type.
   *
   * @param function the export's name in the module
   * @param signature the export's resolved signature
   * @param source where the signature came from ({@code iree.abi.declaration}, ...), for a comment
   * @param reflection the reflection text as the module states it, quoted in the method's Javadoc
   * @param declaration the export's parsed declaration, whose parameter names name the parameters
   *     and result components
   * @param notes further lines for the method's comment (warnings, caveats)
   * @return this suggester, for chaining
   */
  public InterfaceSuggester function(
      String function,
      FunctionSignature signature,
      String source,
      String reflection,
      Optional<Declaration> declaration,
      List<String> notes) {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(signature, "signature");
    Optional<String> problem = unbindable(signature, declaration);
    if (problem.isPresent()) {
      return omit(function, problem.get(), false);
    }
    boolean async = signature.model() == FunctionSignature.CallingModel.COARSE_FENCES;
    String name = methodNames.allocate(JavaNames.camelName(function, "function"));
    // The twin f$async names its records as f does, so that the two methods share them.
    String base =
        CoarseFences.syncName(function).map(f -> JavaNames.camelName(f, "function")).orElse(name);
    String typeBase = base + "_result";
    List<RecordType> introduced = new ArrayList<>();

    NameAllocator parameterNames = new NameAllocator();
    List<Variable> parameters = new ArrayList<>();
    List<AbiType> args = signature.arguments();
    for (int i = 0; i < args.size(); i++) {
      AbiType arg = args.get(i);
      String fallback = "input" + i;
      if (arg instanceof AbiType.Named named) {
        String p = parameterNames.allocate(JavaNames.camelName(named.name(), fallback));
        Optional<String> key =
            p.equals(named.name()) ? Optional.empty() : Optional.of(named.name());
        if (key.isPresent()) {
          imports.add(ANNOTATIONS + "IreeKey");
        }
        parameters.add(
            new Variable(javaType(named.type(), named.name(), introduced).source(), p, key));
      } else {
        Optional<String> declared = parameterName(declaration, i, true);
        String raw = declared.orElse(fallback);
        String p = parameterNames.allocate(JavaNames.camelName(raw, fallback));
        // A structure with no name of its own is named after its function: PredictInput (or
        // PredictInput1 among several arguments) reads better than Input0.
        String typeName =
            declared.orElse(base + "_input" + (args.size() == 1 ? "" : String.valueOf(i)));
        parameters.add(
            new Variable(javaType(arg, typeName, introduced).source(), p, Optional.empty()));
      }
    }

    String returnType;
    List<AbiType> results = signature.results();
    if (results.isEmpty()) {
      returnType = "void";
    } else if (signature.hasInlinedResults() && results.get(0) instanceof AbiType.Sequence) {
      returnType =
          resultRecord(
              typeBase,
              ((AbiType.Sequence) results.get(0)).elements(),
              Optional.empty(),
              introduced);
    } else if (signature.hasInlinedResults() || results.size() == 1) {
      returnType = javaType(results.get(0), typeBase, introduced).source();
    } else {
      returnType = resultRecord(typeBase, results, declaration, introduced);
    }

    List<String> comments = new ArrayList<>();
    if (async) {
      returnType = "CompletableFuture<" + boxed(returnType) + ">";
      imports.add(COMPLETABLE_FUTURE);
      comments.add(
          "Asynchronous (coarse-fences): returns at once; the future completes when the call's"
              + " signal fence is reached. The backend passes the wait and signal fences; add a"
              + " last parameter Fence wait to run the call after another's (its"
              + " FencedFuture.signal()).");
    }
    comments.addAll(notes);
    if (!name.equals(function)) {
      imports.add(ANNOTATIONS + "IreeFunction");
    }
    boolean unchecked = signature.format() == ReflectionFormat.CALLING_CONVENTION;
    methods.add(
        new Method(
            name,
            function,
            parameters,
            returnType,
            reflection,
            signature + " (from " + source + ")",
            comments,
            unchecked,
            introduced));
    return this;
  }

  /**
   * Leaves export {@code function} out of the interface, saying why.
   *
   * @param function the export's name in the module
   * @param reason why no method is written, for the interface's comment
   * @param bookkeeping true for IREE's own exports, left out by design
   * @return this suggester, for chaining
   */
  public InterfaceSuggester omit(String function, String reason, boolean bookkeeping) {
    omitted.add(new Omitted(function, reason, bookkeeping));
    return this;
  }

  /**
   * Adds a sentence about the interface as a whole, printed in its Javadoc.
   *
   * @param note the sentence
   * @return this suggester
   */
  public InterfaceSuggester note(String note) {
    extraNotes.add(Objects.requireNonNull(note, "note"));
    return this;
  }

  /**
   * The interface so far.
   *
   * @return the methods and omissions added until now, with the imports they need
   */
  public InterfaceSuggestion build() {
    List<String> notes = new ArrayList<>();
    if (moduleName.isEmpty()) {
      notes.add(
          "the module has no name, but a stub looks its functions up by module name:"
              + " @IreeModule(name) must name the module as the runtime knows it");
    }
    notes.addAll(extraNotes);
    return new InterfaceSuggestion(
        interfaceName, moduleName, source, List.copyOf(imports), notes, methods, omitted);
  }

  /** {@code javaType} as a type argument: {@code Void} for {@code void}, primitives boxed. */
  private static String boxed(String javaType) {
    return switch (javaType) {
      case "void" -> "Void";
      case "boolean" -> "Boolean";
      case "byte" -> "Byte";
      case "short" -> "Short";
      case "int" -> "Integer";
      case "long" -> "Long";
      case "float" -> "Float";
      case "double" -> "Double";
      default -> javaType;
    };
  }

  // ----------------------------------------------------------------------------------------------
  // Types

  private JavaType javaType(AbiType t, String hint, List<RecordType> introduced) {
    if (t instanceof AbiType.Scalar scalar) {
      Class<?> p = JavaMapping.scalar(scalar.element()).orElseThrow();
      return new JavaType(p.getName(), JavaMapping.boxed(p).getSimpleName());
    }
    if (t instanceof AbiType.NdArray ndArray) {
      String c = JavaMapping.arrayClass(ndArray.element()).orElse(JavaMapping.ANY_ARRAY_CLASS);
      imports.add(NDARRAY + c);
      return JavaType.of(c);
    }
    if (t instanceof AbiType.Dict dict) {
      return JavaType.of(dictRecord(dict, hint, introduced));
    }
    if (t instanceof AbiType.Sequence sequence) {
      List<AbiType> elements = sequence.elements();
      Optional<AbiType> uniform = JavaMapping.uniformElement(elements);
      if (uniform.isPresent()) {
        return list(javaType(uniform.get(), hint + "_item", introduced));
      }
      return JavaType.of(sequenceRecord(t, elements, hint, introduced));
    }
    if (t instanceof AbiType.HomogeneousList homogeneousList) {
      return list(javaType(homogeneousList.element(), hint + "_item", introduced));
    }
    // Ref, Any, Unknown: opaque refs. (Named and Unsupported never get here: see unbindable.)
    imports.add(VM_REF);
    return JavaType.of("VmRef");
  }

  private JavaType list(JavaType element) {
    imports.add(LIST);
    return JavaType.of("List<" + element.boxed() + ">");
  }

  private String dictRecord(AbiType.Dict dict, String hint, List<RecordType> introduced) {
    String base = JavaNames.typeName(hint, "Value");
    RecordKey key = new RecordKey(base, dict);
    String existing = records.get(key);
    if (existing != null) {
      return existing;
    }
    List<String> keys = dict.keys();
    NameAllocator componentNames = new NameAllocator().reserve(JavaNames.FORBIDDEN_COMPONENT_NAMES);
    List<Variable> components = new ArrayList<>();
    for (int i = 0; i < dict.entries().size(); i++) {
      AbiType.Entry e = dict.entries().get(i);
      String camel = AbiType.Dict.camelCase(e.key());
      String name = componentNames.allocate(JavaNames.camelName(camel, "value" + i));
      // The processor binds a component without @IreeKey to the key of its exact name, else to the
      // key whose camelCase form it is; annotate whenever that would not find this key.
      boolean binds = name.equals(e.key()) || (name.equals(camel) && !keys.contains(name));
      Optional<String> k = binds ? Optional.empty() : Optional.of(e.key());
      if (k.isPresent()) {
        imports.add(ANNOTATIONS + "IreeKey");
      }
      components.add(new Variable(javaType(e.type(), e.key(), introduced).source(), name, k));
    }
    return declare(key, base, "the structure " + hint, components, introduced);
  }

  private String sequenceRecord(
      AbiType t, List<AbiType> elements, String hint, List<RecordType> introduced) {
    String base = JavaNames.typeName(hint, "Value");
    RecordKey key = new RecordKey(base, t);
    String existing = records.get(key);
    if (existing != null) {
      return existing;
    }
    List<Variable> components = new ArrayList<>();
    for (int i = 0; i < elements.size(); i++) {
      String type = javaType(elements.get(i), hint + "_value" + i, introduced).source();
      components.add(new Variable(type, "value" + i, Optional.empty()));
    }
    return declare(key, base, "the positional structure " + hint, components, introduced);
  }

  /** A positional record of results, components named after the declaration's results. */
  private String resultRecord(
      String hint,
      List<AbiType> results,
      Optional<Declaration> declaration,
      List<RecordType> introduced) {
    NameAllocator componentNames = new NameAllocator().reserve(JavaNames.FORBIDDEN_COMPONENT_NAMES);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      String raw = parameterName(declaration, i, false).orElse("output" + i);
      names.add(componentNames.allocate(JavaNames.camelName(raw, "output" + i)));
    }
    String base = JavaNames.typeName(hint, "Result");
    RecordKey key = new RecordKey(base, List.of(results, names));
    String existing = records.get(key);
    if (existing != null) {
      return existing;
    }
    List<Variable> components = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      String type = javaType(results.get(i), names.get(i), introduced).source();
      components.add(new Variable(type, names.get(i), Optional.empty()));
    }
    return declare(
        key, base, "the results of " + hint.replaceAll("_result$", ""), components, introduced);
  }

  private String declare(
      RecordKey key,
      String base,
      String what,
      List<Variable> components,
      List<RecordType> introduced) {
    String name = typeNames.allocate(base);
    records.put(key, name);
    introduced.add(new RecordType(name, what, components));
    return name;
  }

  /** The name of argument (or result) {@code i} in the declaration, when it has one. */
  private static Optional<String> parameterName(
      Optional<Declaration> declaration, int i, boolean argument) {
    if (declaration.isEmpty()) {
      return Optional.empty();
    }
    List<Declaration.Parameter> list =
        argument ? declaration.get().arguments() : declaration.get().results();
    return i < list.size() ? Optional.of(list.get(i).name()) : Optional.empty();
  }

  // ----------------------------------------------------------------------------------------------
  // What no Java type binds

  /**
   * Why no method can bind {@code signature}, naming the first offending value; empty if one can.
   *
   * @param signature the export's resolved signature
   * @param declaration the export's parsed declaration, when it has one
   * @return the reason naming the first value without a Java type, or empty when a method can bind
   *     it
   */
  public static Optional<String> unbindable(
      FunctionSignature signature, Optional<Declaration> declaration) {
    List<AbiType> args = signature.arguments();
    for (int i = 0; i < args.size(); i++) {
      AbiType arg = args.get(i);
      String path;
      if (arg instanceof AbiType.Named) {
        path = "argument " + ((AbiType.Named) arg).name();
        arg = ((AbiType.Named) arg).type();
      } else {
        path = "argument " + parameterName(declaration, i, true).orElse(Integer.toString(i));
      }
      Optional<String> p = unbindable(arg, path);
      if (p.isPresent()) {
        return p;
      }
    }
    List<AbiType> results = signature.results();
    for (int i = 0; i < results.size(); i++) {
      Optional<String> p =
          unbindable(results.get(i), results.size() == 1 ? "the result" : "result " + i);
      if (p.isPresent()) {
        return p;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> unbindable(AbiType t, String path) {
    if (t instanceof AbiType.Unsupported u) {
      return Optional.of(
          path + " is " + u.source() + ", which no Java type binds to: " + u.reason());
    }
    if (t instanceof AbiType.Named) {
      return Optional.of(
          path
              + " is "
              + t
              + ", which no Java type binds to: named is allowed only as a root"
              + " argument");
    }
    if (t instanceof AbiType.Scalar scalar) {
      ElementType e = scalar.element();
      if (JavaMapping.scalar(e).isEmpty()) {
        return Optional.of(
            path
                + " is a "
                + e
                + " scalar, which no Java type binds to: "
                + (e.isFloat()
                    ? e + " scalars are not VM values"
                    : "scalars bind i1, i8, i16, i32, i64, f32 and f64 only"));
      }
      return Optional.empty();
    }
    if (t instanceof AbiType.NdArray ndArray) {
      ElementType e = ndArray.element();
      if (e.isKnown() && JavaMapping.arrayClass(e).isEmpty()) {
        return Optional.of(
            path
                + " is "
                + t
                + ", which no Java type binds to: no array class holds "
                + e
                + " elements (arrays hold f16, bf16, f32, f64, i1 and 8- to 64-bit integers)");
      }
      return Optional.empty();
    }
    if (t instanceof AbiType.Dict dict) {
      for (AbiType.Entry e : dict.entries()) {
        Optional<String> p = unbindable(e.type(), path + "." + e.key());
        if (p.isPresent()) {
          return p;
        }
      }
      return Optional.empty();
    }
    if (t instanceof AbiType.Sequence sequence) {
      List<AbiType> elements = sequence.elements();
      for (int i = 0; i < elements.size(); i++) {
        Optional<String> p = unbindable(elements.get(i), path + "[" + i + "]");
        if (p.isPresent()) {
          return p;
        }
      }
      return Optional.empty();
    }
    if (t instanceof AbiType.HomogeneousList homogeneousList) {
      return unbindable(homogeneousList.element(), path + "[*]");
    }
    return Optional.empty();
  }
}
