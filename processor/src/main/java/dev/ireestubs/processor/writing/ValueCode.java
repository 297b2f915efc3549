package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.internal.StubMarshal;
import dev.ireestubs.processor.model.ArrayBinding;
import dev.ireestubs.processor.model.ComponentBinding;
import dev.ireestubs.processor.model.JavaArrayBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.RefBinding;
import dev.ireestubs.processor.model.ScalarBinding;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.names.Names;
import dev.ireestubs.processor.printing.Code;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Prints the marshalling of values, one {@link ValueBinding} at a time: Java to VM ({@link
 * #encode}) and VM to Java ({@link #decode}), as calls of {@code Marshal}'s leaf operations with
 * each value's descriptor constant and path. It follows the bindings; it decides nothing.
 */
final class ValueCode {

  static final ClassName MARSHAL = ClassName.get("dev.ireestubs.internal", "Marshal");
  static final ClassName STUB_MARSHAL = ClassName.get("dev.ireestubs.internal", "StubMarshal");
  static final ClassName CALL_MEMORY = ClassName.get("dev.ireestubs.internal", "CallMemory");
  static final ClassName VM_LIST = ClassName.get("dev.ireestubs.vm", "VmList");
  static final ClassName IREE_VALUE_EXCEPTION =
      ClassName.get("dev.ireestubs.invoke", "IreeValueException");
  static final ClassName VM_VALUE = ClassName.get("dev.ireestubs.vm", "VmValue");
  static final ClassName VM_REF = ClassName.get("dev.ireestubs.vm", "VmRef");
  static final ClassName ARRAY_LIST = ClassName.get("java.util", "ArrayList");
  static final ClassName COLLECTIONS = ClassName.get("java.util", "Collections");
  static final ClassName LIST = ClassName.get("java.util", "List");
  static final ClassName LINKED_HASH_MAP = ClassName.get("java.util", "LinkedHashMap");

  private final MethodScope scope;

  ValueCode(MethodScope scope) {
    this.scope = scope;
  }

  // ---- Java -> VM

  /** Emits what {@code value} needs and returns the expression of its VM list element. */
  Code encode(ValueBinding binding, Code value) {
    Code path = scope.path(binding.path());
    if (binding instanceof ScalarBinding s) {
      Code v = s.boxed() ? Code.of("$T.notNull($L, $L)", MARSHAL, value, path) : value;
      ElementType e = s.type().element();
      if (e.kind() == ElementType.Kind.BOOLEAN) {
        return Code.of("$T.i1($L)", MARSHAL, v);
      }
      return Code.of("$T.$L($L)", VM_VALUE, scalarName(e), v);
    }
    if (binding instanceof ArrayBinding) {
      return Code.of(
          "$T.array($L, $L, $L)", MARSHAL, value, scope.descriptor(binding.type()), path);
    }
    if (binding instanceof JavaArrayBinding) {
      return encodeJavaArray(value, scope.descriptor(binding.type()), path);
    }
    if (binding instanceof RecordBinding r) {
      String record = local(r.record(), value, binding.path());
      String list = scope.local(scope.baseName(r.path()) + "List");
      scope.statement("$T $N = $T.variant($L)", VM_LIST, list, VM_LIST, r.components().size());
      for (ComponentBinding c : r.components()) {
        Code element = encode(c.binding(), Code.of("$N.$N()", record, c.accessor()));
        scope.statement("$N.push($L)", list, element);
      }
      return Code.of("$N", list);
    }
    if (binding instanceof MapBinding mapBinding) {
      return encodeMap(mapBinding, value);
    }
    if (binding instanceof ListBinding listBinding) {
      return encodeList(listBinding, value);
    }
    if (binding.type() instanceof AbiType.Any) {
      return value; // null descriptors take whatever ref (or null) the caller has
    }
    return Code.of("$T.notNull($L, $L)", MARSHAL, value, path);
  }

  /**
   * A Java array copied into the n-d array class of its component type, checked, and lent to the
   * call, which ends it when it is over ({@code CallMemory.endCall}, see {@code CallWriter}).
   */
  private Code encodeJavaArray(Code value, Code descriptor, Code path) {
    return Code.of("$T.copyArgument($L, $L, $L)", CALL_MEMORY, value, descriptor, path);
  }

  private Code encodeList(ListBinding l, Code value) {
    Code path = scope.path(l.path());
    String values = local(l.javaType(), value, null);
    String list = scope.local(scope.baseName(l.path()) + "List");
    if (l.fixedSize() >= 0) {
      scope.statement(
          "$T $N = $T.sequence($N, $L, $L)", VM_LIST, list, MARSHAL, values, l.fixedSize(), path);
    } else {
      scope.statement("$T.notNull($N, $L)", STUB_MARSHAL, values, path);
      scope.statement("$T $N = $T.variant($N.size())", VM_LIST, list, VM_LIST, values);
    }
    String element = scope.local("element");
    scope.body().beginControlFlow("try");
    scope.body().beginControlFlow("for ($T $N : $N)", l.element().javaType(), element, values);
    scope.statement("$N.push($L)", list, encode(l.element(), Code.of("$N", element)));
    scope.body().endControlFlow();
    indexFailure(path, Code.of("$N.size()", list)); // the elements pushed so far
    return Code.of("$N", list);
  }

  /**
   * Closes the {@code try} around a loop over a list: a failure inside names the element's index,
   * {@code index}, in place of the {@code [*]} after the list's {@code path}; built only on
   * failure.
   */
  private void indexFailure(Code path, Code index) {
    String failure = scope.local("failure");
    scope.body().nextControlFlow("catch ($T $N)", IREE_VALUE_EXCEPTION, failure);
    scope.statement("throw $T.atIndex($N, $L, $L)", MARSHAL, failure, path, index);
    scope.body().endControlFlow();
  }

  private Code encodeMap(MapBinding m, Code value) {
    String list = scope.local(scope.baseName(m.path()) + "List");
    FunctionConstants.MapConstants loop = scope.map(m);
    if (!loop.loop()) {
      String map = requireKeys(m, value);
      scope.statement("$T $N = $T.variant($L)", VM_LIST, list, VM_LIST, m.keys().size());
      for (int i = 0; i < m.keys().size(); i++) {
        Code key = scope.text(m.keys().get(i));
        Code element = encode(m.values().get(i), Code.of("$N.get($L)", map, key));
        scope.statement("$N.push($L)", list, element);
      }
      return Code.of("$N", list);
    }
    String keys = keysLocal(m, loop);
    String map = requireKeys(m, value, Code.of("$N", keys));
    scope.statement("$T $N = $T.variant($N.size())", VM_LIST, list, VM_LIST, keys);
    String i = scope.local("i");
    scope.body().beginControlFlow("for (int $N = 0; $N < $N.size(); $N++)", i, i, keys, i);
    Code element =
        leaf(
            m.values().get(0), Code.of("$N.get($N.get($N))", map, keys, i), loop, Code.of("$N", i));
    scope.statement("$N.push($L)", list, element);
    scope.body().endControlFlow();
    return Code.of("$N", list);
  }

  /** The encoding of a map's value {@code i} in a loop: descriptor and path from the constants. */
  private Code leaf(ValueBinding first, Code value, FunctionConstants.MapConstants loop, Code i) {
    Code path = Code.of("$L.get($L)", scope.constant(loop.paths()), i);
    if (first instanceof ScalarBinding scalarBinding) {
      ElementType e = scalarBinding.type().element();
      Code v = Code.of("$T.notNull($L, $L)", MARSHAL, value, path);
      return e.kind() == ElementType.Kind.BOOLEAN
          ? Code.of("$T.i1($L)", MARSHAL, v)
          : Code.of("$T.$L($L)", VM_VALUE, scalarName(e), v);
    }
    if (first instanceof ArrayBinding || first instanceof JavaArrayBinding) {
      Code descriptor = Code.of("$L.get($L)", scope.constant(loop.arrays()), i);
      return first instanceof ArrayBinding
          ? Code.of("$T.array($L, $L, $L)", MARSHAL, value, descriptor, path)
          : encodeJavaArray(value, descriptor, path);
    }
    return first.type() instanceof AbiType.Any
        ? value
        : Code.of("$T.notNull($L, $L)", MARSHAL, value, path);
  }

  private String keysLocal(MapBinding m, FunctionConstants.MapConstants loop) {
    String keys = scope.local(scope.baseName(m.path()) + "Keys");
    scope.statement(
        "$T $N = $L",
        ParameterizedTypeName.get(LIST, ClassName.get(String.class)),
        keys,
        scope.constant(loop.keys()));
    return keys;
  }

  /**
   * Checks that the map {@code value} has exactly the sdict's keys and returns a name for it (the
   * value itself when it is a plain name).
   */
  String requireKeys(MapBinding m, Code value) {
    return requireKeys(m, value, scope.constant(scope.map(m).keys()));
  }

  private String requireKeys(MapBinding m, Code value, Code keys) {
    Code path = scope.path(m.path());
    String plain = value.name();
    if (plain != null) {
      scope.statement("$T.requireKeys($N, $L, $L)", MARSHAL, plain, keys, path);
      return plain;
    }
    String name = scope.local(scope.baseName(m.path()) + "Map");
    scope.statement(
        "$T $N = $T.requireKeys($L, $L, $L)", m.javaType(), name, MARSHAL, value, keys, path);
    return name;
  }

  // ---- VM -> Java

  /** Emits what element {@code index} of {@code list} needs and returns its Java expression. */
  Code decode(ValueBinding binding, String list, Code index) {
    Code path = scope.path(binding.path());
    if (binding instanceof ScalarBinding scalarBinding) {
      ElementType e = scalarBinding.type().element();
      return Code.of("$T.$L($N, $L, $L)", MARSHAL, readerName(e), list, index, path);
    }
    if (binding instanceof ArrayBinding arrayBinding) {
      return arrayResult(
          arrayBinding.arrayClass(), list, index, scope.descriptor(binding.type()), path);
    }
    if (binding instanceof JavaArrayBinding a) {
      return decodeJavaArray(a, list, index, scope.descriptor(a.type()), path);
    }
    if (binding instanceof RecordBinding
        || binding instanceof ListBinding
        || binding instanceof MapBinding) {
      String nested = scope.local(scope.baseName(binding.path()) + "List");
      scope.statement(
          "$T $N = $T.list($N, $L, $L, $L)",
          VM_LIST,
          nested,
          MARSHAL,
          list,
          index,
          childCount(binding),
          path);
      return decodeChildren(binding, nested);
    }
    RefBinding ref = (RefBinding) binding;
    if (ref.javaType().equals(VM_REF)) {
      return Code.of("$T.ref($N, $L, $L)", MARSHAL, list, index, path);
    }
    return Code.of(
        "$T.ref($N, $L, $T.class, $L)", MARSHAL, list, index, rawType(ref.javaType()), path);
  }

  /**
   * {@code StubMarshal.floatArray(results, 0, Signatures.F_RESULT, "f: result")}: a non-generic
   * method per array class, which javac resolves without inference (see {@code StubMarshal}).
   */
  private static Code arrayResult(
      ClassName arrayClass, String list, Code index, Code descriptor, Code path) {
    return Code.of(
        "$T.$L($N, $L, $L, $L)",
        STUB_MARSHAL,
        StubMarshal.methodFor(arrayClass.simpleName()),
        list,
        index,
        descriptor,
        path);
  }

  /** The result copied out into a new Java array, its n-d array closed at once. */
  private static Code decodeJavaArray(
      JavaArrayBinding a, String list, Code index, Code descriptor, Code path) {
    return Code.of(
        "($T) $T.toJavaArray($L)",
        a.javaType(),
        CALL_MEMORY,
        arrayResult(arrayClassOf(a.component()), list, index, descriptor, path));
  }

  private static int childCount(ValueBinding binding) {
    if (binding instanceof RecordBinding recordBinding) {
      return recordBinding.components().size();
    }
    if (binding instanceof MapBinding mapBinding) {
      return mapBinding.keys().size();
    }
    return ((ListBinding) binding).fixedSize();
  }

  /** The record, list or map whose children are the elements of {@code list}. */
  Code decodeChildren(ValueBinding binding, String list) {
    if (binding instanceof RecordBinding r) {
      return construct(r, i -> decode(r.components().get(i).binding(), list, Code.of("$L", i)));
    }
    if (binding instanceof MapBinding m) {
      FunctionConstants.MapConstants loop = scope.map(m);
      if (loop.loop()) {
        return decodeMapLoop(m, loop, list);
      }
      return collect(m, i -> decode(m.values().get(i), list, Code.of("$L", i)));
    }
    ListBinding l = (ListBinding) binding;
    String out = scope.local(scope.baseName(l.path()) + "Values");
    TypeName element = l.element().javaType().box();
    scope.statement(
        "$T $N = new $T($N.size())",
        ParameterizedTypeName.get(LIST, element),
        out,
        ParameterizedTypeName.get(ARRAY_LIST, element),
        list);
    String i = scope.local("i");
    scope.body().beginControlFlow("try");
    scope.body().beginControlFlow("for (int $N = 0; $N < $N.size(); $N++)", i, i, list, i);
    scope.statement("$N.add($L)", out, decode(l.element(), list, Code.of("$N", i)));
    scope.body().endControlFlow();
    indexFailure(scope.path(l.path()), Code.of("$N.size()", out)); // the elements read so far
    return unmodifiableList(element, out);
  }

  private Code decodeMapLoop(MapBinding m, FunctionConstants.MapConstants loop, String list) {
    String keys = keysLocal(m, loop);
    String out = newMap(m);
    String i = scope.local("i");
    scope.body().beginControlFlow("for (int $N = 0; $N < $N.size(); $N++)", i, i, keys, i);
    ValueBinding first = m.values().get(0);
    Code index = Code.of("$N", i);
    Code path = Code.of("$L.get($N)", scope.constant(loop.paths()), i);
    Code value;
    if (first instanceof ScalarBinding scalarBinding) {
      value =
          Code.of(
              "$T.$L($N, $N, $L)",
              MARSHAL,
              readerName(scalarBinding.type().element()),
              list,
              i,
              path);
    } else if (first instanceof ArrayBinding arrayBinding) {
      value =
          arrayResult(
              arrayBinding.arrayClass(),
              list,
              Code.of("$N", i),
              Code.of("$L.get($N)", scope.constant(loop.arrays()), i),
              path);
    } else if (first instanceof JavaArrayBinding javaArrayBinding) {
      value =
          decodeJavaArray(
              javaArrayBinding,
              list,
              index,
              Code.of("$L.get($N)", scope.constant(loop.arrays()), i),
              path);
    } else {
      RefBinding ref = (RefBinding) first;
      value =
          ref.javaType().equals(VM_REF)
              ? Code.of("$T.ref($N, $N, $L)", MARSHAL, list, i, path)
              : Code.of(
                  "$T.ref($N, $N, $T.class, $L)", MARSHAL, list, i, rawType(ref.javaType()), path);
    }
    scope.statement("$N.put($N.get($N), $L)", out, keys, i, value);
    scope.body().endControlFlow();
    return unmodifiableMap(m, out);
  }

  /**
   * Emits one local per component, decoded by {@code component} (which may emit statements of its
   * own), and returns the record built from them in constructor order.
   */
  Code construct(RecordBinding r, IntFunction<Code> component) {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < r.components().size(); i++) {
      ComponentBinding c = r.components().get(i);
      String local = scope.local(c.accessor());
      scope.statement("$T $N = $L", c.binding().javaType(), local, component.apply(i));
      values.put(c.accessor(), local);
    }
    List<Code> args = new ArrayList<>();
    for (ComponentBinding c : r.componentsInConstructorOrder()) {
      args.add(Code.of("$N", values.get(c.accessor())));
    }
    return Code.of("new $T($L)", r.record(), Code.join(args, ", "));
  }

  /** Emits a map of the values {@code value} decodes, in key order, and returns it unmodifiable. */
  Code collect(MapBinding m, IntFunction<Code> value) {
    String out = newMap(m);
    for (int i = 0; i < m.keys().size(); i++) {
      scope.statement("$N.put($L, $L)", out, scope.text(m.keys().get(i)), value.apply(i));
    }
    return unmodifiableMap(m, out);
  }

  /*
   * Collections are made with their type arguments written out (new ArrayList<Float>(n),
   * Collections.<Float>unmodifiableList(values)): without them javac infers each one, which in a
   * stub of a thousand functions is a measurable part of its compile time.
   */

  /** {@code Collections.<Float>unmodifiableList(values)}. */
  static Code unmodifiableList(TypeName element, String list) {
    return Code.of("$T.<$T>unmodifiableList($N)", COLLECTIONS, element, list);
  }

  /** {@code Collections.<String, Float>unmodifiableMap(values)}, or inferred for a raw map. */
  private static Code unmodifiableMap(MapBinding m, String map) {
    List<TypeName> arguments = typeArguments(m.javaType());
    return arguments.size() == 2
        ? Code.of(
            "$T.<$T, $T>unmodifiableMap($N)", COLLECTIONS, arguments.get(0), arguments.get(1), map)
        : Code.of("$T.unmodifiableMap($N)", COLLECTIONS, map);
  }

  private static List<TypeName> typeArguments(TypeName t) {
    return t instanceof ParameterizedTypeName parameterizedTypeName
        ? parameterizedTypeName.typeArguments()
        : List.of();
  }

  /** A new {@code LinkedHashMap} local for the values of {@code m}, sized for its keys. */
  private String newMap(MapBinding m) {
    String out = scope.local(scope.baseName(m.path()) + "Map");
    long capacity = (long) Math.ceil(m.keys().size() / 0.75);
    List<TypeName> arguments = typeArguments(m.javaType());
    if (arguments.size() == 2) {
      scope.statement(
          "$T $N = new $T($L)",
          m.javaType(),
          out,
          ParameterizedTypeName.get(LINKED_HASH_MAP, arguments.toArray(new TypeName[0])),
          capacity);
    } else {
      scope.statement("$T $N = new $T<>($L)", m.javaType(), out, LINKED_HASH_MAP, capacity);
    }
    return out;
  }

  // ---- names

  /**
   * A name for {@code value}: itself when it is already a plain name (a parameter, a loop
   * variable), else a new local assigned from it, null-checked when {@code nullCheckPath} is set.
   */
  String local(TypeName type, Code value, String nullCheckPath) {
    String plain = value.name();
    if (plain != null) {
      if (nullCheckPath != null) {
        // StubMarshal's: a statement needs no generic method's inference.
        scope.statement("$T.notNull($N, $L)", STUB_MARSHAL, plain, scope.path(nullCheckPath));
      }
      return plain;
    }
    String text = value.toString();
    String name =
        scope.local(
            text.endsWith("()")
                ? text.substring(text.lastIndexOf('.') + 1, text.length() - 2)
                : "value");
    if (nullCheckPath != null) {
      scope.statement(
          "$T $N = $T.notNull($L, $L)", type, name, MARSHAL, value, scope.path(nullCheckPath));
    } else {
      scope.statement("$T $N = $L", type, name, value);
    }
    return name;
  }

  /**
   * The last name in a path, camelCased: {@code predict: features.image_data} → {@code imageData}.
   */
  static String baseName(String path) {
    if (path.endsWith("[*]")) {
      return "element";
    }
    int colon = path.indexOf(": ");
    String tail = colon >= 0 ? path.substring(colon + 2) : path;
    String[] parts = tail.replace("[*]", "").split("[.\\[\\]]");
    for (int i = parts.length - 1; i >= 0; i--) {
      if (!parts[i].isEmpty() && !parts[i].chars().allMatch(Character::isDigit)) {
        String camel = AbiType.Dict.camelCase(parts[i]);
        return Names.isJavaName(camel) && camel.length() <= 60 ? camel : "value";
      }
    }
    return "value";
  }

  /** {@code f32}, {@code f64}, or {@code i<bits>}: the {@code VmValue} factory of a scalar. */
  private static String scalarName(ElementType e) {
    return e.equals(ElementType.F32) ? "f32" : e.equals(ElementType.F64) ? "f64" : "i" + e.bits();
  }

  /** The {@code Marshal} reader of a scalar result: {@code i1}, {@code f32}, {@code i32}, .... */
  private static String readerName(ElementType e) {
    return e.kind() == ElementType.Kind.BOOLEAN ? "i1" : scalarName(e);
  }

  private static TypeName rawType(TypeName t) {
    return t instanceof ParameterizedTypeName parameterizedTypeName
        ? parameterizedTypeName.rawType()
        : t;
  }

  /** The typed array class that copies Java arrays of {@code component}. */
  static ClassName arrayClassOf(TypeName component) {
    for (Class<?> c :
        List.of(
            float.class,
            double.class,
            boolean.class,
            byte.class,
            short.class,
            int.class,
            long.class)) {
      if (component.equals(TypeName.get(c))) {
        return ClassName.get(
            JavaMapping.ARRAY_PACKAGE, JavaMapping.arrayClassOfComponent(c).orElseThrow());
      }
    }
    throw new IllegalArgumentException("no array class for Java arrays of " + component);
  }
}
