package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The checks of one value against the type its signature declares, on its way into a function (an
 * argument) or out of it (a result): the one place where values of the native calling convention
 * are checked and where those checks' messages are worded. Generated stubs (through {@code
 * dev.ireestubs.internal}, which is not API), {@link AbiValues} (dynamic calls, host modules) and
 * the calling formats ({@link CallCodec}s, IREEPyDM's included) all check here, so a problem reads
 * the same whichever way a function is called.
 *
 * <p>A service-provider interface, for code that marshals a calling format of its own; an
 * application calls functions through a generated stub or {@link DynamicFunction}.
 *
 * <p>Every {@code path} names the function and the value, as {@code predict: features.image} or
 * {@code predict: result.logits}; a null path is allowed, for a first pass that builds no text (see
 * {@link AbiValues}). Messages say what the signature declares and what was given; a problem throws
 * an {@link IreeValueException} whose {@link IreeValueException#side() side} says whether an
 * argument or a result is wrong, built only when a check fails.
 *
 * <p>Stricter than IREE's reference runtime, which checks neither: an array's element type ({@link
 * ElementType#accepts}) and shape (rank and every static dimension) are checked against the
 * declaration in both directions.
 */
public final class ValueChecks {

  /** What a path has for the index of a list element until a failure names it. */
  private static final String ANY_INDEX = "[*]";

  private ValueChecks() {}

  /**
   * {@code value}, which must not be null.
   *
   * @param <T> the value's static type, kept so that a call can be used as an expression
   * @param value the value to check; may be null, which fails
   * @param declared the type the signature declares for the value, named in a message; null when
   *     the caller's Java type already says it (a generated stub's parameter)
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return {@code value}, not null
   * @throws IreeValueException {@code predict: features: is null; expected sdict[...]}
   */
  public static <T> T notNull(T value, AbiType declared, Side side, String path) {
    if (value == null) {
      throw IreeValueException.of(
          side, path, declared == null ? "is null" : "is null; expected " + declared);
    }
    return value;
  }

  // ---------------------------------------------------------------------------------------------
  // Arrays

  /**
   * The buffer view of {@code array} (no copy) after checking it against {@code declared}.
   *
   * @param array the n-d array to pass; may be null, which fails
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return the array's buffer view, sharing its memory
   * @throws IreeValueException when the array is null, or its element type or shape differs
   */
  public static BufferView array(NdArray array, AbiType.NdArray declared, Side side, String path) {
    notNull(array, declared, side, path);
    if (!fits(declared, array)) { // checked without copying the shape; described on failure
      String problem = arrayProblem(declared, array.elementType(), array.shape());
      if (problem != null) {
        throw IreeValueException.of(side, path, problem);
      }
    }
    return array.asBufferView();
  }

  /** {@link #arrayProblem} is null, decided from the array's dims in place. */
  private static boolean fits(AbiType.NdArray declared, NdArray array) {
    if (!declared.element().accepts(array.elementType())) {
      return false;
    }
    Shape shape = declared.shape();
    if (!shape.isRanked()) {
      return true;
    }
    if (shape.rank() != array.rank()) {
      return false;
    }
    for (int axis = 0; axis < array.rank(); axis++) {
      long dim = shape.dim(axis);
      if (dim != Shape.DYNAMIC && dim != array.dim(axis)) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when {@code view} fits {@code declared}, decided from its element type code and dims in
   * place, allocating nothing.
   *
   * @param declared the type the signature declares for the value
   * @param view a buffer view, e.g. a function result; its element type code and dims are read in
   *     place
   * @return true when the view's element type is accepted and every static dimension (and the rank,
   *     unless unranked) matches
   */
  public static boolean fits(AbiType.NdArray declared, BufferView view) {
    ElementType actual = view.elementType().orElse(null); // a shared Optional for common codes
    return actual != null && declared.element().accepts(actual) && fits(declared.shape(), view);
  }

  /**
   * True when {@code shape} is unranked, or has the view's rank and every static dim matches the
   * view's, read in place (allocating nothing).
   *
   * @param shape a declared shape
   * @param view a buffer view; its dims are read in place
   * @return whether the view's dims fit {@code shape}
   */
  public static boolean fits(Shape shape, BufferView view) {
    if (!shape.isRanked()) {
      return true;
    }
    if (shape.rank() != view.rank()) {
      return false;
    }
    for (int axis = 0; axis < view.rank(); axis++) {
      long dim = shape.dim(axis);
      if (dim != Shape.DYNAMIC && dim != view.dim(axis)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Copies a Java array into a new n-d array with {@code factory}, reporting a null or ragged array
   * on {@code side} under {@code path}; the caller then checks the copy against {@code declared}.
   *
   * @param <J> the Java array type, e.g. {@code float[][]}
   * @param <A> the n-d array class made
   * @param javaArray a Java array of a supported element type and any rank; may be null or ragged,
   *     which fails
   * @param factory makes the n-d array from the Java array, e.g. {@code FloatArray::of}; its {@code
   *     IllegalArgumentException} or {@code NullPointerException} becomes the failure
   * @param declared the type the signature declares for the value, named in a message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return the new n-d array, which owns its memory
   * @throws IreeValueException when the array is null, ragged or holds a null row
   */
  public static <J, A extends NdArray> A copy(
      J javaArray,
      Function<? super J, ? extends A> factory,
      AbiType.NdArray declared,
      Side side,
      String path) {
    notNull(javaArray, declared, side, path);
    try {
      return factory.apply(javaArray);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw IreeValueException.of(side, path, e.getMessage());
    }
  }

  /**
   * {@code element} as a buffer view, after checking its element type and shape against {@code
   * declared}; nothing is copied.
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty slot
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return the checked buffer view, not copied
   * @throws IreeValueException when the element is no buffer view, or its element type or shape
   *     differs
   */
  public static BufferView bufferView(
      Object element, AbiType.NdArray declared, Side side, String path) {
    if (!(element instanceof BufferView view)) {
      throw IreeValueException.of(
          side, path, "expected " + declared + " (a buffer view) but got " + describe(element));
    }

    if (fits(declared, view)) { // checked in place: no Optional, no copy of the shape
      return view;
    }
    ElementType actual =
        view.elementType()
            .orElseThrow(
                () ->
                    IreeValueException.of(
                        side,
                        path,
                        "expected "
                            + declared
                            + " but the buffer view has an unknown HAL element type 0x"
                            + Integer.toHexString(view.elementTypeCode())));
    String problem = arrayProblem(declared, actual, view.shape());
    if (problem != null) {
      throw IreeValueException.of(side, path, problem);
    }
    return view;
  }

  /**
   * Why an array of {@code element} and {@code shape} does not fit {@code declared}, or null when
   * it does ({@link ElementType#accepts} for the element type; an unranked shape accepts anything).
   */
  private static String arrayProblem(AbiType.NdArray declared, ElementType element, long[] shape) {
    boolean typeOk = declared.element().accepts(element);
    boolean shapeOk = declared.shape().accepts(shape);
    if (typeOk && shapeOk) {
      return null;
    }
    return "expected "
        + declared
        + " but got "
        + new AbiType.NdArray(element, Shape.of(shape))
        + (typeOk ? "" : " (element type " + element + ", not " + declared.element() + ")")
        + (shapeOk ? "" : " (" + shapeDifference(declared.shape(), shape) + ")");
  }

  private static String shapeDifference(Shape declared, long[] shape) {
    if (declared.rank() != shape.length) {
      return "rank " + shape.length + ", not " + declared.rank();
    }
    for (int axis = 0; axis < shape.length; axis++) {
      if (!declared.isDynamic(axis) && declared.dim(axis) != shape[axis]) {
        return "dimension " + axis + " is " + shape[axis] + ", not " + declared.dim(axis);
      }
    }
    return "shape differs";
  }

  // ---------------------------------------------------------------------------------------------
  // Structures and lists

  /**
   * A new variant list for the {@code expectedSize} elements of a fixed-size structure, after
   * checking that {@code values} is not null and has that many.
   *
   * @param values the Java collection passed for the structure; may be null, which fails
   * @param declared the structure type the signature declares, named in a message; null when the
   *     caller's Java type already says it
   * @param expectedSize the number of elements the signature declares
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return a new, empty variant list with room for {@code expectedSize} elements
   * @throws IreeValueException {@code f: xy: expected 2 elements but got 1}
   */
  public static VmList sequence(
      Collection<?> values, AbiType declared, int expectedSize, Side side, String path) {
    notNull(values, declared, side, path);
    if (values.size() != expectedSize) {
      throw IreeValueException.of(
          side,
          path,
          "expected "
              + expectedSize
              + (expectedSize == 1 ? " element" : " elements")
              + (declared == null ? "" : " (" + declared + ")")
              + " but got "
              + values.size());
    }
    return VmList.variant(expectedSize);
  }

  /**
   * Why the keys of {@code map} are not exactly {@code keys}, or null when they are: the first
   * missing key, else the keys it has that {@code keys} lacks (non-string keys included).
   *
   * @param map the Java map passed for an {@code sdict}
   * @param keys the keys the {@code sdict} declares, in descriptor order
   * @return the problem in words for a message, or null when the keys match exactly
   */
  public static String keysProblem(Map<?, ?> map, List<String> keys) {
    for (String key : keys) {
      if (!map.containsKey(key)) {
        return "missing key '" + key + "'; expected keys " + keys;
      }
    }
    if (map.size() != keys.size()) {
      List<Object> extra = new ArrayList<>();
      for (Object k : map.keySet()) {
        if (!(k instanceof String) || !keys.contains(k)) {
          extra.add(k);
        }
      }
      return "unexpected keys " + extra + "; expected exactly " + keys;
    }
    return null;
  }

  /**
   * {@code element} as a nested list, which must have {@code expectedSize} elements ({@code -1}:
   * any number).
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty slot
   * @param declared the type the signature declares for the value, named in a message; null when
   *     the caller's Java type already says it
   * @param expectedSize the number of elements the signature declares, or -1 for any
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}
   * @return the nested list, not copied
   * @throws IreeValueException when the element is no list or has another size
   */
  public static VmList list(
      Object element, AbiType declared, int expectedSize, Side side, String path) {
    if (element instanceof VmList vmList && (expectedSize < 0 || vmList.size() == expectedSize)) {
      return vmList; // the declared type is formatted only for a message
    }
    String what = declared == null ? "" : " (" + declared + ")";
    if (!(element instanceof VmList nested)) {
      throw IreeValueException.of(
          side, path, "expected a list" + what + " but got " + describe(element));
    }

    throw IreeValueException.of(
        side,
        path,
        "expected "
            + expectedSize
            + (expectedSize == 1 ? " element" : " elements")
            + what
            + " but the list has "
            + nested.size());
  }

  /**
   * {@code failure}, raised for an element of the list at {@code listPath}, with the element's
   * index in its path: {@code batch: rows[*]: ...} becomes {@code batch: rows[2]: ...}. Code that
   * walks a list names every element by one path ending in {@code [*]} and catches a failure inside
   * the loop to call this, so that the indexed path is built only when a check fails. Nested lists
   * are indexed from the inside out, each loop replacing the {@code [*]} right after its own list's
   * path. A failure whose path does not have {@code [*]} there is returned unchanged.
   *
   * @param failure the exception a check raised for the element
   * @param listPath the path of the list, e.g. {@code batch: rows}
   * @param index the index of the element that failed
   * @return a copy of {@code failure} whose path names the index, or {@code failure} itself
   */
  public static IreeValueException atIndex(IreeValueException failure, String listPath, int index) {
    String path = failure.path();
    if (path == null
        || listPath == null
        || !path.startsWith(listPath)
        || !path.startsWith(ANY_INDEX, listPath.length())) {
      return failure;
    }
    return failure.withPath(
        listPath + "[" + index + "]" + path.substring(listPath.length() + ANY_INDEX.length()));
  }

  // ---------------------------------------------------------------------------------------------
  // Results and VM elements

  /**
   * {@code results} after checking it holds {@code expected} values, the number of raw results the
   * signature declares (after inlining). When it does not, the list is closed (releasing any refs
   * it holds) before the exception is thrown.
   *
   * @param results the result list the backend returned; may be null, which fails
   * @param expected the number of raw results the signature declares (after inlining)
   * @param function the function's name for the message
   * @return {@code results}, unchanged, when the count matches
   * @throws IreeValueException (a result) when the count differs
   */
  public static VmList results(VmList results, int expected, String function) {
    if (results == null) {
      throw IreeValueException.of(Side.RESULT, function, "the backend returned no result list");
    }
    int actual = results.size();
    if (actual != expected) {
      results.close(); // the caller never sees the list: release what it holds
      throw IreeValueException.of(
          Side.RESULT,
          function,
          "expected "
              + expected
              + (expected == 1 ? " result" : " results")
              + " but the function returned "
              + actual);
    }
    return results;
  }

  /**
   * {@code failure}, after closing {@code results} (releasing the refs it holds, such as buffer
   * views and fences from a native backend): a result list whose decoding failed is never seen by
   * the caller, so whoever decodes it closes it on every failure path. A failure to close is added
   * to {@code failure} as suppressed.
   *
   * @param results the result list a backend returned, or null
   * @param failure the exception decoding raised
   * @return {@code failure}, for the caller to throw
   */
  public static RuntimeException closeOnFailure(VmList results, RuntimeException failure) {
    if (results != null) {
      try {
        results.close();
      } catch (RuntimeException e) {
        if (e != failure) {
          failure.addSuppressed(e);
        }
      }
    }
    return failure;
  }

  /**
   * {@code element} as a ref of any type, or null when the slot is empty.
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty slot
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict: result}
   * @return the ref, or null when the slot is empty
   * @throws IreeValueException when the element is a value, not a ref
   */
  public static VmRef ref(Object element, Side side, String path) {
    if (element != null && !(element instanceof VmRef)) {
      throw IreeValueException.of(side, path, "expected a ref but got " + describe(element));
    }
    return (VmRef) element;
  }

  /**
   * {@code element} as a ref of class {@code type}, or null when the slot is empty.
   *
   * @param <R> the ref class
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty slot
   * @param type the ref class the slot must hold, e.g. {@code BufferView.class}
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict: result}
   * @return the ref cast to {@code type}, or null when the slot is empty
   * @throws IreeValueException when the element is a value, or a ref of another class
   */
  public static <R extends VmRef> R ref(Object element, Class<R> type, Side side, String path) {
    VmRef ref = ref(element, side, path);
    if (ref != null && !type.isInstance(ref)) {
      throw IreeValueException.of(
          side, path, "expected a " + type.getSimpleName() + " but got " + describe(ref));
    }
    return type.cast(ref);
  }

  /**
   * The integer value {@code element} holds, which must fit the declared integer type ({@code i1}:
   * 0 or 1). The VM widens {@code i8} and {@code i16} results to {@code i32}, so any integer value
   * type is accepted as long as the number fits.
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty slot
   * @param declared the integer type the signature declares; the value must fit it
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict: result}
   * @return the integer, sign-extended to a {@code long}
   * @throws IreeValueException when the element is no integer value or does not fit
   */
  public static long integer(Object element, ElementType declared, Side side, String path) {
    if (!(element instanceof VmValue vmValue) || !vmValue.isInteger()) {
      throw IreeValueException.of(
          side, path, "expected " + article(declared) + " value but got " + describe(element));
    }
    long value = vmValue.asI64();
    if (!fits(value, declared)) {
      throw IreeValueException.of(
          side,
          path,
          "expected " + article(declared) + " value but got " + value + ", which does not fit");
    }
    return value;
  }

  /**
   * True when {@code value} fits {@code declared}: {@code i1} is 0 or 1; a signless or signed
   * integer of {@code n} bits is in {@code [-2^(n-1), 2^(n-1))}; an unsigned one may be given in
   * its unsigned range or as the same bits read signed ({@code ui8} 200 or -56), since Java's
   * integer types are signed.
   *
   * @param value the integer, as a Java {@code long}
   * @param declared the integer type the value must fit
   * @return true when {@code value} is in the type's range
   */
  public static boolean fits(long value, ElementType declared) {
    int bits = declared.bits();
    if (declared.kind() == ElementType.Kind.BOOLEAN) {
      return value == 0 || value == 1;
    }
    if (bits >= 64) {
      return true;
    }
    long min = -(1L << (bits - 1));
    long max =
        declared.kind() == ElementType.Kind.UNSIGNED_INTEGER
            ? (1L << bits) - 1
            : (1L << (bits - 1)) - 1;
    return value >= min && value <= max;
  }

  /**
   * The floating-point value {@code element} holds ({@code f32} or {@code f64}).
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty slot
   * @param declared the floating-point type the signature declares, named in a message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict: result}
   * @return the number, widened to a {@code double}
   * @throws IreeValueException when the element is no floating-point value
   */
  public static double floating(Object element, ElementType declared, Side side, String path) {
    if (!(element instanceof VmValue vmValue) || !vmValue.isFloat()) {
      throw IreeValueException.of(
          side, path, "expected " + article(declared) + " value but got " + describe(element));
    }
    return vmValue.asF64();
  }

  private static String article(ElementType type) {
    String name = type.toString(); // i32, f32, si8: "an"; ui8, bf16, complex: "a"
    return ("ubc".indexOf(name.charAt(0)) >= 0 ? "a " : "an ") + name;
  }

  /** A short description of a VM list element for messages: {@code an empty slot}, ... */
  private static String describe(Object element) {
    if (element == null) {
      return "an empty slot";
    }
    if (element instanceof VmValue) {
      return "the value " + element;
    }
    if (element instanceof BufferView view) {
      return "a buffer view "
          + view.elementType()
              .map(e -> new AbiType.NdArray(e, Shape.of(view.shape())).toString())
              .orElse("of HAL element type 0x" + Integer.toHexString(view.elementTypeCode()));
    }
    if (element instanceof VmList vmList) {
      return "a list of " + vmList.size();
    }
    if (element instanceof VmRef vmRef) {
      return "a ref of type " + vmRef.refTypeName();
    }
    return JavaMapping.aTypeName(element);
  }
}
