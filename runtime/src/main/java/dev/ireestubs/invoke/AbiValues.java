package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.ndarray.BoolArray;
import dev.ireestubs.ndarray.JavaArrays;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Marshalling driven by a signature at run time: walks a tree of {@link AbiType} records and
 * applies the checks of {@link ValueChecks}, so it agrees with generated stubs word for word. Used
 * by {@link DynamicFunction} (Java values in and out) and by host modules (checking the VM lists
 * their functions receive and return).
 *
 * <p>Java values, by type record:
 *
 * <table>
 *   <caption>Java forms of each type record</caption>
 *   <tr><th>type record</th><th>accepted as an argument</th><th>returned as a result</th></tr>
 *   <tr><td>{@code i1}</td><td>{@code Boolean}</td><td>{@code Boolean}</td></tr>
 *   <tr><td>{@code i8 i16 i32 i64}</td><td>any integral {@code Number} whose value fits</td>
 *       <td>{@code Byte Short Integer Long}</td></tr>
 *   <tr><td>{@code f32 f64}</td><td>any {@code Number}</td><td>{@code Float Double}</td></tr>
 *   <tr><td>{@code ndarray}</td><td>an {@link NdArray}, a {@link BufferView} or a rectangular Java
 *       array ({@code float[][]}), checked against element type, rank and static dims</td>
 *       <td>the {@link NdArray} class of the element type, sharing the result's memory</td></tr>
 *   <tr><td>{@code sdict}</td><td>a {@code Map<String, ?>} with exactly the keys, or a record
 *       whose components are named as the keys (or their camelCase form)</td>
 *       <td>an unmodifiable {@code Map} in descriptor order</td></tr>
 *   <tr><td>{@code slist stuple}</td><td>a {@code List} of the right size, or a record
 *       (positional)</td><td>an unmodifiable {@code List}</td></tr>
 *   <tr><td>{@code py_homogeneous_list}</td><td>a {@code List}</td><td>an unmodifiable
 *       {@code List}</td></tr>
 *   <tr><td>refs, {@code null}, {@code unknown}</td><td>a {@link VmRef} (or, for {@code null}, any
 *       of the above by its Java type)</td><td>the ref, or for {@code null} the value decoded by
 *       what arrived</td></tr>
 * </table>
 */
public final class AbiValues {

  /** Nesting deeper than this in a dynamically typed value is refused (it is likely a cycle). */
  static final int MAX_DEPTH = 64;

  private AbiValues() {}

  // ---------------------------------------------------------------------------------------------
  // Whole functions

  /**
   * The VM argument list for a call: {@code positional} values fill the unnamed arguments in order,
   * and {@code named} values fill the {@code named} arguments by name (a named argument is passed
   * by name only, as in IREE's runtime, whose compiler puts named arguments last); every argument
   * needs exactly one value.
   *
   * @param signature the function's signature, as its reflection declares it
   * @param positional the values of the unnamed arguments, in order; may be empty but not null
   * @param named the values of the named arguments by name; may be empty but not null
   * @param function the function's name for messages
   * @return a new variant list of the encoded arguments, in the signature's order
   * @throws IreeValueException (an argument) naming the function and the argument
   */
  public static VmList packArguments(
      FunctionSignature signature, List<?> positional, Map<String, ?> named, String function) {
    List<AbiType> declared = signature.arguments();
    if (named.isEmpty() && positional.size() == declared.size() && noneNamed(declared)) {
      try { // the usual call: every argument given in order
        return encodeArguments(declared, positional, null, null);
      } catch (IreeValueException withoutPath) {
        return encodeArguments(declared, positional, null, function); // again, to say where
      }
    }
    Object[] slots = new Object[declared.size()];
    boolean[] filled = new boolean[declared.size()];
    int unnamed = 0;
    for (AbiType t : declared) {
      if (!(t instanceof AbiType.Named)) {
        unnamed++;
      }
    }
    if (positional.size() > unnamed) {
      List<String> names = namedArguments(declared);
      throw IreeValueException.of(
          Side.ARGUMENT,
          function,
          "expected "
              + (names.isEmpty() ? "" : "at most ")
              + unnamed
              + " positional "
              + (unnamed == 1 ? "argument" : "arguments")
              + (names.isEmpty() ? "" : " (pass " + String.join(", ", names) + " by name)")
              + " but got "
              + positional.size());
    }
    // Positional values fill the unnamed arguments in order; named ones go by name only.
    int next = 0;
    for (int i = 0; i < declared.size() && next < positional.size(); i++) {
      if (!(declared.get(i) instanceof AbiType.Named)) {
        slots[i] = positional.get(next++);
        filled[i] = true;
      }
    }
    for (Map.Entry<String, ?> e : named.entrySet()) {
      int index = indexOfNamed(declared, e.getKey());
      if (index < 0) {
        List<String> names = namedArguments(declared);
        throw IreeValueException.of(
            Side.ARGUMENT,
            function,
            "no argument is named '"
                + e.getKey()
                + "'"
                + (names.isEmpty()
                    ? "; this function has no named arguments"
                    : "; named: " + String.join(", ", names)));
      }
      if (filled[index]) {
        throw IreeValueException.of(
            Side.ARGUMENT, function, "argument '" + e.getKey() + "' is given twice");
      }
      slots[index] = e.getValue();
      filled[index] = true;
    }
    List<Object> values = java.util.Arrays.asList(slots);
    try {
      return encodeArguments(declared, values, filled, null);
    } catch (IreeValueException withoutPath) {
      return encodeArguments(declared, values, filled, function); // again, to say where
    }
  }

  private static boolean noneNamed(List<AbiType> declared) {
    for (int i = 0; i < declared.size(); i++) {
      if (declared.get(i) instanceof AbiType.Named) {
        return false;
      }
    }
    return true;
  }

  /**
   * The argument list of {@code values}, one per declared argument ({@code filled} says which were
   * given; null: all). With {@code function} null no path is built: a valid call (the usual case)
   * then allocates no text, and a failure is found again with paths (values are read twice only for
   * an invalid call).
   */
  private static VmList encodeArguments(
      List<AbiType> declared, List<?> values, boolean[] filled, String function) {
    VmList arguments = VmList.variant(declared.size());
    for (int i = 0; i < declared.size(); i++) {
      String path = function == null ? null : function + ": " + argumentName(declared.get(i), i);
      if (filled != null && !filled[i]) {
        throw IreeValueException.of(
            Side.ARGUMENT, path, "no value given; expected " + declared.get(i));
      }
      arguments.push(encode(declared.get(i), values.get(i), path, 0, Side.ARGUMENT));
    }
    return arguments;
  }

  private static List<String> namedArguments(List<AbiType> declared) {
    List<String> names = new ArrayList<>();
    for (AbiType t : declared) {
      if (t instanceof AbiType.Named named) {
        names.add(named.name());
      }
    }
    return names;
  }

  /** {@code path.key}, or null while marshalling without paths. */
  private static String member(String path, String key) {
    return path == null ? null : path + "." + key;
  }

  /** {@code path[*]}, the path of every element of a list, or null without paths. */
  private static String each(String path) {
    return path == null ? null : path + "[*]";
  }

  /**
   * The Java value of a call's results: {@code null} for none, the value for one, the decoded
   * structure for an inlined {@code sdict}/{@code slist}/{@code stuple}, and a {@code List} for
   * several.
   *
   * @param signature the function's signature, as its reflection declares it
   * @param results the result list the backend returned; closed when decoding it fails
   * @param function the function's name, which starts the path of every value in a message
   * @return the decoded results, as described above; n-d arrays share the result list's buffer
   *     views
   * @throws IreeValueException (a result) naming the function and the result
   */
  public static Object unpackResults(FunctionSignature signature, VmList results, String function) {
    int count = rawResultCount(signature);
    ValueChecks.results(results, count, function);
    try {
      try {
        return unpackCheckedResults(signature, count, results, null);
      } catch (IreeValueException withoutPath) {
        return unpackCheckedResults(signature, count, results, function); // again, to say where
      }
    } catch (RuntimeException e) {
      throw ValueChecks.closeOnFailure(
          results, e); // the caller never sees the list: release its refs
    }
  }

  /** The results' Java value; {@code function} null: no paths (see {@link #encodeArguments}). */
  private static Object unpackCheckedResults(
      FunctionSignature signature, int count, VmList results, String function) {
    String path = function == null ? null : function + ": result";
    if (signature.hasInlinedResults()) {
      AbiType only = signature.results().get(0);
      return decodeChildren(only, results, path, 0);
    }
    if (count == 0) {
      return null;
    }
    if (count == 1) {
      return decode(rawResult(signature, 0), results.get(0), path, 0);
    }
    List<Object> values = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String indexed = path == null ? null : path + "[" + i + "]";
      values.add(decode(rawResult(signature, i), results.get(i), indexed, 0));
    }
    return Collections.unmodifiableList(values);
  }

  /**
   * The VM result list for the Java value a function returns (the inverse of {@link
   * #unpackResults}): nothing for no results, the value for one, the structure's children for an
   * inlined {@code sdict}/{@code slist}/{@code stuple}, and a {@code List} of values for several.
   *
   * <p>The result list takes over the n-d arrays of {@code result} (at any depth of lists, maps and
   * records): each array that owns memory it allocated is {@linkplain NdArray#handOver() handed
   * over}, closed for the function and its memory passed to the list's readers, which free it when
   * they are done (a stub's result array, when it is closed), so a host function's new result array
   * costs no memory that only the garbage collector frees. An array over lent memory (a function's
   * argument returned as a result), a view or an array over a caller's buffer is passed as it is;
   * an array returned twice in one value is handed over once. An array handed over by an earlier
   * call (one the function kept and returns again) fails with {@link IllegalStateException}. When
   * packing fails, the arrays that would have been handed over are closed instead, before the
   * exception leaves.
   *
   * @param signature the function's signature, as its reflection declares it
   * @param result the Java value the function returned: null for no results, the value for one, a
   *     {@code List} for several
   * @param function the function's name, which starts the path of every value in a message; the
   *     path is built only for a message
   * @return a new variant list of the encoded results, in the signature's order
   * @throws IreeValueException (a result) when the value does not fit the declared results
   * @throws IllegalStateException when an array of the value is closed or was handed over already
   */
  public static VmList packResults(FunctionSignature signature, Object result, String function) {
    VmList out;
    try {
      try {
        out = encodeResults(signature, result, null);
      } catch (IreeValueException withoutPath) {
        out = encodeResults(signature, result, function); // again, to say where
      }
    } catch (RuntimeException | Error e) {
      try {
        ValueWalk.forEachPart(result, ValueWalk::closeOwned);
      } catch (RuntimeException | Error suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    ValueWalk.forEachPart(result, ValueWalk::handOver);
    return out;
  }

  /** The result list of {@link #packResults}; {@code function} null: no paths. */
  private static VmList encodeResults(FunctionSignature signature, Object result, String function) {
    String path = function == null ? null : function + ": result";
    List<AbiType> results = signature.results();
    if (results.isEmpty()) {
      if (result != null) {
        throw IreeValueException.of(
            Side.RESULT, path, "the function has no results but returned " + result);
      }
      return VmList.variant(0);
    }
    if (signature.hasInlinedResults()) {
      // The structure's children are the raw results: its VM list is the result list.
      return (VmList) encodeResult(results.get(0), result, path);
    }
    if (results.size() == 1) {
      VmList out = VmList.variant(1);
      out.push(encodeResult(results.get(0), result, path));
      return out;
    }
    if (!(result instanceof List) || ((List<?>) result).size() != results.size()) {
      throw IreeValueException.of(
          Side.RESULT, path, "expected a List of " + results.size() + " results but got " + result);
    }
    VmList out = VmList.variant(results.size());
    for (int i = 0; i < results.size(); i++) {
      String indexed = path == null ? null : path + "[" + i + "]";
      out.push(encodeResult(results.get(i), ((List<?>) result).get(i), indexed));
    }
    return out;
  }

  /**
   * Checks a VM argument list against the signature: the count, then every argument, as a host
   * module does before running its function.
   *
   * @param signature the function's signature, as its reflection declares it
   * @param arguments the argument list a caller passed
   * @param function the function's name, which starts the path of every value in a message
   * @throws IreeValueException (an argument) on the first problem
   */
  public static void checkArguments(
      FunctionSignature signature, VmList arguments, String function) {
    List<AbiType> declared = signature.arguments();
    if (arguments == null || arguments.size() != declared.size()) {
      throw IreeValueException.of(
          Side.ARGUMENT,
          function,
          "expected "
              + declared.size()
              + (declared.size() == 1 ? " argument" : " arguments")
              + " but got "
              + (arguments == null ? "no list" : String.valueOf(arguments.size())));
    }
    for (int i = 0; i < declared.size(); i++) {
      AbiType type = declared.get(i);
      Object element = arguments.get(i);
      if (!valid(type, element, 0)) { // the path and the message are built only for a problem
        check(type, element, Side.ARGUMENT, function + ": " + argumentName(type, i), 0);
      }
    }
  }

  /**
   * Checks a VM result list against the signature: the raw result count (after inlining), then
   * every result, as a host module does after its function returns.
   *
   * @param signature the function's signature, as its reflection declares it
   * @param results the result list a host function returned
   * @param function the function's name, which starts the path of every value in a message
   * @throws IreeValueException (a result) on the first problem
   */
  public static void checkResults(FunctionSignature signature, VmList results, String function) {
    int count = rawResultCount(signature);
    ValueChecks.results(results, count, function);
    try {
      for (int i = 0; i < count; i++) {
        AbiType type = rawResult(signature, i);
        Object element = results.get(i);
        if (!valid(type, element, 0)) { // the path and the message are built only for a problem
          check(type, element, Side.RESULT, resultPath(signature, i, function), 0);
        }
      }
    } catch (RuntimeException e) {
      throw ValueChecks.closeOnFailure(
          results, e); // the caller never sees the list: release its refs
    }
  }

  /** The number of raw VM results ({@link FunctionSignature#vmResults()}), counted in place. */
  static int rawResultCount(FunctionSignature signature) {
    return signature.hasInlinedResults()
        ? childCount(signature.results().get(0))
        : signature.results().size();
  }

  /** Raw VM result {@code index} ({@link FunctionSignature#vmResults()}), found in place. */
  static AbiType rawResult(FunctionSignature signature, int index) {
    if (!signature.hasInlinedResults()) {
      return signature.results().get(index);
    }
    AbiType only = signature.results().get(0);
    return only instanceof AbiType.Dict dict
        ? dict.entries().get(index).type()
        : ((AbiType.Sequence) only).elements().get(index);
  }

  /** The path of raw result {@code index}: {@code f: result}, {@code f: result.key}, ... */
  static String resultPath(FunctionSignature signature, int index, String function) {
    if (signature.hasInlinedResults()) {
      return childPath(signature.results().get(0), function + ": result", index);
    }
    return function + ": result" + (signature.results().size() == 1 ? "" : "[" + index + "]");
  }

  private static String childPath(AbiType structure, String path, int index) {
    if (structure instanceof AbiType.Dict dict) {
      return path + "." + dict.entries().get(index).key();
    }
    return path + "[" + index + "]";
  }

  private static String argumentName(AbiType type, int index) {
    return type instanceof AbiType.Named named ? named.name() : "arg" + index;
  }

  private static int indexOfNamed(List<AbiType> declared, String name) {
    for (int i = 0; i < declared.size(); i++) {
      if (declared.get(i) instanceof AbiType.Named
          && ((AbiType.Named) declared.get(i)).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  // ---------------------------------------------------------------------------------------------
  // One value

  /**
   * The VM list element (a {@link VmValue} or a {@link VmRef}) for the Java {@code value} of a
   * {@code declared} argument.
   *
   * @param declared the type the signature declares for the value
   * @param value the Java value: a primitive wrapper, an n-d array or Java array, a {@code List},
   *     {@code Map} or ref, as {@link dev.ireestubs.abi.JavaMapping} maps the declared type
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return the encoded element; an n-d array is passed as its buffer view, sharing its memory
   * @throws IreeValueException (an argument) when the value does not fit the declaration
   */
  public static Object encode(AbiType declared, Object value, String path) {
    return encode(declared, value, path, 0, Side.ARGUMENT);
  }

  /**
   * The VM list element for the Java {@code value} of a {@code declared} result, as a host module
   * returns it; what {@link #encode} checks, reported as {@link IreeValueException}s of side
   * RESULT.
   *
   * @param declared the type the signature declares for the value
   * @param value the Java value: a primitive wrapper, an n-d array or Java array, a {@code List},
   *     {@code Map} or ref, as {@link dev.ireestubs.abi.JavaMapping} maps the declared type
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return the encoded element; an n-d array is returned as its buffer view, sharing its memory
   */
  public static Object encodeResult(AbiType declared, Object value, String path) {
    return encode(declared, value, path, 0, Side.RESULT);
  }

  private static Object encode(AbiType declared, Object value, String path, int depth, Side side) {
    if (depth > MAX_DEPTH) {
      throw IreeValueException.of(side, path, "nested more than " + MAX_DEPTH + " deep");
    }
    if (declared instanceof AbiType.Named named) {
      return encode(named.type(), value, path, depth, side);
    }
    if (declared instanceof AbiType.Any) {
      return encodeDynamic(value, path, depth, side);
    }
    if (declared instanceof AbiType.Unsupported unsupported) {
      throw unsupported(unsupported, side, path);
    }
    ValueChecks.notNull(value, declared, side, path);
    if (declared instanceof AbiType.Scalar scalar) {
      return encodeScalar(scalar.element(), value, path, side);
    }
    if (declared instanceof AbiType.NdArray type) {
      if (value instanceof NdArray ndArray) {
        return ValueChecks.array(ndArray, type, side, path);
      }
      if (value instanceof BufferView) {
        return ValueChecks.bufferView(value, type, side, path);
      }
      if (JavaArrays.isSupported(value)) {
        return javaArrayCopy(
            ValueChecks.copy(value, JavaArrays::copyOf, type, side, path), type, side, path);
      }
      throw mismatch(declared, value, "an NdArray, a BufferView or a Java array", side, path);
    }
    if (declared instanceof AbiType.Dict dict) {
      return encodeDict(dict, value, path, depth, side);
    }
    if (declared instanceof AbiType.Sequence sequence) {
      List<AbiType> elements = sequence.elements();
      List<?> values = positionalValues(declared, value, path, side);
      VmList list = ValueChecks.sequence(values, declared, elements.size(), side, path);
      String each = each(path);
      for (int i = 0; i < elements.size(); i++) {
        try {
          list.push(encode(elements.get(i), values.get(i), each, depth + 1, side));
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
      return list;
    }
    if (declared instanceof AbiType.HomogeneousList homogeneousList) {
      if (!(value instanceof List)) {
        throw mismatch(declared, value, "a List", side, path);
      }
      List<?> values = (List<?>) value;
      AbiType element = homogeneousList.element();
      VmList list = VmList.variant(values.size());
      String each = each(path);
      for (int i = 0; i < values.size(); i++) {
        try {
          list.push(encode(element, values.get(i), each, depth + 1, side));
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
      return list;
    }
    return encodeRef(declared, value, path, depth, side);
  }

  /**
   * A ref slot ({@code r} in the calling convention, {@code !vm.list}, {@code unknown}): a {@link
   * VmRef} as it is; and, as IREE's Python invoker does for a function with no reflection, what a
   * variant list holds: a {@code List} (nested to any depth) as a list, a {@code Map} as the list
   * of its values in sorted key order, an array as a buffer view; then checked against the ref type
   * the slot names, if any.
   */
  private static Object encodeRef(
      AbiType declared, Object value, String path, int depth, Side side) {
    Object ref = value;
    if (!(value instanceof VmRef)) {
      boolean convertible =
          value instanceof List
              || value instanceof Map
              || value instanceof NdArray
              || JavaArrays.isSupported(value);
      if (!convertible) {
        throw mismatch(declared, value, "a VmRef, a List, a Map or an array", side, path);
      }
      ref = encodeDynamic(value, path, depth, side);
    }
    checkRefType(declared, (VmRef) ref, side, path);
    return ref;
  }

  /** The VM value of an {@code i1}: the i32 1 or 0. */
  private static VmValue i1(boolean value) {
    return VmValue.i32(value ? 1 : 0);
  }

  private static VmValue encodeScalar(ElementType element, Object value, String path, Side side) {
    if (element.kind() == ElementType.Kind.BOOLEAN) {
      if (!(value instanceof Boolean b)) {
        throw mismatch(new AbiType.Scalar(element), value, "a Boolean", side, path);
      }
      return i1(b);
    }
    if (element.isInteger() && element.bits() <= 64) {
      if (!(value instanceof Byte
          || value instanceof Short
          || value instanceof Integer
          || value instanceof Long)) {
        throw mismatch(new AbiType.Scalar(element), value, "an integral Number", side, path);
      }
      long v = ((Number) value).longValue();
      int bits = element.bits();
      if (bits < 64 && !ValueChecks.fits(v, element)) {
        throw IreeValueException.of(
            side,
            path,
            "expected an " + element + " but " + v + " does not fit in " + bits + " bits");
      }
      return bits <= 8
          ? VmValue.i8((byte) v)
          : bits <= 16
              ? VmValue.i16((short) v)
              : bits <= 32 ? VmValue.i32((int) v) : VmValue.i64(v);
    }
    if (element.equals(ElementType.F32) || element.equals(ElementType.F64)) {
      if (!(value instanceof Number number)) {
        throw mismatch(new AbiType.Scalar(element), value, "a Number", side, path);
      }
      double d = number.doubleValue();
      return element.equals(ElementType.F32) ? VmValue.f32((float) d) : VmValue.f64(d);
    }
    throw IreeValueException.of(
        side,
        path,
        "a scalar "
            + element
            + " has no VM value type; IREE passes i1, i8..i64, f32 and f64 scalars only");
  }

  private static VmList encodeDict(
      AbiType.Dict declared, Object value, String path, int depth, Side side) {
    List<AbiType.Entry> entries = declared.entries();
    VmList list = VmList.variant(entries.size());
    if (value instanceof Map) {
      Map<?, ?> map = (Map<?, ?>) value;
      if (!hasExactly(map, entries)) { // keys listed only for the message
        String problem = ValueChecks.keysProblem(map, declared.keys());
        if (problem != null) {
          throw IreeValueException.of(side, path, problem);
        }
      }
      for (AbiType.Entry e : entries) {
        list.push(encode(e.type(), map.get(e.key()), member(path, e.key()), depth + 1, side));
      }
      return list;
    }
    if (value instanceof Record record) {
      Map<String, Object> components = recordComponents(record, path);
      for (AbiType.Entry e : entries) {
        String component = matchComponent(components, e.key());
        if (component == null) {
          throw IreeValueException.of(
              side,
              path,
              "record "
                  + JavaMapping.typeName(value)
                  + " has no component for key '"
                  + e.key()
                  + "' (components: "
                  + components.keySet()
                  + ")");
        }
      }
      if (components.size() != entries.size()) {
        throw IreeValueException.of(
            side,
            path,
            "record "
                + JavaMapping.typeName(value)
                + " has components "
                + components.keySet()
                + " but the sdict has exactly the keys "
                + declared.keys());
      }
      for (AbiType.Entry e : entries) {
        Object component = components.get(matchComponent(components, e.key()));
        list.push(encode(e.type(), component, member(path, e.key()), depth + 1, side));
      }
      return list;
    }
    throw mismatch(declared, value, "a Map<String, ?> or a record", side, path);
  }

  /** True when {@code map}'s keys are exactly those of {@code entries} (keysProblem is null). */
  private static boolean hasExactly(Map<?, ?> map, List<AbiType.Entry> entries) {
    if (map.size() != entries.size()) {
      return false;
    }
    for (int i = 0; i < entries.size(); i++) {
      if (!map.containsKey(entries.get(i).key())) {
        return false;
      }
    }
    return true;
  }

  /** The component named {@code key}, or named as its camelCase form ({@code class_ids}). */
  static String matchComponent(Map<String, Object> components, String key) {
    if (components.containsKey(key)) {
      return key;
    }
    String camel = AbiType.Dict.camelCase(key);
    return components.containsKey(camel) ? camel : null;
  }

  /**
   * A record's component values by the dict key each stands for (the key itself or its camelCase
   * form), plus the components no key claims, under their own names (so a key check reports them).
   */
  static Map<String, Object> recordByKeys(Record record, List<String> keys, String path) {
    Map<String, Object> components = recordComponents(record, path);
    Map<String, Object> out = new LinkedHashMap<>();
    for (String key : keys) {
      String component = matchComponent(components, key);
      if (component != null) {
        out.put(key, components.remove(component));
      }
    }
    out.putAll(components);
    return out;
  }

  private static List<?> positionalValues(AbiType declared, Object value, String path, Side side) {
    if (value instanceof List) {
      return (List<?>) value;
    }
    if (value instanceof Object[] array) {
      return java.util.Arrays.asList(array);
    }
    if (value instanceof Record record) {
      return new ArrayList<>(recordComponents(record, path).values());
    }
    throw mismatch(declared, value, "a List or a record", side, path);
  }

  static Map<String, Object> recordComponents(Record record, String path) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Accessor c : ACCESSORS.get(record.getClass())) {
      try {
        if (c.inaccessible != null) {
          throw c.inaccessible;
        }
        values.put(c.name, c.method.invoke(record));
      } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
        throw IreeValueException.of(
            Side.ARGUMENT,
            path,
            "cannot read component "
                + c.name
                + " of record "
                + JavaMapping.typeName(record)
                + ": "
                + e);
      }
    }
    return values;
  }

  /** A record component's accessor, looked up and made accessible once per record class. */
  private static final class Accessor {
    final String name;
    final java.lang.reflect.Method method;
    final RuntimeException inaccessible; // why setAccessible failed, reported at each call

    Accessor(RecordComponent component) {
      this.name = component.getName();
      this.method = component.getAccessor();
      RuntimeException failure = null;
      try {
        method.setAccessible(true);
      } catch (RuntimeException e) {
        failure = e;
      }
      this.inaccessible = failure;
    }
  }

  /** The accessors of each record class, in component order: no reflective lookup per call. */
  private static final ClassValue<Accessor[]> ACCESSORS =
      new ClassValue<>() {
        @Override
        protected Accessor[] computeValue(Class<?> type) {
          RecordComponent[] components = type.getRecordComponents();
          Accessor[] accessors = new Accessor[components.length];
          for (int i = 0; i < components.length; i++) {
            accessors[i] = new Accessor(components[i]);
          }
          return accessors;
        }
      };

  /** Java values by their own type, for a {@code null} (any) descriptor. */
  private static Object encodeDynamic(Object value, String path, int depth, Side side) {
    if (depth > MAX_DEPTH) {
      throw IreeValueException.of(side, path, "nested more than " + MAX_DEPTH + " deep");
    }
    if (value == null || value instanceof VmRef || value instanceof VmValue) {
      return value;
    }
    if (value instanceof Boolean b) {
      return i1(b);
    } else if (value instanceof Byte b) {
      return VmValue.i8(b);
    } else if (value instanceof Short s) {
      return VmValue.i16(s);
    } else if (value instanceof Integer i) {
      return VmValue.i32(i);
    } else if (value instanceof Long l) {
      return VmValue.i64(l);
    } else if (value instanceof Float f) {
      return VmValue.f32(f);
    } else if (value instanceof Double d) {
      return VmValue.f64(d);
    } else if (value instanceof NdArray ndArray) {
      return ndArray.asBufferView();
    } else if (JavaArrays.isSupported(value)) {
      AbiType.NdArray any = AbiType.NdArray.anyBufferView();
      return javaArrayCopy(
          ValueChecks.copy(value, JavaArrays::copyOf, any, side, path), any, side, path);
    } else if (value instanceof List) {
      List<?> values = (List<?>) value;
      VmList list = VmList.variant(values.size());
      String each = each(path);
      for (int i = 0; i < values.size(); i++) {
        try {
          list.push(encodeDynamic(values.get(i), each, depth + 1, side));
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
      return list;
    } else if (value instanceof Map) {
      // As IREE's dynamic mode: the values in sorted key order.
      Map<String, Object> sorted = new TreeMap<>(AbiType.Dict::compareBytewise);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!(e.getKey() instanceof String)) {
          throw IreeValueException.of(side, path, "map keys must be strings, got " + e.getKey());
        }
        sorted.put((String) e.getKey(), e.getValue());
      }
      VmList list = VmList.variant(sorted.size());
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        list.push(encodeDynamic(e.getValue(), member(path, e.getKey()), depth + 1, side));
      }
      return list;
    }
    throw IreeValueException.of(
        side, path, "cannot pass " + JavaMapping.aTypeName(value) + " to the VM");
  }

  /**
   * The Java value of a VM list element that should be a {@code declared} result.
   *
   * @param declared the type the signature declares for the value
   * @param element the VM list element: a {@link VmValue}, a {@link VmRef}, or null for an empty
   *     slot
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return the Java value: a boxed scalar, an n-d array over the element's buffer view, a {@code
   *     List}, a {@code Map} or a ref
   * @throws IreeValueException (a result) when the element does not fit the declaration
   */
  public static Object decode(AbiType declared, Object element, String path) {
    return decode(declared, element, path, 0);
  }

  private static Object decode(AbiType declared, Object element, String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw IreeValueException.of(Side.RESULT, path, "nested more than " + MAX_DEPTH + " deep");
    }
    if (declared instanceof AbiType.Named named) {
      return decode(named.type(), element, path, depth);
    }
    if (declared instanceof AbiType.Scalar scalar) {
      return decodeScalar(scalar.element(), element, path);
    }
    if (declared instanceof AbiType.NdArray type) {
      BufferView view = ValueChecks.bufferView(element, type, Side.RESULT, path);
      if (type.element().kind() == ElementType.Kind.BOOLEAN) {
        return BoolArray.fromBufferView(view); // i1 may arrive in 8-bit storage: read as booleans
      }
      return toArray(view);
    }
    if (declared instanceof AbiType.Dict || declared instanceof AbiType.Sequence) {
      int size = childCount(declared);
      VmList list = ValueChecks.list(element, declared, size, Side.RESULT, path);
      return decodeChildren(declared, list, path, depth + 1);
    }
    if (declared instanceof AbiType.HomogeneousList homogeneousList) {
      VmList list = ValueChecks.list(element, declared, -1, Side.RESULT, path);
      AbiType type = homogeneousList.element();
      List<Object> values = new ArrayList<>(list.size());
      String each = each(path);
      for (int i = 0; i < list.size(); i++) {
        try {
          values.add(decode(type, list.get(i), each, depth + 1));
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
      return Collections.unmodifiableList(values);
    }
    if (declared instanceof AbiType.Any || declared instanceof AbiType.Unknown) {
      return decodeDynamic(element, path, depth); // "unknown": whatever the VM holds
    }
    if (declared instanceof AbiType.Unsupported unsupported) {
      throw unsupported(unsupported, Side.RESULT, path);
    }
    // Ref
    VmRef ref = ValueChecks.ref(element, Side.RESULT, path);
    if (ref != null) {
      checkRefType(declared, ref, Side.RESULT, path);
    }
    if (ref instanceof VmList && isListSlot(declared)) {
      return decodeDynamic(ref, path, depth); // as IREE's Python invoker: a list, not a handle
    }
    return ref;
  }

  /** The children of an inlined or nested structure, as a Map (sdict) or a List. */
  private static Object decodeChildren(AbiType structure, VmList list, String path, int depth) {
    if (structure instanceof AbiType.Dict dict) {
      List<AbiType.Entry> entries = dict.entries();
      String[] keys = new String[entries.size()];
      Object[] values = new Object[entries.size()];
      for (int i = 0; i < entries.size(); i++) {
        AbiType.Entry e = entries.get(i);
        keys[i] = e.key();
        values[i] = decode(e.type(), list.get(i), member(path, e.key()), depth);
      }
      return new DictValues(keys, values);
    }
    List<AbiType> elements = ((AbiType.Sequence) structure).elements();
    List<Object> values = new ArrayList<>(elements.size());
    String each = each(path);
    for (int i = 0; i < elements.size(); i++) {
      try {
        values.add(decode(elements.get(i), list.get(i), each, depth));
      } catch (IreeValueException e) {
        throw ValueChecks.atIndex(e, path, i);
      }
    }
    return Collections.unmodifiableList(values);
  }

  private static int childCount(AbiType structure) {
    return structure instanceof AbiType.Dict dict
        ? dict.entries().size()
        : ((AbiType.Sequence) structure).elements().size();
  }

  private static Object decodeDynamic(Object element, String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw IreeValueException.of(Side.RESULT, path, "nested more than " + MAX_DEPTH + " deep");
    }
    if (element instanceof VmValue vmValue) {
      return vmValue.boxed();
    }
    if (element instanceof BufferView view) {
      return view.elementType().isPresent() ? toArray(view) : view;
    }
    if (element instanceof VmList list) {
      List<Object> values = new ArrayList<>(list.size());
      String each = each(path);
      for (int i = 0; i < list.size(); i++) {
        try {
          values.add(decodeDynamic(list.get(i), each, depth + 1));
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
      return Collections.unmodifiableList(values);
    }
    return element; // null or another ref
  }

  /**
   * A scalar result as the box of the Java type {@link JavaMapping} gives it; integers of odd
   * widths ({@code i3}) in the narrowest integer type that holds them.
   */
  private static Object decodeScalar(ElementType type, Object element, String path) {
    Class<?> java = scalarClass(type);
    if (java == boolean.class) {
      return ValueChecks.integer(element, type, Side.RESULT, path) == 1;
    } else if (java == float.class) {
      return (float) ValueChecks.floating(element, type, Side.RESULT, path);
    } else if (java == double.class) {
      return ValueChecks.floating(element, type, Side.RESULT, path);
    } else if (java == null) {
      throw IreeValueException.of(
          Side.RESULT,
          path,
          "a scalar " + type + " has no VM value type; expected i1, i8..i64, f32 or f64");
    }
    long v = ValueChecks.integer(element, type, Side.RESULT, path);
    if (java == byte.class) {
      return (byte) v;
    } else if (java == short.class) {
      return (short) v;
    } else if (java == int.class) {
      return (int) v;
    }
    return v;
  }

  /**
   * The primitive {@link JavaMapping} gives a scalar result (for integers, the narrowest that holds
   * the width), or null; the common types answered without an {@code Optional}.
   */
  private static Class<?> scalarClass(ElementType type) {
    if (type.isInteger()) {
      int bits = type.bits();
      return bits <= 0 || bits > 64
          ? null
          : bits <= 8 ? byte.class : bits <= 16 ? short.class : bits <= 32 ? int.class : long.class;
    }
    if (type.equals(ElementType.F32)) {
      return float.class;
    }
    if (type.equals(ElementType.F64)) {
      return double.class;
    }
    return JavaMapping.scalar(type).orElse(null);
  }

  private static Object toArray(BufferView view) {
    try {
      return NdArray.fromBufferView(view);
    } catch (IllegalArgumentException e) {
      return view; // an element type no array class holds: the view itself
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Checking VM elements

  /**
   * True when {@link #check} passes {@code element}: the same rules, decided without a path or a
   * message, so that a valid call allocates nothing; {@link #check} then runs only to say what is
   * wrong.
   */
  private static boolean valid(AbiType declared, Object element, int depth) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    if (declared instanceof AbiType.Named named) {
      return valid(named.type(), element, depth);
    } else if (declared instanceof AbiType.Scalar scalar) {
      ElementType type = scalar.element();
      if (!(element instanceof VmValue value)) {
        return false;
      }

      if (type.isInteger() || type.kind() == ElementType.Kind.BOOLEAN) {
        return value.isInteger() && ValueChecks.fits(value.asI64(), type);
      }
      return (type.equals(ElementType.F32) || type.equals(ElementType.F64)) && value.isFloat();
    } else if (declared instanceof AbiType.NdArray ndArray) {
      return element instanceof BufferView bufferView && ValueChecks.fits(ndArray, bufferView);
    } else if (declared instanceof AbiType.Dict dict) {
      List<AbiType.Entry> entries = dict.entries();
      if (!(element instanceof VmList vmList) || vmList.size() != entries.size()) {
        return false;
      }
      for (int i = 0; i < entries.size(); i++) {
        if (!valid(entries.get(i).type(), vmList.get(i), depth + 1)) {
          return false;
        }
      }
      return true;
    } else if (declared instanceof AbiType.Sequence sequence) {
      List<AbiType> elements = sequence.elements();
      if (!(element instanceof VmList vmList) || vmList.size() != elements.size()) {
        return false;
      }
      for (int i = 0; i < elements.size(); i++) {
        if (!valid(elements.get(i), vmList.get(i), depth + 1)) {
          return false;
        }
      }
      return true;
    } else if (declared instanceof AbiType.HomogeneousList homogeneousList) {
      if (!(element instanceof VmList list)) {
        return false;
      }
      AbiType type = homogeneousList.element();

      for (int i = 0; i < list.size(); i++) {
        if (!valid(type, list.get(i), depth + 1)) {
          return false;
        }
      }
      return true;
    } else if (declared instanceof AbiType.Ref) {
      return element == null || (element instanceof VmRef vmRef && refTypeMatches(declared, vmRef));
    }
    return !(declared instanceof AbiType.Unsupported); // Any, Unknown: whatever arrives
  }

  private static void check(AbiType declared, Object element, Side side, String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw IreeValueException.of(side, path, "nested more than " + MAX_DEPTH + " deep");
    }
    if (declared instanceof AbiType.Named named) {
      check(named.type(), element, side, path, depth);
    } else if (declared instanceof AbiType.Scalar scalar) {
      ElementType type = scalar.element();
      if (type.isInteger() || type.kind() == ElementType.Kind.BOOLEAN) {
        ValueChecks.integer(element, type, side, path);
      } else if (type.equals(ElementType.F32) || type.equals(ElementType.F64)) {
        ValueChecks.floating(element, type, side, path);
      } else {
        throw IreeValueException.of(side, path, "a scalar " + type + " has no VM value type");
      }
    } else if (declared instanceof AbiType.NdArray ndArray) {
      ValueChecks.bufferView(element, ndArray, side, path);
    } else if (declared instanceof AbiType.Dict dict) {
      List<AbiType.Entry> entries = dict.entries();
      VmList list = ValueChecks.list(element, declared, entries.size(), side, path);
      for (int i = 0; i < entries.size(); i++) {
        AbiType.Entry e = entries.get(i);
        check(e.type(), list.get(i), side, path + "." + e.key(), depth + 1);
      }
    } else if (declared instanceof AbiType.Sequence sequence) {
      List<AbiType> elements = sequence.elements();
      VmList list = ValueChecks.list(element, declared, elements.size(), side, path);
      String each = path + "[*]";
      for (int i = 0; i < elements.size(); i++) {
        try {
          check(elements.get(i), list.get(i), side, each, depth + 1);
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
    } else if (declared instanceof AbiType.HomogeneousList homogeneousList) {
      VmList list = ValueChecks.list(element, declared, -1, side, path);
      AbiType type = homogeneousList.element();
      String each = path + "[*]";
      for (int i = 0; i < list.size(); i++) {
        try {
          check(type, list.get(i), side, each, depth + 1);
        } catch (IreeValueException e) {
          throw ValueChecks.atIndex(e, path, i);
        }
      }
    } else if (declared instanceof AbiType.Ref) {
      VmRef ref = ValueChecks.ref(element, side, path);
      if (ref != null) {
        checkRefType(declared, ref, side, path);
      }
    } else if (declared instanceof AbiType.Unsupported unsupported) {
      throw unsupported(unsupported, side, path);
    }
    // Any, Unknown: whatever arrives.
  }

  /** A ref slot a list may fill: no reflection says its type ({@code r}), or it says a list. */
  private static boolean isListSlot(AbiType declared) {
    if (!(declared instanceof AbiType.Ref ref)) {
      return false;
    }
    String type = ref.refType();
    return type.equals(AbiType.Ref.ANY) || type.equals("vm.list") || type.equals("!vm.list");
  }

  /**
   * True when {@code ref} is of the type a {@code declared} ref slot names (any, when not a ref).
   */
  private static boolean refTypeMatches(AbiType declared, VmRef ref) {
    if (!(declared instanceof AbiType.Ref refSlot)) {
      return true;
    }
    String expected = refSlot.refType();
    if (expected.equals(AbiType.Ref.ANY)) {
      return true;
    }
    String actual = ref.refTypeName();
    int skip = expected.startsWith("!") ? 1 : 0;
    return actual != null
        && expected.length() - skip == actual.length()
        && expected.startsWith(actual, skip);
  }

  private static void checkRefType(AbiType declared, VmRef ref, Side side, String path) {
    if (refTypeMatches(declared, ref)) {
      return;
    }
    String expected = ((AbiType.Ref) declared).refType();
    if (expected.equals(AbiType.Ref.ANY)) {
      return;
    }
    String bare = expected.startsWith("!") ? expected.substring(1) : expected;
    if (!bare.equals(ref.refTypeName())) {
      throw IreeValueException.of(
          side,
          path,
          "expected a ref of type " + bare + " but got one of type " + ref.refTypeName());
    }
  }

  private static IreeValueException unsupported(AbiType.Unsupported type, Side side, String path) {
    return IreeValueException.of(
        side,
        path,
        "the signature uses "
            + type.source()
            + ", which iree-stubs cannot marshal ("
            + type.reason()
            + ")");
  }

  private static IreeValueException mismatch(
      AbiType declared, Object value, String accepted, Side side, String path) {
    return IreeValueException.of(
        side,
        path,
        "expected "
            + declared
            + " ("
            + accepted
            + ") but got "
            + JavaMapping.typeName(Objects.requireNonNull(value))
            + (value instanceof NdArray ? " " + value : ""));
  }

  /**
   * The view of {@code copy}, a Java array's copy made for this value, after checking it against
   * {@code declared}: an argument's copy is owned by the call ({@link NdArray#asCallArgument()}),
   * freed when the caller ends the call ({@link VmList#endCall()}, which {@link DynamicFunction}'s
   * calls do after decoding) unless the backend still pins it; a result's copy is handed over to
   * the result list's readers ({@link NdArray#handOver()}). A copy that does not fit is closed
   * before the failure is thrown.
   */
  private static BufferView javaArrayCopy(
      NdArray copy, AbiType.NdArray declared, Side side, String path) {
    BufferView view = side == Side.ARGUMENT ? copy.asCallArgument() : copy.asBufferView();
    if (!ValueChecks.fits(declared, view)) {
      try {
        ValueChecks.array(copy, declared, side, path); // throws the message for the mismatch
      } catch (RuntimeException | Error e) {
        copy.close();
        throw e;
      }
    }
    if (side == Side.RESULT) {
      copy.handOver(); // the result list's, as a returned array's memory is (packResults)
    }
    return view;
  }
}
