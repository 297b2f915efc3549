package dev.ireestubs.internal;

import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.JavaMapping;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.ndarray.JavaArrays;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The leaf operations of marshalling between Java values and the IREE VM's native calling
 * convention: the one place where arguments are checked on their way in and results on their way
 * out. Generated stubs call these methods directly (with the descriptor and path as constants), and
 * {@link dev.ireestubs.invoke.AbiValues} calls them while walking a signature at run time, so a typed stub, the dynamic
 * invoker and a host module report the same problem with the same words.
 *
 * <p>Every {@code path} names the function and the value, as {@code predict: features.image} or
 * {@code predict: result.logits}; messages say what the signature declares and what was given.
 * (Generated stubs name an argument by its Java parameter and an element of a list by {@code [*]};
 * the dynamic invoker by {@code arg0} and the index.)
 * Problems throw {@link IreeValueException}, whose {@link IreeValueException#side() side} says
 * whether an argument or a result is wrong.
 *
 * <p>Stricter than IREE's reference runtime, which checks neither: an array's element type and
 * shape (rank and every static dimension) are checked against the descriptor in both directions.
 */
public final class Marshal {

  private Marshal() {}

  /**
   * The exception for a value at {@code path} that does not fit: built only on failure.
   *
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @param problem what is wrong with the value, e.g. {@code is null; expected f32[4]}
   * @return the exception, to be thrown by the caller; a factory so that a check builds it only
   *     on failure
   */
  public static IreeValueException fail(Side side, String path, String problem) {
    return IreeValueException.of(side, path, problem);
  }

  // ---------------------------------------------------------------------------------------------
  // Arguments: Java -> VM

  /**
   * {@code value}, which must not be null.
   *
   * @param <T> the value's static type, kept so that a call can be used as an expression
   * @param value the value to check; may be null, which fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return {@code value}, not null
   * @throws IreeValueException (an argument) {@code predict: features: is null; expected sdict[...]}
   */
  public static <T> T notNull(T value, AbiType declared, String path) {
    return notNull(value, declared, Side.ARGUMENT, path);
  }

  /**
   * {@code value}, which must not be null; a null is reported on {@code side}.
   *
   * @param <T> the value's static type, kept so that a call can be used as an expression
   * @param value the value to check; may be null, which fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return {@code value}, not null
   */
  public static <T> T notNull(T value, AbiType declared, Side side, String path) {
    if (value == null) {
      throw fail(side, path, "is null; expected " + declared);
    }
    return value;
  }

  /**
   * {@code value}, which must not be null; for generated stubs, where the Java type already says
   * what is expected.
   *
   * @param <T> the value's static type, kept so that a call can be used as an expression
   * @param value the value to check; may be null, which fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return {@code value}, not null
   * @throws IreeValueException (an argument) {@code predict: features: is null}
   */
  public static <T> T notNull(T value, String path) {
    if (value == null) {
      throw fail(Side.ARGUMENT, path, "is null");
    }
    return value;
  }

  /**
   * The buffer view of {@code array} (no copy) after checking it against {@code declared}.
   *
   * @param array the n-d array to pass; may be null, which fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the array's buffer view, sharing its memory
   * @throws IreeValueException (an argument) when the array is null, or its element type or shape differs
   */
  public static BufferView array(NdArray array, AbiType.NdArray declared, String path) {
    return array(array, declared, Side.ARGUMENT, path);
  }

  /**
   * The buffer view of {@code array} (no copy) after checking it against {@code declared},
   * reporting a problem on {@code side}: the form {@link dev.ireestubs.invoke.AbiValues} uses for
   * both arguments and results.
   *
   * @param array the n-d array to pass; may be null, which fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the array's buffer view, sharing its memory
   */
  public static BufferView array(NdArray array, AbiType.NdArray declared, Side side, String path) {
    notNull(array, declared, side, path);
    if (!fits(declared, array)) { // checked without copying the shape; described on failure
      String problem = arrayProblem(declared, array.elementType(), array.shape());
      if (problem != null) {
        throw fail(side, path, problem);
      }
    }
    return array.asBufferView();
  }

  /** {@link #arrayProblem} is null, decided from the array's dims in place. */
  private static boolean fits(AbiType.NdArray declared, NdArray array) {
    if (!NdArray.isCompatible(declared.element(), array.elementType())) {
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
   * True when {@code view} fits {@code declared} ({@link #arrayProblem} would be null), decided
   * from its element type code and dims in place, allocating nothing.
   *
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param view a buffer view, e.g. a function result; its element type code and dims are read
   *     in place
   * @return true when the view's element type is compatible and every static dimension (and the
   *     rank, unless unranked) matches
   */
  public static boolean fits(AbiType.NdArray declared, BufferView view) {
    ElementType actual = view.elementType().orElse(null); // a shared Optional for common codes
    return actual != null
        && NdArray.isCompatible(declared.element(), actual)
        && fits(declared.shape(), view);
  }

  /**
   * True when {@code shape} is unranked, or has the view's rank and every static dim matches the
   * view's, read in place.
   */
  static boolean fits(Shape shape, BufferView view) {
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
   * Copies a Java array ({@code float[][]}, ...) into a new n-d array with {@code factory} (e.g.
   * {@code FloatArray::of}), reporting a null or ragged array under {@code path}.
   *
   * @param <J> the Java array type, e.g. {@code float[][]}
   * @param <A> the n-d array class made
   * @param javaArray a Java array of a supported element type and any rank; may be null or
   *     ragged, which fails
   * @param factory makes the n-d array from the Java array, e.g. {@code FloatArray::of}; its
   *     {@code IllegalArgumentException} or {@code NullPointerException} becomes the failure
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the new n-d array, which owns its memory
   * @throws IreeValueException (an argument) when the array is null, ragged or holds a null row
   */
  public static <J, A extends NdArray> A copy(
      J javaArray, Function<? super J, ? extends A> factory, AbiType.NdArray declared, String path) {
    return copy(javaArray, factory, declared, Side.ARGUMENT, path);
  }

  /**
   * Copies a Java array into a new n-d array with {@code factory}, reporting a null or ragged array
   * on {@code side} under {@code path}.
   *
   * @param <J> the Java array type, e.g. {@code float[][]}
   * @param <A> the n-d array class made
   * @param javaArray a Java array of a supported element type and any rank; may be null or
   *     ragged, which fails
   * @param factory makes the n-d array from the Java array, e.g. {@code FloatArray::of}; its
   *     {@code IllegalArgumentException} or {@code NullPointerException} becomes the failure
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the new n-d array, which owns its memory
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
      throw fail(side, path, e.getMessage());
    }
  }

  /**
   * Copies a Java array ({@code float[][]}, ...) into a new n-d array of the class its component
   * type names ({@code FloatArray} for {@code float}), reporting a null or ragged array under {@code
   * path}; the caller then checks it against {@code declared}.
   *
   * @param javaArray a Java array of a supported element type and any rank; may be null or
   *     ragged, which fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the new n-d array, which owns its memory
   * @throws IreeValueException (an argument) when the array is null, ragged or holds a null row
   */
  public static NdArray copy(Object javaArray, AbiType.NdArray declared, String path) {
    return copy(javaArray, JavaArrays::copyOf, declared, Side.ARGUMENT, path);
  }

  /**
   * A new variant list for the {@code expectedSize} elements of a fixed-size structure, after
   * checking that {@code values} has that many.
   *
   * @param values the Java collection passed for the structure; may be null, which fails
   * @param declared the structure type the signature declares, named in a message
   * @param expectedSize the number of elements the signature declares
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return a new, empty variant list with room for {@code expectedSize} elements
   * @throws IreeValueException (an argument) when {@code values} is null or has another size
   */
  public static VmList sequence(Collection<?> values, AbiType declared, int expectedSize, String path) {
    return sequence(values, declared, expectedSize, Side.ARGUMENT, path);
  }

  /**
   * A new variant list for the {@code expectedSize} elements of a fixed-size structure, after
   * checking that {@code values} is not null and has that many; a problem is reported on {@code
   * side}.
   *
   * @param values the Java collection passed for the structure; may be null, which fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param expectedSize the number of elements the signature declares
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return a new, empty variant list with room for {@code expectedSize} elements
   */
  public static VmList sequence(
      Collection<?> values, AbiType declared, int expectedSize, Side side, String path) {
    notNull(values, declared, side, path);
    return sequence(values, " (" + declared + ")", expectedSize, side, path);
  }

  /**
   * {@code values}, after checking that it is not null and has {@code expectedSize} elements.
   *
   * @param <C> the collection's static type
   * @param values the Java collection passed for the structure; may be null, which fails
   * @param expectedSize the number of elements the signature declares
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return {@code values}, unchanged
   * @throws IreeValueException (an argument) {@code f: xy: expected 2 elements but got 1}
   */
  public static <C extends Collection<?>> C requireSize(C values, int expectedSize, String path) {
    notNull(values, path);
    sequence(values, "", expectedSize, Side.ARGUMENT, path);
    return values;
  }

  /**
   * A new variant list for the {@code expectedSize} elements of a fixed-size {@code slist} or
   * {@code stuple} passed as a Java {@code List}, after checking its size.
   *
   * @param values the Java collection passed for the structure; may be null, which fails
   * @param expectedSize the number of elements the signature declares
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return a new, empty variant list with room for {@code expectedSize} elements
   * @throws IreeValueException (an argument) when {@code values} is null or has another size
   */
  public static VmList sequence(Collection<?> values, int expectedSize, String path) {
    notNull(values, path);
    return sequence(values, "", expectedSize, Side.ARGUMENT, path);
  }

  private static VmList sequence(
      Collection<?> values, String declared, int expectedSize, Side side, String path) {
    if (values.size() != expectedSize) {
      throw fail(
          side,
          path,
          "expected "
              + expectedSize
              + (expectedSize == 1 ? " element" : " elements")
              + declared
              + " but got "
              + values.size());
    }
    return VmList.variant(expectedSize);
  }

  /**
   * {@code map}, after checking that it is not null and that its keys are exactly {@code keys}, the
   * keys of an {@code sdict} (in descriptor order); for a {@code Map<String, V>} passed for an
   * {@code sdict}, whose values the stub then pushes in descriptor order.
   *
   * @param <M> the map's static type
   * @param map the Java map passed for an {@code sdict}
   * @param keys the keys the {@code sdict} declares, in descriptor order
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return {@code map}, unchanged
   * @throws IreeValueException (an argument) {@code f: d: missing key 'b'; expected keys [a, b]} or {@code f:
   *     d: unexpected keys [c]; expected exactly [a, b]}
   */
  public static <M extends Map<String, ?>> M requireKeys(M map, List<String> keys, String path) {
    notNull(map, path);
    String problem = keysProblem(map, keys);
    if (problem != null) {
      throw fail(Side.ARGUMENT, path, problem);
    }
    return map;
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
   * The i32 VM value of a {@code i1} scalar: 1 for true, 0 for false.
   *
   * @param value the Java boolean
   * @return the {@code i32} VM value 1 or 0
   */
  public static VmValue i1(boolean value) {
    return VmValue.i32(value ? 1 : 0);
  }

  // ---------------------------------------------------------------------------------------------
  // Results: VM -> Java

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
      throw fail(Side.RESULT, function, "the backend returned no result list");
    }
    int actual = results.size();
    if (actual != expected) {
      results.close(); // the caller never sees the list: release what it holds
      throw fail(
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
   * The {@code i1} scalar at {@code index}: an integer value 0 or 1.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return true for 1, false for 0
   */
  public static boolean i1(VmList list, int index, String path) {
    return integer(element(list, index, path), ElementType.I1, Side.RESULT, path) == 1;
  }

  /**
   * The {@code i8} scalar at {@code index}, which must fit in 8 bits.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the value as a Java {@code byte}
   */
  public static byte i8(VmList list, int index, String path) {
    return (byte) integer(element(list, index, path), ElementType.I8, Side.RESULT, path);
  }

  /**
   * The {@code i16} scalar at {@code index}, which must fit in 16 bits.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the value as a Java {@code short}
   */
  public static short i16(VmList list, int index, String path) {
    return (short) integer(element(list, index, path), ElementType.I16, Side.RESULT, path);
  }

  /**
   * The {@code i32} scalar at {@code index}, which must fit in 32 bits.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the value as a Java {@code int}
   */
  public static int i32(VmList list, int index, String path) {
    return (int) integer(element(list, index, path), ElementType.I32, Side.RESULT, path);
  }

  /**
   * The {@code i64} scalar at {@code index}.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the value as a Java {@code long}
   */
  public static long i64(VmList list, int index, String path) {
    return integer(element(list, index, path), ElementType.I64, Side.RESULT, path);
  }

  /**
   * The {@code f32} scalar at {@code index}.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the value as a Java {@code float}
   */
  public static float f32(VmList list, int index, String path) {
    return (float) floating(element(list, index, path), ElementType.F32, Side.RESULT, path);
  }

  /**
   * The {@code f64} scalar at {@code index}.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the value as a Java {@code double}
   */
  public static double f64(VmList list, int index, String path) {
    return floating(element(list, index, path), ElementType.F64, Side.RESULT, path);
  }

  /**
   * The buffer view at {@code index}, after checking its element type and shape against {@code
   * declared}. Wrap it with the array class the descriptor names ({@code
   * FloatArray.fromBufferView}); nothing is copied.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the checked buffer view, not copied
   */
  public static BufferView bufferView(VmList list, int index, AbiType.NdArray declared, String path) {
    return bufferView(element(list, index, path), declared, Side.RESULT, path);
  }

  /**
   * {@code element} as a buffer view, after checking its element type and shape against {@code
   * declared}; nothing is copied.
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty
   *     slot
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the checked buffer view, not copied
   */
  public static BufferView bufferView(Object element, AbiType.NdArray declared, Side side, String path) {
    if (!(element instanceof BufferView)) {
      throw fail(
          side,
          path, "expected " + declared + " (a buffer view) but got " + describe(element));
    }
    BufferView view = (BufferView) element;
    if (fits(declared, view)) { // checked in place: no Optional, no copy of the shape
      return view;
    }
    ElementType actual =
        view.elementType()
            .orElseThrow(
                () ->
                    fail(
                        side,
                        path,
                        "expected "
                            + declared
                            + " but the buffer view has an unknown HAL element type 0x"
                            + Integer.toHexString(view.elementTypeCode())));
    String problem = arrayProblem(declared, actual, view.shape());
    if (problem != null) {
      throw fail(side, path, problem);
    }
    return view;
  }

  /**
   * An n-d array of the class {@code arrayType} over the buffer view at {@code index}, checked
   * against {@code declared} (no copy).
   *
   * @param <A> the n-d array class made
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param fromBufferView makes the n-d array from the checked view, e.g. {@code
   *     FloatArray::fromBufferView}; its {@code IllegalArgumentException} becomes the failure
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the n-d array over the view's memory
   */
  public static <A extends NdArray> A array(
      VmList list,
      int index,
      AbiType.NdArray declared,
      Function<BufferView, ? extends A> fromBufferView,
      String path) {
    BufferView view = bufferView(list, index, declared, path);
    try {
      return fromBufferView.apply(view);
    } catch (IllegalArgumentException e) {
      throw fail(Side.RESULT, path, e.getMessage());
    }
  }

  /**
   * An n-d array of class {@code arrayClass} ({@code FloatArray.class}, or {@code NdArray.class}
   * for the class the element type names) over the buffer view at {@code index}, checked against
   * {@code declared} (no copy): what generated stubs call for an array result.
   *
   * @param <A> the n-d array class made
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param arrayClass the array class to make, e.g. {@code FloatArray.class}, or {@code
   *     NdArray.class} for the class the element type names
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the n-d array over the view's memory
   */
  public static <A extends NdArray> A array(
      VmList list, int index, AbiType.NdArray declared, Class<A> arrayClass, String path) {
    BufferView view = bufferView(list, index, declared, path);
    try {
      return NdArray.fromBufferView(view, arrayClass);
    } catch (IllegalArgumentException e) {
      throw fail(Side.RESULT, path, e.getMessage());
    }
  }

  /**
   * The nested list at {@code index}, which must have {@code expectedSize} elements ({@code -1}:
   * any number).
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param expectedSize the number of elements the signature declares
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the nested list, not copied
   */
  public static VmList list(VmList list, int index, AbiType declared, int expectedSize, String path) {
    return list(element(list, index, path), declared, expectedSize, Side.RESULT, path);
  }

  /**
   * The nested list at {@code index}, which must have {@code expectedSize} elements ({@code -1}:
   * any number); for generated stubs, whose Java type says what the list holds.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param expectedSize the number of elements the signature declares
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the nested list, not copied
   */
  public static VmList list(VmList list, int index, int expectedSize, String path) {
    return list(element(list, index, path), null, expectedSize, Side.RESULT, path);
  }

  /**
   * {@code element} as a nested list, which must have {@code expectedSize} elements ({@code -1}:
   * any number); {@code declared}, when not null, is named in a message.
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty
   *     slot
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param expectedSize the number of elements the signature declares
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the nested list, not copied
   */
  public static VmList list(Object element, AbiType declared, int expectedSize, Side side, String path) {
    if (element instanceof VmList
        && (expectedSize < 0 || ((VmList) element).size() == expectedSize)) {
      return (VmList) element; // the declared type is formatted only for a message
    }
    String what = declared == null ? "" : " (" + declared + ")";
    if (!(element instanceof VmList)) {
      throw fail(side, path, "expected a list" + what + " but got " + describe(element));
    }
    VmList nested = (VmList) element;
    if (expectedSize >= 0 && nested.size() != expectedSize) {
      throw fail(
          side,
          path,
          "expected "
              + expectedSize
              + (expectedSize == 1 ? " element" : " elements")
              + what
              + " but the list has "
              + nested.size());
    }
    return nested;
  }

  /**
   * The ref at {@code index}, of any type, or null when the slot is empty.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the ref, or null when the slot is empty
   */
  public static VmRef ref(VmList list, int index, String path) {
    return ref(element(list, index, path), Side.RESULT, path);
  }

  /**
   * {@code element} as a ref of any type, or null when the slot is empty.
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty
   *     slot
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the ref, or null when the slot is empty
   */
  public static VmRef ref(Object element, Side side, String path) {
    if (element != null && !(element instanceof VmRef)) {
      throw fail(side, path, "expected a ref but got " + describe(element));
    }
    return (VmRef) element;
  }

  /**
   * The ref at {@code index}, which must be a {@code type} (or an empty slot: null).
   *
   * @param <R> the ref class
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param type the ref class the slot must hold, e.g. {@code BufferView.class}
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the ref cast to {@code type}, or null when the slot is empty
   */
  public static <R extends VmRef> R ref(VmList list, int index, Class<R> type, String path) {
    VmRef ref = ref(list, index, path);
    if (ref != null && !type.isInstance(ref)) {
      throw fail(
          Side.RESULT,
          path, "expected a " + type.getSimpleName() + " but got " + describe(ref));
    }
    return type.cast(ref);
  }

  // ---------------------------------------------------------------------------------------------
  // Failure paths: called only once a check has failed, so that success allocates nothing

  /**
   * {@code failure}, raised for an element of the list at {@code listPath}, with the element's
   * index in its path: {@code batch: rows[*]: ...} becomes {@code batch: rows[2]: ...}. Generated
   * stubs (and {@link dev.ireestubs.invoke.AbiValues}) name every element of a list by one constant path ending in
   * {@code [*]} and catch a failure inside the loop over the list to call this, so that the indexed
   * path is built only when a check fails. Nested lists are indexed from the inside out, each loop
   * replacing the {@code [*]} right after its own list's path. A failure whose path does not have
   * {@code [*]} there is returned unchanged.
   *
   * @param failure the exception a check raised for the element, whose path ends in {@code [*]}
   *     after {@code listPath}
   * @param listPath the path of the list, e.g. {@code batch: rows}
   * @param index the index of the element that failed
   * @return a copy of {@code failure} whose path names the index, or {@code failure} itself
   *     when its path does not end in {@code [*]} after {@code listPath}
   */
  public static IreeValueException atIndex(IreeValueException failure, String listPath, int index) {
    String path = failure.path();
    if (path == null
        || !path.startsWith(listPath)
        || !path.startsWith(ANY_INDEX, listPath.length())) {
      return failure;
    }
    return failure.withPath(
        listPath + "[" + index + "]" + path.substring(listPath.length() + ANY_INDEX.length()));
  }

  /**
   * {@code failure}, raised by code that several functions share and that names each value by its
   * path inside the function ({@code features.image}), with the function's name put in front of its
   * path ({@code predict: features.image}): the message is then the one code of that function alone
   * would give. Generated stubs catch a failure of such code to call this, so that the full path is
   * built only when a check fails. Any other exception is returned unchanged.
   *
   * @param failure the exception the shared code raised
   * @param function the name of the function the failing call was for, e.g. {@code predict}
   * @return a copy of {@code failure} whose path starts with {@code function}, or {@code failure}
   *     itself when it is not an {@link IreeValueException}
   */
  public static RuntimeException inFunction(RuntimeException failure, String function) {
    if (failure instanceof IreeValueException) {
      IreeValueException value = (IreeValueException) failure;
      return value.withPath(function + ": " + value.path());
    }
    return failure;
  }

  /**
   * {@link #inFunction(RuntimeException, String)} for shared code whose paths start with the names
   * of its own parameters, which the calling function names otherwise ({@code in0.image} in the
   * shared code, {@code in5.image} in function {@code f5}): the first parameter name of the path
   * found among {@code parameters} is replaced by the function's, then the function's name put in
   * front ({@code f5: in5.image}). Called only when a check fails, so a call passing its names
   * builds no text when it succeeds.
   *
   * @param failure the exception the shared code raised
   * @param function the name of the function the failing call was for
   * @param parameters pairs: a parameter's name in the shared code, then in the function
   * @return a copy of {@code failure} with the function's own path, or {@code failure} itself when
   *     it is not an {@link IreeValueException}
   */
  public static RuntimeException inFunction(
      RuntimeException failure, String function, String... parameters) {
    if (failure instanceof IreeValueException) {
      IreeValueException value = (IreeValueException) failure;
      return value.withPath(function + ": " + renamed(value.path(), parameters));
    }
    return failure;
  }

  /** {@code path} with its leading parameter name renamed as {@code parameters} pair them. */
  private static String renamed(String path, String[] parameters) {
    if (path == null) {
      return null;
    }
    for (int i = 0; i + 1 < parameters.length; i += 2) {
      String shared = parameters[i];
      if (path.startsWith(shared)
          && (path.length() == shared.length()
              || path.charAt(shared.length()) == '.'
              || path.charAt(shared.length()) == '[')) {
        return parameters[i + 1] + path.substring(shared.length());
      }
    }
    return path;
  }

  /** What a path has for the index of a list element until a failure names it. */
  private static final String ANY_INDEX = "[*]";

  /**
   * {@code failure}, after closing {@code results} (releasing the refs it holds, such as buffer
   * views and fences from a native backend): a result list whose decoding failed is never seen by
   * the caller, so whoever decodes it closes it on every failure path. A failure to close is added
   * to {@code failure} as suppressed.
   *
   * @param results the result list a backend returned, or null
   * @param failure the exception a check raised for the element, whose path ends in {@code [*]}
   *     after {@code listPath}
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

  // ---------------------------------------------------------------------------------------------
  // Shared checks

  /**
   * Why an array of {@code element} and {@code shape} does not fit {@code declared}, or null when
   * it does. Integers of one width match when either side is signless (the {@code iree.abi} JSON
   * drops signedness); an unknown declared element type or an unranked shape accepts anything.
   *
   * @param declared the type the signature declares for the value; checked against, and named
   *     in a message
   * @param element the array's element type
   * @param shape the array's dimensions, one per axis
   * @return the problem in words for a message, or null when the array fits
   */
  private static String arrayProblem(AbiType.NdArray declared, ElementType element, long[] shape) {
    boolean typeOk = NdArray.isCompatible(declared.element(), element);
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

  /**
   * The element at {@code index} of {@code list}, which must be in range.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the element: a {@code VmValue}, a ref, or null for an empty slot
   */
  private static Object element(VmList list, int index, String path) {
    Objects.requireNonNull(list, "list");
    if (index < 0 || index >= list.size()) {
      throw fail(
          Side.RESULT,
          path, "expected a value at index " + index + " but the list has " + list.size());
    }
    return list.get(index);
  }

  /**
   * The integer value {@code element} holds, which must fit the declared integer type ({@code i1}:
   * 0 or 1). The VM widens {@code i8} and {@code i16} results to {@code i32}, so any integer value
   * type is accepted as long as the number fits.
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty
   *     slot
   * @param declared the integer type the signature declares; the value must fit it
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the integer, sign-extended to a {@code long}
   */
  public static long integer(Object element, ElementType declared, Side side, String path) {
    if (!(element instanceof VmValue) || !((VmValue) element).isInteger()) {
      throw fail(
          side,
          path, "expected " + article(declared) + " value but got " + describe(element));
    }
    long value = ((VmValue) element).asI64();
    if (!fits(value, declared)) {
      throw fail(
          side,
          path, "expected " + article(declared) + " value but got " + value + ", which does not fit");
    }
    return value;
  }

  /**
   * True when {@code value} fits {@code declared}: {@code i1} is 0 or 1; a signless or signed
   * integer of {@code n} bits is in {@code [-2^(n-1), 2^(n-1))}; an unsigned one may be given in its
   * unsigned range or as the same bits read signed ({@code ui8} 200 or -56), since Java's integer
   * types are signed.
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
        declared.kind() == ElementType.Kind.UNSIGNED_INTEGER ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
    return value >= min && value <= max;
  }

  private static String article(ElementType type) {
    String name = type.toString(); // i32, f32, si8: "an"; ui8, bf16, complex: "a"
    return ("ubc".indexOf(name.charAt(0)) >= 0 ? "a " : "an ") + name;
  }

  /**
   * The floating-point value {@code element} holds ({@code f32} or {@code f64}).
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty
   *     slot
   * @param declared the floating-point type the signature declares, named in a message
   * @param side whether the value is an argument or a result, which the exception reports
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the number, widened to a {@code double}
   */
  public static double floating(Object element, ElementType declared, Side side, String path) {
    if (!(element instanceof VmValue) || !((VmValue) element).isFloat()) {
      throw fail(
          side,
          path, "expected " + article(declared) + " value but got " + describe(element));
    }
    return ((VmValue) element).asF64();
  }

  /**
   * A short description of a VM list element for messages.
   *
   * @param element a value read from a VM list: a {@code VmValue}, a ref, or null for an empty
   *     slot
   * @return a phrase such as {@code an empty slot}, {@code the value 3} or {@code a list of 2}
   */
  private static String describe(Object element) {
    if (element == null) {
      return "an empty slot";
    }
    if (element instanceof VmValue) {
      return "the value " + element;
    }
    if (element instanceof BufferView) {
      BufferView view = (BufferView) element;
      return "a buffer view "
          + view.elementType()
              .map(e -> new AbiType.NdArray(e, Shape.of(view.shape())).toString())
              .orElse("of HAL element type 0x" + Integer.toHexString(view.elementTypeCode()));
    }
    if (element instanceof VmList) {
      return "a list of " + ((VmList) element).size();
    }
    if (element instanceof VmRef) {
      return "a ref of type " + ((VmRef) element).refTypeName();
    }
    return JavaMapping.aTypeName(element);
  }
}
