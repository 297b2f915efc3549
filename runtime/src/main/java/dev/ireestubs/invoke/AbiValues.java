package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

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

  /** The failure of a value nested deeper than {@link #MAX_DEPTH}, on {@code side}. */
  static IreeValueException tooDeep(Side side, String path) {
    return IreeValueException.of(side, path, "nested more than " + MAX_DEPTH + " deep");
  }

  private AbiValues() {}

  // This class is the public face and marshals whole functions (argument and result lists); one
  // value is encoded by ValueEncoder (Java to VM) and decoded by ValueDecoder (VM to Java), and the
  // lists a host module receives and returns are checked by VmElementChecks. Paths: ValuePaths.

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
    placeNamed(declared, named, slots, filled, function);
    List<Object> values = java.util.Arrays.asList(slots);
    try {
      return encodeArguments(declared, values, filled, null);
    } catch (IreeValueException withoutPath) {
      return encodeArguments(declared, values, filled, function); // again, to say where
    }
  }

  /** Puts each {@code named} value in the slot of the argument of its name, marking it filled. */
  private static void placeNamed(
      List<AbiType> declared,
      Map<String, ?> named,
      Object[] slots,
      boolean[] filled,
      String function) {
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
      String path =
          function == null ? null : function + ": " + ValuePaths.argumentName(declared.get(i), i);
      if (filled != null && !filled[i]) {
        throw IreeValueException.of(
            Side.ARGUMENT, path, "no value given; expected " + declared.get(i));
      }
      arguments.push(ValueEncoder.encode(declared.get(i), values.get(i), path, 0, Side.ARGUMENT));
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
      return ValueDecoder.decodeChildren(only, results, path, 0);
    }
    if (count == 0) {
      return null;
    }
    if (count == 1) {
      return ValueDecoder.decode(rawResult(signature, 0), results.get(0), path, 0);
    }
    List<Object> values = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String indexed = path == null ? null : path + "[" + i + "]";
      values.add(ValueDecoder.decode(rawResult(signature, i), results.get(i), indexed, 0));
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
      // The path and the message are built only for a problem.
      if (!VmElementChecks.valid(type, element, 0)) {
        VmElementChecks.check(
            type, element, Side.ARGUMENT, function + ": " + ValuePaths.argumentName(type, i), 0);
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
        // The path and the message are built only for a problem.
        if (!VmElementChecks.valid(type, element, 0)) {
          VmElementChecks.check(
              type, element, Side.RESULT, ValuePaths.resultPath(signature, i, function), 0);
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
        ? ValueDecoder.childCount(signature.results().get(0))
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
  // One value (ValueEncoder, ValueDecoder)

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
    return ValueEncoder.encode(declared, value, path, 0, Side.ARGUMENT);
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
    return ValueEncoder.encode(declared, value, path, 0, Side.RESULT);
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
    return ValueDecoder.decode(declared, element, path, 0);
  }
}
