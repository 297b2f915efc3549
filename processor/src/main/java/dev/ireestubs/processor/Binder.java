package dev.ireestubs.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.abi.Shape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Matches one method's parameters and return type to one function signature, using the type
 * mapping of DESIGN.md, and builds its {@link FunctionModel}. Every mismatch is reported on the
 * exact element (parameter, record component, method, annotation value); binding goes on after a
 * mismatch so one compile shows them all.
 *
 * <p>A Java type that does not resolve (yet) is not an error here: it is recorded in {@link
 * #unresolvedTypes()}, and the caller defers the interface to the next round.
 */
final class Binder {

  static final String NDARRAY_PACKAGE = "dev.ireestubs.ndarray";
  static final String ND_ARRAY = NDARRAY_PACKAGE + ".NdArray";
  static final String VM_REF = "dev.ireestubs.vm.VmRef";

  /** Every typed array class, in the order messages list them: {@link JavaMapping#ARRAY_CLASSES}. */
  static final List<String> ALL_ARRAY_CLASSES = JavaMapping.ARRAY_CLASSES;

  /** Where a Java type was written, and how to call it in a message. */
  private record Site(Element element, String noun) {}

  private final Elements elements;
  private final Types types;
  private final Reporter report;
  private final PackageElement stubPackage;
  private final String stubName;
  private final Predicate<Element> hasSource;
  private final Set<String> unresolved = new LinkedHashSet<>();

  // The function being bound, for messages.
  private String functionName;
  private FunctionSignature signature;
  private AbiType synthesizedResults;

  /**
   * @param stubPackage the package the stub is generated in: types it uses must be accessible there
   * @param stubName the stub's simple name, for messages
   * @param hasSource whether an element has source in this compilation (so a diagnostic on it
   *     shows a line)
   */
  Binder(
      Elements elements,
      Types types,
      Reporter report,
      PackageElement stubPackage,
      String stubName,
      Predicate<Element> hasSource) {
    this.elements = elements;
    this.types = types;
    this.report = report;
    this.stubPackage = stubPackage;
    this.stubName = stubName;
    this.hasSource = hasSource;
  }

  /** Types seen that did not resolve: the interface must wait for a later round. */
  Set<String> unresolvedTypes() {
    return Set.copyOf(unresolved);
  }

  // ----------------------------------------------------------------------------------------------
  // Functions

  /**
   * Binds {@code method} (with its type as a member of the annotated interface) to {@code
   * signature}; empty when anything did not match (reported) or did not resolve.
   */
  Optional<FunctionModel> bindFunction(
      ExecutableElement method,
      ExecutableType methodType,
      String functionName,
      FunctionSignature signature,
      String reflectionSource,
      FunctionModel.Embedded embedded) {
    this.functionName = functionName;
    this.signature = signature;
    this.synthesizedResults = null;
    boolean ok = true;
    List<? extends VariableElement> params = method.getParameters();
    List<? extends TypeMirror> paramTypes = methodType.getParameterTypes();
    List<AbiType> args = signature.arguments();
    List<ParameterModel> parameters = new ArrayList<>();
    if (params.size() != args.size()) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          functionName
              + ": the function takes "
              + count(args.size(), "argument")
              + " in the module "
              + describeAll(args)
              + ", but method "
              + method.getSimpleName()
              + " has "
              + count(params.size(), "parameter")
              + "; declare one parameter per argument, in order"
              + (signature.model() == FunctionSignature.CallingModel.COARSE_FENCES
                  ? " (not the wait and signal fences of its coarse-fences model, which the"
                      + " backend passes itself)"
                  : ""),
          method);
      ok = false;
    } else {
      for (int i = 0; i < params.size(); i++) {
        ParameterModel p =
            bindParameter(functionName, i, params.get(i), paramTypes.get(i), args.get(i));
        if (p == null) {
          ok = false;
        } else {
          parameters.add(p);
        }
      }
    }
    ResultModel result = bindResult(functionName, method, methodType.getReturnType());
    if (result == null || !ok) {
      return Optional.empty();
    }
    return Optional.of(
        new FunctionModel(
            method,
            functionName,
            signature,
            reflectionSource,
            embedded,
            parameters,
            result,
            Optional.empty(),
            false));
  }

  private ParameterModel bindParameter(
      String function, int index, VariableElement param, TypeMirror type, AbiType arg) {
    String javaName = param.getSimpleName().toString();
    Optional<AnnotationMirror> key = Annotations.find(param, Annotations.IREE_KEY);
    String keyValue = key.map(m -> Annotations.string(elements, m, "value")).orElse(null);
    AbiType inner = arg;
    String pathName = javaName;
    boolean ok = true;
    if (arg instanceof AbiType.Named) {
      AbiType.Named named = (AbiType.Named) arg;
      inner = named.type();
      pathName = named.name();
      String given = keyValue != null ? keyValue : javaName;
      if (!given.equals(named.name())) {
        ok = false;
        if (keyValue != null) {
          report.error(
              Tag.SIGNATURE_MISMATCH,
              function
                  + ": argument "
                  + index
                  + " is named "
                  + quote(named.name())
                  + " in the module, but @IreeKey on parameter "
                  + javaName
                  + " says "
                  + quote(keyValue)
                  + "; change it to @IreeKey("
                  + quote(named.name())
                  + ")",
              param,
              key.get(),
              Annotations.explicitValue(key.get(), "value"));
        } else {
          report.error(
              Tag.SIGNATURE_MISMATCH,
              function
                  + ": argument "
                  + index
                  + " is named "
                  + quote(named.name())
                  + " in the module, but the parameter is named "
                  + javaName
                  + "; "
                  + (Names.isJavaName(named.name())
                      ? "rename the parameter to " + named.name() + " or annotate it "
                      : "annotate it ")
                  + "@IreeKey("
                  + quote(named.name())
                  + ")",
              param);
        }
      }
    } else if (key.isPresent()) {
      report.warning(
          Tag.IGNORED_ANNOTATION,
          function
              + ": argument "
              + index
              + " is positional in the module (it has no name), so @IreeKey("
              + quote(keyValue)
              + ") on parameter "
              + javaName
              + " has no effect; remove it",
          param,
          key.get(),
          Annotations.explicitValue(key.get(), "value"));
    }
    ValueBinding binding =
        bind(inner, type, function + ": " + pathName, new Site(param, "the parameter"));
    if (binding == null || !ok) {
      return null;
    }
    return new ParameterModel(javaName, TypeName.get(type), binding.path(), binding);
  }

  private ResultModel bindResult(String function, ExecutableElement method, TypeMirror returnType) {
    List<AbiType> results = signature.results();
    String path = function + ": result";
    Site site = new Site(method, "the return type");
    if (returnType.getKind() == TypeKind.VOID) {
      if (results.isEmpty()) {
        return new ResultModel.Void();
      }
      report.error(
          Tag.SIGNATURE_MISMATCH,
          function
              + ": the function returns "
              + describeAll(results)
              + " in the module, but method "
              + method.getSimpleName()
              + " returns void; "
              + (results.size() == 1
                  ? fix(results.get(0), path).replace("change its type", "change the return type")
                  : "return a record with one component per result, in order"),
          method);
      return null;
    }
    if (results.isEmpty()) {
      if (returnType.getKind() == TypeKind.ERROR) {
        unresolved.add(returnType.toString());
        return null;
      }
      report.error(
          Tag.SIGNATURE_MISMATCH,
          function
              + ": the function returns nothing in the module, but method "
              + method.getSimpleName()
              + " returns "
              + display(returnType)
              + "; change the return type to void",
          method);
      return null;
    }
    if (signature.hasInlinedResults()) {
      ValueBinding b = bind(results.get(0), returnType, path, site);
      return b == null ? null : new ResultModel.Inlined(TypeName.get(returnType), b);
    }
    if (results.size() == 1) {
      ValueBinding b = bind(results.get(0), returnType, path, site);
      return b == null ? null : new ResultModel.Single(TypeName.get(returnType), b);
    }
    synthesizedResults = new AbiType.Sequence(AbiType.SequenceKind.TUPLE, results);
    ValueBinding b = bind(synthesizedResults, returnType, path, site);
    return b == null ? null : new ResultModel.Inlined(TypeName.get(returnType), b);
  }

  // ----------------------------------------------------------------------------------------------
  // Values

  /** Binds one value; null when it does not match (reported) or does not resolve (recorded). */
  private ValueBinding bind(AbiType t, TypeMirror j, String path, Site site) {
    if (j.getKind() == TypeKind.ERROR) {
      unresolved.add(j.toString());
      return null;
    }
    if (t instanceof AbiType.Unsupported) {
      AbiType.Unsupported u = (AbiType.Unsupported) t;
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is "
              + u.source()
              + " in the module, which no Java type binds to: "
              + u.reason()
              + "; describe the function with a supported signature in @IreeFunction(abi = ...)",
          site.element());
      return null;
    }
    if (t instanceof AbiType.Named) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is "
              + describe(t)
              + " in the module, which no Java type binds to: \"named\" is allowed only as a"
              + " root argument",
          site.element());
      return null;
    }
    if (t instanceof AbiType.Scalar) {
      return bindScalar((AbiType.Scalar) t, j, path, site);
    }
    if (t instanceof AbiType.NdArray) {
      return bindNdArray((AbiType.NdArray) t, j, path, site);
    }
    if (t instanceof AbiType.Dict) {
      return bindDict((AbiType.Dict) t, j, path, site);
    }
    if (t instanceof AbiType.Sequence) {
      return bindSequence((AbiType.Sequence) t, j, path, site);
    }
    if (t instanceof AbiType.HomogeneousList) {
      return bindHomogeneousList((AbiType.HomogeneousList) t, j, path, site);
    }
    // Any (JSON null), Unknown ("unknown"), Ref: opaque refs.
    return bindRef(t, j, path, site);
  }

  private ValueBinding bindScalar(AbiType.Scalar t, TypeMirror j, String path, Site site) {
    TypeKind primitive = primitiveFor(t.element());
    if (primitive == null) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is "
              + describe(t)
              + " in the module, which no Java type binds to: "
              + (t.element().isFloat()
                  ? t.element() + " scalars are not VM values (IREE's runtime cannot pass them"
                      + " either)"
                  : "scalars bind i1, i8, i16, i32, i64, f32 and f64 only")
              + "; change the function to take a supported type",
          site.element());
      return null;
    }
    if (j.getKind() == primitive) {
      return new ScalarBinding(t, TypeName.get(j), false, path);
    }
    if (j.getKind() == TypeKind.DECLARED
        && qualifiedName(j).equals(boxName(primitive))) {
      return new ScalarBinding(t, TypeName.get(j), true, path);
    }
    return mismatch(t, j, path, site);
  }

  private ValueBinding bindNdArray(AbiType.NdArray t, TypeMirror j, String path, Site site) {
    ElementType e = t.element();
    // An unknown element type (!hal.buffer_view, ["ndarray", null, ...]) binds every array class,
    // as a calling convention's r does: only the shape is checked against the declaration, and
    // the class's fromBufferView checks the element type of a result.
    List<String> classes = JavaMapping.arrayClassesAccepting(e);
    if (e.isKnown() && classes.isEmpty()) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + " is "
              + describe(t)
              + " in the module, which no Java type binds to: no array class holds "
              + e
              + " elements (arrays hold f16, bf16, f32, f64, i1 and 8- to 64-bit integers)",
          site.element());
      return null;
    }
    if (j.getKind() == TypeKind.DECLARED) {
      String name = qualifiedName(j);
      for (String c : classes) {
        if (name.equals(NDARRAY_PACKAGE + "." + c)) {
          return new ArrayBinding(t, ClassName.get(NDARRAY_PACKAGE, c), path);
        }
      }
      if (name.equals(ND_ARRAY)) {
        return new ArrayBinding(t, ClassName.get(NDARRAY_PACKAGE, "NdArray"), path);
      }
      return mismatch(t, j, path, site);
    }
    if (j.getKind() != TypeKind.ARRAY) {
      return mismatch(t, j, path, site);
    }
    int rank = 0;
    TypeMirror component = j;
    while (component.getKind() == TypeKind.ARRAY) {
      component = ((ArrayType) component).getComponentType();
      rank++;
    }
    if (component.getKind() == TypeKind.ERROR) {
      unresolved.add(component.toString());
      return null;
    }
    TypeKind expected = javaArrayComponentFor(e);
    String typed = classes.isEmpty() ? "NdArray" : classes.get(0);
    if (expected == null) {
      String sameElements =
          component.getKind().isPrimitive() ? arrayClassOf(component.getKind()) : null;
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + describe(t)
              + " in the module; "
              + (e.isKnown()
                  ? "Java arrays cannot hold " + e + " elements, so it binds to " + or(classes)
                  : "its element type is not known, so it binds to NdArray or a typed array"
                      + " (whose element type is checked at run time), not to a Java array")
              + ", but "
              + site.noun()
              + " is "
              + display(j)
              + "; change its type to "
              + (e.isKnown()
                  ? typed
                  : (sameElements == null ? "" : sameElements + " or ") + "NdArray"),
          site.element());
      return null;
    }
    if (!javaArrayRank(t.shape())) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + describe(t)
              + " in the module, "
              + (!t.shape().isRanked()
                  ? "of unknown rank, but a Java array has a fixed rank"
                  : t.shape().rank() == 0
                      ? "a rank-0 array, but Java arrays have rank 1 or more"
                      : "of rank "
                          + t.shape().rank()
                          + ", but Java arrays are converted at rank 1 to "
                          + MAX_JAVA_ARRAY_RANK)
              + ", so it binds to "
              + or(classes)
              + ", not to "
              + display(j)
              + "; change its type to "
              + typed,
          site.element());
      return null;
    }
    if (component.getKind() != expected) {
      return mismatch(t, j, path, site);
    }
    if (rank != t.shape().rank()) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + describe(t)
              + " in the module, of rank "
              + t.shape().rank()
              + ", which binds to "
              + accepts(t)
              + ", but "
              + site.noun()
              + " is "
              + display(j)
              + " (rank "
              + rank
              + "); change its type to "
              + javaArrayText(expected, t.shape().rank()),
          site.element());
      return null;
    }
    return new JavaArrayBinding(
        t, (ArrayTypeName) TypeName.get(j), rank, TypeName.get(component), path);
  }

  private ValueBinding bindDict(AbiType.Dict t, TypeMirror j, String path, Site site) {
    MapArg map = mapValue(t, j, path, site);
    if (map != null) {
      return map.value() == null ? null : bindMap(t, j, map.value(), path, site);
    }
    TypeElement record = recordOf(j);
    if (record == null) {
      return mismatch(t, j, path, site);
    }
    if (!usableRecord(record, path, site)) {
      return null;
    }
    List<? extends RecordComponentElement> components = record.getRecordComponents();
    List<String> keys = t.keys();
    Map<String, RecordComponentElement> byKey = new HashMap<>();
    List<RecordComponentElement> badKeyAnnotation = new ArrayList<>();
    List<RecordComponentElement> pending = new ArrayList<>();
    boolean ok = true;
    // 1. @IreeKey, 2. the exact name, 3. the camelCase form of a snake_case key.
    for (RecordComponentElement c : components) {
      Optional<AnnotationMirror> key = Annotations.find(c, Annotations.IREE_KEY);
      if (key.isEmpty()) {
        pending.add(c);
        continue;
      }
      String k = Annotations.string(elements, key.get(), "value");
      if (!keys.contains(k)) {
        badKeyAnnotation.add(c);
      } else if (byKey.containsKey(k)) {
        ok = false;
        duplicateKey(record, c, byKey.get(k), k, path, site);
      } else {
        byKey.put(k, c);
      }
    }
    for (RecordComponentElement c : new ArrayList<>(pending)) {
      String name = c.getSimpleName().toString();
      if (keys.contains(name)) {
        pending.remove(c);
        if (byKey.containsKey(name)) {
          // Taken by an @IreeKey component.
          ok = false;
          duplicateKey(record, c, byKey.get(name), name, path, site);
        } else {
          byKey.put(name, c);
        }
      }
    }
    for (RecordComponentElement c : new ArrayList<>(pending)) {
      String name = c.getSimpleName().toString();
      for (String k : keys) {
        if (!byKey.containsKey(k) && AbiType.Dict.camelCase(k).equals(name)) {
          byKey.put(k, c);
          pending.remove(c);
          break;
        }
      }
    }
    List<String> freeKeys =
        keys.stream().filter(k -> !byKey.containsKey(k)).collect(Collectors.toList());
    String keyList = keys.isEmpty() ? "none" : String.join(", ", keys);
    for (RecordComponentElement c : components) {
      boolean badAnnotation = badKeyAnnotation.contains(c);
      if (!badAnnotation && !pending.contains(c)) {
        continue;
      }
      ok = false;
      String name = c.getSimpleName().toString();
      if (badAnnotation) {
        AnnotationMirror key = Annotations.find(c, Annotations.IREE_KEY).orElseThrow();
        String k = Annotations.string(elements, key, "value");
        Optional<String> near = Names.nearest(k, freeKeys);
        near.ifPresent(freeKeys::remove);
        componentError(
            record,
            c,
            path
                + ": @IreeKey("
                + quote(k)
                + ") on component "
                + name
                + " of record "
                + record.getSimpleName()
                + " names no key of the sdict in the module (keys: "
                + keyList
                + ")"
                + near.map(n -> "; did you mean " + quote(n) + "? change it to @IreeKey(" + quote(n) + ")")
                    .orElse("; change it to one of the keys"),
            true,
            site);
        continue;
      }
      Optional<String> near = Names.nearest(name, freeKeys);
      if (near.isPresent()) {
        String n = near.get();
        freeKeys.remove(n);
        componentError(
            record,
            c,
            path
                + ": the sdict in the module has no key "
                + quote(name)
                + " for component "
                + name
                + " of record "
                + record.getSimpleName()
                + "; did you mean "
                + quote(n)
                + "? "
                + (Names.isJavaName(AbiType.Dict.camelCase(n))
                    ? "rename the component to " + AbiType.Dict.camelCase(n) + " or annotate it "
                    : "annotate it ")
                + "@IreeKey("
                + quote(n)
                + ")",
            false,
            site);
      } else {
        componentError(
            record,
            c,
            path
                + ": record "
                + record.getSimpleName()
                + " has component "
                + name
                + ", but the sdict in the module has no such key (keys: "
                + keyList
                + "); remove the component or annotate it @IreeKey with one of the keys",
            false,
            site);
      }
    }
    for (String k : freeKeys) {
      ok = false;
      AbiType type = t.entry(k).orElseThrow().type();
      String component = AbiType.Dict.camelCase(k);
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + "."
              + k
              + " is "
              + describe(type)
              + " in the module, but record "
              + record.getSimpleName()
              + " has no component for key "
              + quote(k)
              + "; add a component "
              + suggestType(type, k)
              + " "
              + (Names.isJavaName(component)
                  ? component
                  : "annotated @IreeKey(" + quote(k) + ")"),
          hasSource.test(record) ? record : site.element());
    }
    List<ComponentBinding> bindings = new ArrayList<>();
    for (AbiType.Entry entry : t.entries()) {
      RecordComponentElement c = byKey.get(entry.key());
      if (c == null) {
        continue;
      }
      ValueBinding b =
          bind(
              entry.type(),
              c.asType(),
              path + "." + entry.key(),
              componentSite(record, c, site));
      if (b == null) {
        ok = false;
      } else {
        bindings.add(new ComponentBinding(entry.key(), c.getSimpleName().toString(), b));
      }
    }
    if (!ok) {
      return null;
    }
    List<String> declared =
        components.stream().map(c -> c.getSimpleName().toString()).collect(Collectors.toList());
    return new RecordBinding(t, ClassName.get(record), bindings, path, declared);
  }

  /**
   * An sdict as {@code Map<String, V>}: every value must bind to {@code V} (each one that does not
   * is reported on the parameter or component, under its own path).
   */
  private ValueBinding bindMap(
      AbiType.Dict t, TypeMirror j, TypeMirror valueType, String path, Site site) {
    Site valueSite = new Site(site.element(), "the map's value type");
    List<ValueBinding> values = new ArrayList<>();
    boolean ok = true;
    for (AbiType.Entry entry : t.entries()) {
      ValueBinding b = bind(entry.type(), valueType, path + "." + entry.key(), valueSite);
      if (b == null) {
        ok = false;
      } else {
        values.add(b);
      }
    }
    return ok ? new MapBinding(t, TypeName.get(j), t.keys(), values, path) : null;
  }

  private void duplicateKey(
      TypeElement record,
      RecordComponentElement c,
      RecordComponentElement first,
      String key,
      String path,
      Site site) {
    componentError(
        record,
        c,
        path
            + ": components "
            + first.getSimpleName()
            + " and "
            + c.getSimpleName()
            + " of record "
            + record.getSimpleName()
            + " both bind key "
            + quote(key)
            + "; bind each key once",
        Annotations.find(c, Annotations.IREE_KEY).isPresent(),
        site);
  }

  private ValueBinding bindSequence(AbiType.Sequence t, TypeMirror j, String path, Site site) {
    List<AbiType> elems = t.elements();
    ListArg list = listElement(t, j, path, site);
    if (list != null && list.element() == null) {
      return null;
    }
    if (list != null) {
      TypeMirror elementType = list.element();
      if (elems.isEmpty() || !isUniform(elems)) {
        report.error(
            Tag.SIGNATURE_MISMATCH,
            path
                + " is "
                + describe(t)
                + " in the module, "
                + (elems.isEmpty() ? "with no elements" : "whose elements differ")
                + ", so it binds only to "
                + accepts(t)
                + ", but "
                + site.noun()
                + " is "
                + display(j)
                + "; "
                + fix(t, path),
            site.element());
        return null;
      }
      ValueBinding element =
          bind(elems.get(0), elementType, path + "[*]", new Site(site.element(), "the list's element type"));
      return element == null
          ? null
          : new ListBinding(t, TypeName.get(j), element, elems.size(), path);
    }
    TypeElement record = recordOf(j);
    if (record == null) {
      return mismatch(t, j, path, site);
    }
    if (!usableRecord(record, path, site)) {
      return null;
    }
    List<? extends RecordComponentElement> components = record.getRecordComponents();
    boolean ok = true;
    if (components.size() != elems.size()) {
      ok = false;
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + describe(t)
              + " in the module, with "
              + count(elems.size(), t == synthesizedResults ? "result" : "element")
              + ", but record "
              + record.getSimpleName()
              + " has "
              + count(components.size(), "component")
              + "; declare exactly "
              + elems.size()
              + ", one per "
              + (t == synthesizedResults ? "result" : "element")
              + " in order",
          hasSource.test(record) ? record : site.element());
    }
    List<ComponentBinding> bindings = new ArrayList<>();
    for (int i = 0; i < Math.min(components.size(), elems.size()); i++) {
      RecordComponentElement c = components.get(i);
      if (Annotations.find(c, Annotations.IREE_KEY).isPresent()) {
        componentWarning(
            record,
            c,
            path
                + " is positional in the module ("
                + (t == synthesizedResults ? "results" : t.kind().tag())
                + "), so @IreeKey on component "
                + c.getSimpleName()
                + " has no effect; remove it",
            site);
      }
      ValueBinding b =
          bind(elems.get(i), c.asType(), path + "[" + i + "]", componentSite(record, c, site));
      if (b == null) {
        ok = false;
      } else {
        bindings.add(new ComponentBinding(null, c.getSimpleName().toString(), b));
      }
    }
    return ok ? new RecordBinding(t, ClassName.get(record), bindings, path) : null;
  }

  private ValueBinding bindHomogeneousList(
      AbiType.HomogeneousList t, TypeMirror j, String path, Site site) {
    ListArg list = listElement(t, j, path, site);
    if (list == null) {
      return mismatch(t, j, path, site);
    }
    if (list.element() == null) {
      return null;
    }
    ValueBinding element =
        bind(t.element(), list.element(), path + "[*]", new Site(site.element(), "the list's element type"));
    return element == null ? null : new ListBinding(t, TypeName.get(j), element, -1, path);
  }

  private ValueBinding bindRef(AbiType t, TypeMirror j, String path, Site site) {
    TypeElement vmRef = elements.getTypeElement(VM_REF);
    if (vmRef != null
        && j.getKind() == TypeKind.DECLARED
        && types.isAssignable(j, types.erasure(vmRef.asType()))) {
      TypeElement te = (TypeElement) ((DeclaredType) j).asElement();
      if (!accessible(te)) {
        inaccessible(te, path, site);
        return null;
      }
      return new RefBinding(t, TypeName.get(j), path);
    }
    if (isUntypedRef(t)) {
      return bindUntypedRef(j, path, site);
    }
    return mismatch(t, j, path, site);
  }

  /**
   * A ref the module states nothing more about (a calling convention's {@code r}, V0's {@code O}):
   * besides {@code VmRef} and its subtypes, any n-d array binds, as a buffer view of any element
   * type and shape (the array class checks its element type at run time). Structures cannot be
   * checked against it, so records, lists and Java arrays do not bind.
   */
  private ValueBinding bindUntypedRef(TypeMirror j, String path, Site site) {
    AbiType.Ref t = AbiType.Ref.any();
    if (j.getKind() == TypeKind.DECLARED) {
      String name = qualifiedName(j);
      String simple = name.substring(name.lastIndexOf('.') + 1);
      if (name.equals(ND_ARRAY)
          || (name.equals(NDARRAY_PACKAGE + "." + simple) && ALL_ARRAY_CLASSES.contains(simple))) {
        return new ArrayBinding(
            AbiType.NdArray.anyBufferView(), ClassName.get(NDARRAY_PACKAGE, simple), path);
      }
      String structure =
          recordOf(j) != null
              ? "record " + display(j)
              : name.equals("java.util.List") ? display(j) : null;
      if (structure != null) {
        report.error(
            Tag.SIGNATURE_MISMATCH,
            path
                + " is a ref of unknown type in the module ("
                + untypedWhy()
                + "), so the module carries no structure information to check "
                + structure
                + " against; change its type to VmList and build the list yourself, or to VmRef",
            site.element());
        return null;
      }
    }
    if (j.getKind() == TypeKind.ARRAY) {
      TypeMirror component = j;
      while (component.getKind() == TypeKind.ARRAY) {
        component = ((ArrayType) component).getComponentType();
      }
      String typed = component.getKind().isPrimitive() ? arrayClassOf(component.getKind()) : null;
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is a ref of unknown type in the module ("
              + untypedWhy()
              + "), so a Java array, which needs a known element type and rank, cannot bind to"
              + " it, but "
              + site.noun()
              + " is "
              + display(j)
              + "; change its type to "
              + (typed == null ? "" : typed + " or ")
              + "NdArray",
          site.element());
      return null;
    }
    return mismatch(t, j, path, site);
  }

  /** Why a ref has no type: said in messages about it. */
  private String untypedWhy() {
    if (signature.format() == ReflectionFormat.CALLING_CONVENTION) {
      return "the module has no reflection for "
          + functionName
          + ", only its calling convention"
          + CallingConvention.expectedFor(signature).map(c -> " " + c).orElse("");
    }
    return "its reflection says only that it is a ref";
  }

  /** A calling convention's {@code r} or V0's {@code O}: a ref of any type. */
  static boolean isUntypedRef(AbiType t) {
    return t instanceof AbiType.Ref && AbiType.Ref.ANY.equals(((AbiType.Ref) t).refType());
  }

  /** The typed array class of a Java array's primitive component: {@code float} → FloatArray. */
  private static String arrayClassOf(TypeKind component) {
    return component.isPrimitive()
        ? JavaMapping.arrayClassOfComponent(classOf(component)).orElse(null)
        : null;
  }

  // ----------------------------------------------------------------------------------------------
  // Java types

  /**
   * A {@code java.util.List} Java type's element type: null when it is raw, wildcarded or
   * unresolved (reported or recorded).
   */
  private record ListArg(TypeMirror element) {}

  /** The element of {@code List<T>}; null when {@code j} is not a {@code java.util.List}. */
  private ListArg listElement(AbiType t, TypeMirror j, String path, Site site) {
    if (j.getKind() != TypeKind.DECLARED || !qualifiedName(j).equals("java.util.List")) {
      return null;
    }
    List<? extends TypeMirror> args = ((DeclaredType) j).getTypeArguments();
    if (args.size() != 1) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + describe(t)
              + " in the module, but "
              + site.noun()
              + " is a raw List; "
              + fix(t, path),
          site.element());
      return new ListArg(null);
    }
    TypeMirror arg = args.get(0);
    if (arg.getKind() == TypeKind.ERROR) {
      unresolved.add(arg.toString());
      return new ListArg(null);
    }
    if (arg.getKind() == TypeKind.WILDCARD) {
      WildcardType w = (WildcardType) arg;
      TypeMirror bound = w.getExtendsBound() != null ? w.getExtendsBound() : w.getSuperBound();
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + describe(t)
              + " in the module, but "
              + site.noun()
              + " is "
              + display(j)
              + ", a List of a wildcard; name the element type without a wildcard"
              + (bound == null ? "" : ", e.g. List<" + display(bound) + ">"),
          site.element());
      return new ListArg(null);
    }
    return new ListArg(arg);
  }

  /**
   * A {@code java.util.Map} Java type's value type: null in {@link #value()} when it is raw,
   * wildcarded, keyed by something other than {@code String}, or unresolved (reported or recorded).
   */
  private record MapArg(TypeMirror value) {}

  /** The value type of {@code Map<String, V>}; null when {@code j} is not a {@code java.util.Map}. */
  private MapArg mapValue(AbiType.Dict t, TypeMirror j, String path, Site site) {
    if (j.getKind() != TypeKind.DECLARED || !qualifiedName(j).equals("java.util.Map")) {
      return null;
    }
    String suggestion = mapSuggestion(t).orElse(null);
    String fix =
        suggestion != null
            ? "change its type to " + suggestion + " or a record such as " + recordExample(t, lastSegment(path))
            : fix(t, path);
    List<? extends TypeMirror> args = ((DeclaredType) j).getTypeArguments();
    if (args.size() != 2) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path + " is " + describe(t) + " in the module, but " + site.noun() + " is a raw Map; " + fix,
          site.element());
      return new MapArg(null);
    }
    for (TypeMirror arg : args) {
      if (arg.getKind() == TypeKind.ERROR) {
        unresolved.add(arg.toString());
        return new MapArg(null);
      }
    }
    TypeMirror key = args.get(0);
    TypeMirror value = args.get(1);
    boolean stringKey =
        key.getKind() == TypeKind.DECLARED && qualifiedName(key).equals("java.lang.String");
    if (!stringKey || value.getKind() == TypeKind.WILDCARD) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          path
              + " is "
              + describe(t)
              + " in the module, but "
              + site.noun()
              + " is "
              + display(j)
              + (stringKey
                  ? ", a Map of a wildcard; name the value type without a wildcard"
                      + (suggestion == null ? "" : ", e.g. " + suggestion)
                  : ", whose keys are not String (sdict keys are strings); " + fix),
          site.element());
      return new MapArg(null);
    }
    return new MapArg(value);
  }

  /**
   * The {@code Map<String, V>} an sdict binds to when its values all have one Java type to suggest
   * (equal type records, or arrays of one array class); empty otherwise, and for no keys.
   */
  private Optional<String> mapSuggestion(AbiType.Dict t) {
    List<AbiType> values =
        t.entries().stream().map(AbiType.Entry::type).collect(Collectors.toList());
    if (values.isEmpty()) {
      return Optional.empty();
    }
    if (isUniform(values)) {
      String v = suggestBoxed(values.get(0), "value");
      return v.startsWith("(") ? Optional.empty() : Optional.of("Map<String, " + v + ">");
    }
    Set<String> classes = new LinkedHashSet<>();
    for (AbiType v : values) {
      if (!(v instanceof AbiType.NdArray)) {
        return Optional.empty();
      }
      classes.add(suggestType(v, "value"));
    }
    return classes.size() == 1
        ? Optional.of("Map<String, " + classes.iterator().next() + ">")
        : Optional.empty();
  }

  /** The record {@code j} names, or null when it is not a record type. */
  private static TypeElement recordOf(TypeMirror j) {
    if (j.getKind() != TypeKind.DECLARED) {
      return null;
    }
    Element e = ((DeclaredType) j).asElement();
    return e.getKind() == ElementKind.RECORD ? (TypeElement) e : null;
  }

  /** Generic and inaccessible records are reported; true when the record can be used. */
  private boolean usableRecord(TypeElement record, String path, Site site) {
    if (!record.getTypeParameters().isEmpty()) {
      report.error(
          Tag.UNSUPPORTED_TYPE,
          path
              + ": record "
              + record.getSimpleName()
              + " is generic, so the stub cannot tell its components' types; declare a record"
              + " with concrete component types",
          site.element());
      return false;
    }
    if (!accessible(record)) {
      inaccessible(record, path, site);
      return false;
    }
    return true;
  }

  private void inaccessible(TypeElement te, String path, Site site) {
    report.error(
        Tag.INACCESSIBLE_TYPE,
        path
            + ": "
            + te.getQualifiedName()
            + " is not accessible from package "
            + (stubPackage.isUnnamed() ? "(unnamed)" : stubPackage.getQualifiedName().toString())
            + ", where "
            + stubName
            + " is generated; make it (and its enclosing types) public or package-private in"
            + " that package",
        site.element());
  }

  /** Whether code in the stub's package can name {@code te}. */
  boolean accessible(TypeElement te) {
    for (Element e = te; e instanceof TypeElement; e = e.getEnclosingElement()) {
      Set<Modifier> mods = e.getModifiers();
      if (mods.contains(Modifier.PRIVATE)) {
        return false;
      }
      if (!mods.contains(Modifier.PUBLIC) && !elements.getPackageOf(e).equals(stubPackage)) {
        return false;
      }
    }
    return true;
  }

  /** A component's site; a record without source reports at the use site. */
  private Site componentSite(TypeElement record, RecordComponentElement c, Site use) {
    if (hasSource.test(record)) {
      return new Site(componentElement(record, c), "the component");
    }
    return new Site(
        use.element(), "component " + c.getSimpleName() + " of record " + record.getSimpleName());
  }

  /**
   * The element to report a component's diagnostics on: its private field, which javac 17
   * positions on the component (it has no position for the component element itself).
   */
  private static Element componentElement(TypeElement record, RecordComponentElement c) {
    for (VariableElement f : ElementFilter.fieldsIn(record.getEnclosedElements())) {
      if (f.getSimpleName().equals(c.getSimpleName()) && !f.getModifiers().contains(Modifier.STATIC)) {
        return f;
      }
    }
    return c;
  }

  /**
   * Reports on a component of a record; {@code keyAnnotation} true points at its {@code @IreeKey}
   * (found on the canonical constructor's parameter, where javac keeps its position).
   */
  private void componentError(
      TypeElement record, RecordComponentElement c, String message, boolean keyAnnotation, Site use) {
    if (!hasSource.test(record)) {
      report.error(Tag.SIGNATURE_MISMATCH, message, use.element());
      return;
    }
    if (keyAnnotation) {
      Optional<Element> param = canonicalParameter(record, c);
      Optional<AnnotationMirror> mirror =
          param.flatMap(p -> Annotations.find(p, Annotations.IREE_KEY));
      if (mirror.isPresent()) {
        report.error(
            Tag.SIGNATURE_MISMATCH,
            message,
            param.get(),
            mirror.get(),
            Annotations.explicitValue(mirror.get(), "value"));
        return;
      }
    }
    report.error(Tag.SIGNATURE_MISMATCH, message, componentElement(record, c));
  }

  private void componentWarning(
      TypeElement record, RecordComponentElement c, String message, Site use) {
    if (!hasSource.test(record)) {
      report.warning(Tag.IGNORED_ANNOTATION, message, use.element(), null, null);
      return;
    }
    Optional<Element> param = canonicalParameter(record, c);
    Optional<AnnotationMirror> mirror =
        param.flatMap(p -> Annotations.find(p, Annotations.IREE_KEY));
    if (mirror.isPresent()) {
      report.warning(
          Tag.IGNORED_ANNOTATION,
          message,
          param.get(),
          mirror.get(),
          Annotations.explicitValue(mirror.get(), "value"));
    } else {
      report.warning(Tag.IGNORED_ANNOTATION, message, componentElement(record, c), null, null);
    }
  }

  /** The canonical constructor's parameter for component {@code c}. */
  private Optional<Element> canonicalParameter(TypeElement record, RecordComponentElement c) {
    List<? extends RecordComponentElement> components = record.getRecordComponents();
    int index = components.indexOf(c);
    for (ExecutableElement k : ElementFilter.constructorsIn(record.getEnclosedElements())) {
      List<? extends VariableElement> params = k.getParameters();
      if (params.size() != components.size()) {
        continue;
      }
      boolean canonical = true;
      for (int i = 0; i < params.size(); i++) {
        if (!types.isSameType(params.get(i).asType(), components.get(i).asType())) {
          canonical = false;
          break;
        }
      }
      if (canonical) {
        return Optional.of(params.get(index));
      }
    }
    return Optional.empty();
  }

  private static String qualifiedName(TypeMirror j) {
    Element e = ((DeclaredType) j).asElement();
    return e instanceof TypeElement ? ((TypeElement) e).getQualifiedName().toString() : "";
  }

  /** A Java type as a user reads it: simple names, {@code List<FloatArray>}, {@code float[][]}. */
  static String display(TypeMirror t) {
    switch (t.getKind()) {
      case DECLARED:
        {
          DeclaredType d = (DeclaredType) t;
          String name = d.asElement().getSimpleName().toString();
          if (d.getTypeArguments().isEmpty()) {
            return name;
          }
          return d.getTypeArguments().stream()
              .map(Binder::display)
              .collect(Collectors.joining(", ", name + "<", ">"));
        }
      case ARRAY:
        return display(((ArrayType) t).getComponentType()) + "[]";
      case WILDCARD:
        {
          WildcardType w = (WildcardType) t;
          if (w.getExtendsBound() != null) {
            return "? extends " + display(w.getExtendsBound());
          }
          if (w.getSuperBound() != null) {
            return "? super " + display(w.getSuperBound());
          }
          return "?";
        }
      default:
        return t.toString();
    }
  }

  // ----------------------------------------------------------------------------------------------
  // The type mapping

  /** The Java primitive a scalar binds to ({@link JavaMapping#scalar}), or null when none does. */
  static TypeKind primitiveFor(ElementType e) {
    return JavaMapping.scalar(e).map(Binder::kindOf).orElse(null);
  }

  /** The primitive element of a Java array an ndarray of {@code e} binds to, or null. */
  static TypeKind javaArrayComponentFor(ElementType e) {
    return JavaMapping.javaArrayComponent(e).map(Binder::kindOf).orElse(null);
  }

  private static TypeKind kindOf(Class<?> primitive) {
    return TypeKind.valueOf(primitive.getName().toUpperCase(java.util.Locale.ROOT));
  }

  private static Class<?> classOf(TypeKind primitive) {
    switch (primitive) {
      case BOOLEAN:
        return boolean.class;
      case BYTE:
        return byte.class;
      case SHORT:
        return short.class;
      case INT:
        return int.class;
      case LONG:
        return long.class;
      case FLOAT:
        return float.class;
      case DOUBLE:
        return double.class;
      case CHAR:
        return char.class;
      default:
        throw new IllegalArgumentException(primitive.toString());
    }
  }

  private static String boxName(TypeKind primitive) {
    return JavaMapping.boxed(classOf(primitive)).getName();
  }

  private static String primitiveName(TypeKind kind) {
    return kind.toString().toLowerCase(java.util.Locale.ROOT);
  }

  /** The highest rank of a Java array the stubs convert (the typed arrays' {@code of} factories). */
  static final int MAX_JAVA_ARRAY_RANK = JavaMapping.MAX_JAVA_ARRAY_RANK;

  /** True when arrays of {@code shape} may be Java arrays: ranked, rank 1 to 4. */
  private static boolean javaArrayRank(Shape shape) {
    return JavaMapping.javaArrayRank(shape);
  }

  private static String javaArrayText(TypeKind component, int rank) {
    return primitiveName(component) + "[]".repeat(rank);
  }

  private static boolean isUniform(List<AbiType> elems) {
    return JavaMapping.uniformElement(elems).isPresent();
  }

  // ----------------------------------------------------------------------------------------------
  // Messages

  private ValueBinding mismatch(AbiType t, TypeMirror j, String path, Site site) {
    report.error(
        Tag.SIGNATURE_MISMATCH,
        path
            + " is "
            + describe(t)
            + " in the module, which binds to "
            + accepts(t)
            + ", but "
            + site.noun()
            + " is "
            + display(j)
            + "; "
            + (t instanceof AbiType.Scalar && isTypeArgument(site)
                ? "change it to " + suggestBoxed(t, lastSegment(path))
                : fix(t, path)),
        site.element());
    return null;
  }

  /** A list's element type or a map's value type, which cannot be primitive. */
  private static boolean isTypeArgument(Site site) {
    return site.noun().equals("the list's element type")
        || site.noun().equals("the map's value type");
  }

  /** A type record as the reflection wrote it (JSON for iree.abi), or the model's short form. */
  private String describe(AbiType t) {
    if (t == synthesizedResults) {
      return describeAll(((AbiType.Sequence) t).elements());
    }
    if (signature != null && signature.format() == ReflectionFormat.IREE_ABI_JSON) {
      return AbiJson.printType(t);
    }
    return t.toString();
  }

  private String describeAll(List<AbiType> types) {
    if (signature != null && signature.format() == ReflectionFormat.IREE_ABI_JSON) {
      return types.stream().map(AbiJson::printType).collect(Collectors.joining(",", "[", "]"));
    }
    return types.stream().map(AbiType::toString).collect(Collectors.joining(", ", "(", ")"));
  }

  /** What Java types a type record binds to, for "which binds to ...". */
  private String accepts(AbiType t) {
    if (t instanceof AbiType.Scalar) {
      TypeKind k = primitiveFor(((AbiType.Scalar) t).element());
      return primitiveName(k) + " or " + simple(boxName(k));
    }
    if (t instanceof AbiType.NdArray) {
      AbiType.NdArray a = (AbiType.NdArray) t;
      if (!a.element().isKnown()) {
        return "NdArray or a typed array such as FloatArray";
      }
      List<String> all = new ArrayList<>(JavaMapping.arrayClassesAccepting(a.element()));
      if (all.isEmpty()) {
        all.add("NdArray");
      }
      TypeKind c = javaArrayComponentFor(a.element());
      if (c != null && javaArrayRank(a.shape())) {
        all.add(javaArrayText(c, a.shape().rank()));
      }
      return or(all);
    }
    if (t instanceof AbiType.Dict) {
      List<String> keys = ((AbiType.Dict) t).keys();
      return keys.isEmpty()
          ? "a record with no components or any Map<String, V>"
          : "a record with a component per key ("
              + String.join(", ", keys)
              + ")"
              + mapSuggestion((AbiType.Dict) t).map(m -> " or " + m).orElse("");
    }
    if (t instanceof AbiType.Sequence) {
      List<AbiType> elems = ((AbiType.Sequence) t).elements();
      String what = t == synthesizedResults ? "result" : "element";
      String record =
          elems.isEmpty()
              ? "a record with no components"
              : "a record with " + count(elems.size(), "component") + " (one per " + what + ")";
      return !elems.isEmpty() && isUniform(elems)
          ? record + " or List<" + suggestBoxed(elems.get(0), "element") + ">"
          : record;
    }
    if (t instanceof AbiType.HomogeneousList) {
      return "List<" + suggestBoxed(((AbiType.HomogeneousList) t).element(), "element") + ">";
    }
    if (isUntypedRef(t)) {
      return "an n-d array (NdArray or a typed array such as FloatArray), VmList or VmRef";
    }
    return "VmRef (or a subtype such as BufferView or VmList)";
  }

  /** The fix for a wrong Java type: "change its type to FloatArray". */
  private String fix(AbiType t, String path) {
    if (t instanceof AbiType.Dict || t instanceof AbiType.Sequence) {
      String name = lastSegment(path);
      if (t instanceof AbiType.Sequence) {
        List<AbiType> elems = ((AbiType.Sequence) t).elements();
        if (!elems.isEmpty() && isUniform(elems)) {
          return "change its type to List<" + suggestBoxed(elems.get(0), "element") + ">";
        }
      }
      return "change its type to a record such as " + recordExample(t, name);
    }
    if (isUntypedRef(t)) {
      return "change its type to NdArray (or a typed array such as FloatArray), VmList or VmRef";
    }
    return "change its type to " + suggestType(t, lastSegment(path));
  }

  private String recordExample(AbiType t, String name) {
    StringBuilder sb = new StringBuilder("record ").append(Names.typeName(name)).append('(');
    if (t instanceof AbiType.Dict) {
      List<AbiType.Entry> entries = ((AbiType.Dict) t).entries();
      for (int i = 0; i < entries.size(); i++) {
        AbiType.Entry e = entries.get(i);
        String component = AbiType.Dict.camelCase(e.key());
        sb.append(i == 0 ? "" : ", ")
            .append(Names.isJavaName(component) ? "" : "@IreeKey(" + quote(e.key()) + ") ")
            .append(suggestType(e.type(), e.key()))
            .append(' ')
            .append(Names.isJavaName(component) ? component : "value" + i);
      }
    } else {
      List<AbiType> elems = ((AbiType.Sequence) t).elements();
      for (int i = 0; i < elems.size(); i++) {
        sb.append(i == 0 ? "" : ", ")
            .append(suggestType(elems.get(i), name + i))
            .append(" value")
            .append(i);
      }
    }
    return sb.append(')').toString();
  }

  /** The Java type to suggest for a type record; structures are named after {@code name}. */
  private String suggestType(AbiType t, String name) {
    if (t instanceof AbiType.Named) {
      return suggestType(((AbiType.Named) t).type(), name);
    }
    if (t instanceof AbiType.Scalar) {
      TypeKind k = primitiveFor(((AbiType.Scalar) t).element());
      return k == null ? "(no Java type)" : primitiveName(k);
    }
    if (t instanceof AbiType.NdArray) {
      return JavaMapping.arrayClass(((AbiType.NdArray) t).element())
          .orElse(JavaMapping.ANY_ARRAY_CLASS);
    }
    if (t instanceof AbiType.Dict) {
      return Names.typeName(name);
    }
    if (t instanceof AbiType.Sequence) {
      List<AbiType> elems = ((AbiType.Sequence) t).elements();
      return !elems.isEmpty() && isUniform(elems)
          ? "List<" + suggestBoxed(elems.get(0), name) + ">"
          : Names.typeName(name);
    }
    if (t instanceof AbiType.HomogeneousList) {
      return "List<" + suggestBoxed(((AbiType.HomogeneousList) t).element(), name) + ">";
    }
    if (t instanceof AbiType.Unsupported) {
      return "(no Java type)";
    }
    return "VmRef";
  }

  private String suggestBoxed(AbiType t, String name) {
    if (t instanceof AbiType.Scalar) {
      TypeKind k = primitiveFor(((AbiType.Scalar) t).element());
      return k == null ? "(no Java type)" : simple(boxName(k));
    }
    return suggestType(t, name);
  }

  /** The last key or name of a path: "predict: features.image" gives "image". */
  private static String lastSegment(String path) {
    String s = path.substring(path.indexOf(": ") + 2);
    s = s.replaceAll("\\[[^\\]]*\\]$", "");
    int dot = s.lastIndexOf('.');
    s = dot >= 0 ? s.substring(dot + 1) : s;
    s = s.replaceAll("\\[.*", "");
    return s.isEmpty() ? "value" : s;
  }

  private static String simple(String qualified) {
    return qualified.substring(qualified.lastIndexOf('.') + 1);
  }

  private static String or(List<String> options) {
    if (options.size() == 1) {
      return options.get(0);
    }
    return String.join(", ", options.subList(0, options.size() - 1))
        + " or "
        + options.get(options.size() - 1);
  }

  static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  static String quote(String s) {
    return "\"" + s + "\"";
  }
}
