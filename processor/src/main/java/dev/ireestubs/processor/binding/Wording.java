package dev.ireestubs.processor.binding;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.names.Names;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The words the binder's diagnostics use while binding one function: a type record as its
 * reflection wrote it, the Java types that bind to it (from {@link JavaMapping}), and the fix to
 * suggest. Immutable; one per function.
 *
 * @param functionName the function, for messages about refs of unknown type
 * @param signature the signature being bound (its format decides how type records are quoted)
 * @param synthesizedResults the {@code stuple} of several results bound to one record or list, if
 *     any (said as "results", not "elements")
 */
record Wording(String functionName, FunctionSignature signature, AbiType synthesizedResults) {

  /** The wording for {@code signature}, with the results structure the binder will bind. */
  static Wording of(String functionName, FunctionSignature signature) {
    List<AbiType> results = signature.results();
    AbiType synthesized =
        results.size() > 1 && !signature.hasInlinedResults()
            ? new AbiType.Sequence(AbiType.SequenceKind.TUPLE, results)
            : null;
    return new Wording(functionName, signature, synthesized);
  }

  /** True for the structure that stands for several results. */
  boolean isResults(AbiType t) {
    return t == synthesizedResults;
  }

  /** A type record as the reflection wrote it (JSON for iree.abi), or the model's short form. */
  String describe(AbiType t) {
    if (isResults(t)) {
      return describeAll(((AbiType.Sequence) t).elements());
    }
    if (signature.format() == ReflectionFormat.IREE_ABI_JSON) {
      return AbiJson.printType(t);
    }
    return t.toString();
  }

  /** A list of type records, as {@link #describe} says each. */
  String describeAll(List<AbiType> types) {
    if (signature.format() == ReflectionFormat.IREE_ABI_JSON) {
      return types.stream().map(AbiJson::printType).collect(Collectors.joining(",", "[", "]"));
    }
    return types.stream().map(AbiType::toString).collect(Collectors.joining(", ", "(", ")"));
  }

  /** What Java types a type record binds to, for "which binds to ...". */
  String accepts(AbiType t) {
    if (t instanceof AbiType.Scalar scalar) {
      Class<?> k = JavaMapping.scalar(scalar.element()).orElseThrow();
      return k.getName() + " or " + JavaMapping.boxed(k).getSimpleName();
    }
    if (t instanceof AbiType.NdArray ndArray) {
      return acceptsArray(ndArray);
    }
    if (t instanceof AbiType.Dict dict) {
      List<String> keys = dict.keys();
      return keys.isEmpty()
          ? "a record with no components or any Map<String, V>"
          : "a record with a component per key ("
              + Messages.list(keys)
              + ")"
              + mapSuggestion(dict).map(m -> " or " + m).orElse("");
    }
    if (t instanceof AbiType.Sequence sequence) {
      List<AbiType> elems = sequence.elements();
      String what = isResults(t) ? "result" : "element";
      String record =
          elems.isEmpty()
              ? "a record with no components"
              : "a record with "
                  + Messages.count(elems.size(), "component")
                  + " (one per "
                  + what
                  + ")";
      return JavaMapping.uniformElement(elems)
          .map(e -> record + " or List<" + suggestBoxed(e, "element") + ">")
          .orElse(record);
    }
    if (t instanceof AbiType.HomogeneousList homogeneousList) {
      return "List<" + suggestBoxed(homogeneousList.element(), "element") + ">";
    }
    if (isUntypedRef(t)) {
      return "an n-d array (NdArray or a typed array such as FloatArray), VmList or VmRef";
    }
    return "VmRef (or a subtype such as BufferView or VmList)";
  }

  private static String acceptsArray(AbiType.NdArray a) {
    if (!a.element().isKnown()) {
      return "NdArray or a typed array such as FloatArray";
    }
    List<String> all = new ArrayList<>(JavaMapping.arrayClassesAccepting(a.element()));
    if (all.isEmpty()) {
      all.add(JavaMapping.ANY_ARRAY_CLASS);
    }
    Optional<Class<?>> c = JavaMapping.javaArrayComponent(a.element());
    if (c.isPresent() && JavaMapping.javaArrayRank(a.shape())) {
      all.add(javaArrayText(c.get(), a.shape().rank()));
    }
    return Messages.or(all);
  }

  /** {@code float[][]}. */
  static String javaArrayText(Class<?> component, int rank) {
    return component.getName() + "[]".repeat(rank);
  }

  /** The fix for a wrong Java type: "change its type to FloatArray". */
  String fix(AbiType t, String path) {
    if (t instanceof AbiType.Dict || t instanceof AbiType.Sequence) {
      if (t instanceof AbiType.Sequence sequence) {
        Optional<AbiType> uniform = JavaMapping.uniformElement(sequence.elements());
        if (uniform.isPresent()) {
          return "change its type to List<" + suggestBoxed(uniform.get(), "element") + ">";
        }
      }
      return "change its type to a record such as " + recordExample(t, lastSegment(path));
    }
    if (isUntypedRef(t)) {
      return "change its type to NdArray (or a typed array such as FloatArray), VmList or VmRef";
    }
    return "change its type to " + suggestType(t, lastSegment(path));
  }

  /** {@code record Features(FloatArray image, int label)}: a record that would bind {@code t}. */
  String recordExample(AbiType t, String name) {
    StringBuilder sb = new StringBuilder("record ").append(Names.typeName(name)).append('(');
    if (t instanceof AbiType.Dict dict) {
      List<AbiType.Entry> entries = dict.entries();
      for (int i = 0; i < entries.size() && i < Messages.MAX_LIST; i++) {
        AbiType.Entry e = entries.get(i);
        String component = AbiType.Dict.camelCase(e.key());
        boolean javaName = Names.isJavaName(component);
        sb.append(i == 0 ? "" : ", ")
            .append(javaName ? "" : "@IreeKey(" + Messages.quote(e.key()) + ") ")
            .append(suggestType(e.type(), e.key()))
            .append(' ')
            .append(javaName ? component : "value" + i);
      }
    } else {
      List<AbiType> elems = ((AbiType.Sequence) t).elements();
      for (int i = 0; i < elems.size() && i < Messages.MAX_LIST; i++) {
        sb.append(i == 0 ? "" : ", ")
            .append(suggestType(elems.get(i), name + i))
            .append(" value")
            .append(i);
      }
    }
    return sb.append(')').toString();
  }

  /** The Java type to suggest for a type record; structures are named after {@code name}. */
  String suggestType(AbiType t, String name) {
    if (t instanceof AbiType.Named named) {
      return suggestType(named.type(), name);
    }
    if (t instanceof AbiType.Scalar scalar) {
      return JavaMapping.scalar(scalar.element()).map(Class::getName).orElse("(no Java type)");
    }
    if (t instanceof AbiType.NdArray ndArray) {
      return JavaMapping.arrayClass(ndArray.element()).orElse(JavaMapping.ANY_ARRAY_CLASS);
    }
    if (t instanceof AbiType.Dict) {
      return Names.typeName(name);
    }
    if (t instanceof AbiType.Sequence sequence) {
      return JavaMapping.uniformElement(sequence.elements())
          .map(e -> "List<" + suggestBoxed(e, name) + ">")
          .orElse(Names.typeName(name));
    }
    if (t instanceof AbiType.HomogeneousList homogeneousList) {
      return "List<" + suggestBoxed(homogeneousList.element(), name) + ">";
    }
    if (t instanceof AbiType.Unsupported) {
      return "(no Java type)";
    }
    return "VmRef";
  }

  /** {@link #suggestType}, boxed: for a type argument. */
  String suggestBoxed(AbiType t, String name) {
    if (t instanceof AbiType.Scalar scalar) {
      return JavaMapping.scalar(scalar.element())
          .map(k -> JavaMapping.boxed(k).getSimpleName())
          .orElse("(no Java type)");
    }
    return suggestType(t, name);
  }

  /**
   * The {@code Map<String, V>} an sdict binds to when its values all have one Java type to suggest
   * (equal type records, or arrays of one array class); empty otherwise, and for no keys.
   */
  Optional<String> mapSuggestion(AbiType.Dict t) {
    List<AbiType> values =
        t.entries().stream().map(AbiType.Entry::type).collect(Collectors.toList());
    Optional<AbiType> uniform = JavaMapping.uniformElement(values);
    if (uniform.isPresent()) {
      String v = suggestBoxed(uniform.get(), "value");
      return v.startsWith("(") ? Optional.empty() : Optional.of("Map<String, " + v + ">");
    }
    if (values.isEmpty()) {
      return Optional.empty();
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

  /** Why a ref has no type: said in messages about it. */
  String untypedWhy() {
    if (signature.format() == ReflectionFormat.CALLING_CONVENTION) {
      return "the module has no reflection for "
          + functionName
          + ", only its calling convention"
          + CallingConvention.expectedFor(signature).map(c -> " " + c).orElse("");
    }
    return "its reflection says only that it is a ref";
  }

  /** Why no Java type binds a scalar of {@code e}. */
  static String unsupportedScalar(ElementType e) {
    return e.isFloat()
        ? e + " scalars are not VM values (IREE's runtime cannot pass them either)"
        : "scalars bind i1, i8, i16, i32, i64, f32 and f64 only";
  }

  /** A calling convention's {@code r} or V0's {@code O}: a ref of any type. */
  static boolean isUntypedRef(AbiType t) {
    return t instanceof AbiType.Ref ref && AbiType.Ref.ANY.equals(ref.refType());
  }

  /** The last key or name of a path: "predict: features.image" gives "image". */
  static String lastSegment(String path) {
    String s = path.substring(path.indexOf(": ") + 2);
    s = s.replaceAll("\\[[^\\]]*\\]$", "");
    int dot = s.lastIndexOf('.');
    s = dot >= 0 ? s.substring(dot + 1) : s;
    s = s.replaceAll("\\[.*", "");
    return s.isEmpty() ? "value" : s;
  }
}
