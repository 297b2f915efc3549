package dev.ireestubs.internal;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.IreeValueException.Side;
import dev.ireestubs.invoke.ValueChecks;
import dev.ireestubs.ndarray.JavaArrays;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmRef;
import dev.ireestubs.vm.VmValue;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The leaf operations of marshalling as generated stubs call them, with the descriptor and path as
 * constants: arguments on their way in, results read from a list by index on their way out, and the
 * renaming of a failure's path for code that several functions share. The checks themselves are
 * {@link ValueChecks}', which dynamic calls and host modules use too, so a typed stub, the dynamic
 * invoker and a host module report the same problem with the same words.
 *
 * <p>Every {@code path} names the function and the value, as {@code predict: features.image} or
 * {@code predict: result.logits}; messages say what the signature declares and what was given.
 * (Generated stubs name an argument by its Java parameter and an element of a list by {@code [*]};
 * the dynamic invoker by {@code arg0} and the index.) Problems throw {@link IreeValueException},
 * whose {@link IreeValueException#side() side} says whether an argument or a result is wrong.
 */
public final class Marshal {

  private Marshal() {}

  // ---------------------------------------------------------------------------------------------
  // Arguments: Java -> VM

  /**
   * {@code value}, which must not be null.
   *
   * @param <T> the value's static type, kept so that a call can be used as an expression
   * @param value the value to check; may be null, which fails
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return {@code value}, not null
   * @throws IreeValueException (an argument) {@code predict: features: is null; expected
   *     sdict[...]}
   */
  public static <T> T notNull(T value, AbiType declared, String path) {
    return ValueChecks.notNull(value, declared, Side.ARGUMENT, path);
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
    return ValueChecks.notNull(value, null, Side.ARGUMENT, path);
  }

  /**
   * The buffer view of {@code array} (no copy) after checking it against {@code declared}.
   *
   * @param array the n-d array to pass; may be null, which fails
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the array's buffer view, sharing its memory
   * @throws IreeValueException (an argument) when the array is null, or its element type or shape
   *     differs
   */
  public static BufferView array(NdArray array, AbiType.NdArray declared, String path) {
    return ValueChecks.array(array, declared, Side.ARGUMENT, path);
  }

  /**
   * Copies a Java array ({@code float[][]}, ...) into a new n-d array with {@code factory} (e.g.
   * {@code FloatArray::of}), reporting a null or ragged array under {@code path}.
   *
   * @param <J> the Java array type, e.g. {@code float[][]}
   * @param <A> the n-d array class made
   * @param javaArray a Java array of a supported element type and any rank; may be null or ragged,
   *     which fails
   * @param factory makes the n-d array from the Java array, e.g. {@code FloatArray::of}; its {@code
   *     IllegalArgumentException} or {@code NullPointerException} becomes the failure
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the new n-d array, which owns its memory
   * @throws IreeValueException (an argument) when the array is null, ragged or holds a null row
   */
  public static <J, A extends NdArray> A copy(
      J javaArray,
      Function<? super J, ? extends A> factory,
      AbiType.NdArray declared,
      String path) {
    return ValueChecks.copy(javaArray, factory, declared, Side.ARGUMENT, path);
  }

  /**
   * Copies a Java array ({@code float[][]}, ...) into a new n-d array of the class its component
   * type names ({@code FloatArray} for {@code float}), reporting a null or ragged array under
   * {@code path}; the caller then checks it against {@code declared}.
   *
   * @param javaArray a Java array of a supported element type and any rank; may be null or ragged,
   *     which fails
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the new n-d array, which owns its memory
   * @throws IreeValueException (an argument) when the array is null, ragged or holds a null row
   */
  public static NdArray copy(Object javaArray, AbiType.NdArray declared, String path) {
    return ValueChecks.copy(javaArray, JavaArrays::copyOf, declared, Side.ARGUMENT, path);
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
  public static VmList sequence(
      Collection<?> values, AbiType declared, int expectedSize, String path) {
    return ValueChecks.sequence(values, declared, expectedSize, Side.ARGUMENT, path);
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
    ValueChecks.sequence(values, null, expectedSize, Side.ARGUMENT, path);
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
    return ValueChecks.sequence(values, null, expectedSize, Side.ARGUMENT, path);
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
   * @throws IreeValueException (an argument) {@code f: d: missing key 'b'; expected keys [a, b]} or
   *     {@code f: d: unexpected keys [c]; expected exactly [a, b]}
   */
  public static <M extends Map<String, ?>> M requireKeys(M map, List<String> keys, String path) {
    notNull(map, path);
    String problem = ValueChecks.keysProblem(map, keys);
    if (problem != null) {
      throw IreeValueException.of(Side.ARGUMENT, path, problem);
    }
    return map;
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
    return ValueChecks.results(results, expected, function);
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
    return ValueChecks.integer(element(list, index, path), ElementType.I1, Side.RESULT, path) == 1;
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
    return (byte)
        ValueChecks.integer(element(list, index, path), ElementType.I8, Side.RESULT, path);
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
    return (short)
        ValueChecks.integer(element(list, index, path), ElementType.I16, Side.RESULT, path);
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
    return (int)
        ValueChecks.integer(element(list, index, path), ElementType.I32, Side.RESULT, path);
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
    return ValueChecks.integer(element(list, index, path), ElementType.I64, Side.RESULT, path);
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
    return (float)
        ValueChecks.floating(element(list, index, path), ElementType.F32, Side.RESULT, path);
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
    return ValueChecks.floating(element(list, index, path), ElementType.F64, Side.RESULT, path);
  }

  /**
   * The buffer view at {@code index}, after checking its element type and shape against {@code
   * declared}. Wrap it with the array class the descriptor names ({@code
   * FloatArray.fromBufferView}); nothing is copied.
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the checked buffer view, not copied
   */
  public static BufferView bufferView(
      VmList list, int index, AbiType.NdArray declared, String path) {
    return ValueChecks.bufferView(element(list, index, path), declared, Side.RESULT, path);
  }

  /**
   * An n-d array of the class {@code arrayType} over the buffer view at {@code index}, checked
   * against {@code declared} (no copy).
   *
   * @param <A> the n-d array class made
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
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
      throw IreeValueException.of(Side.RESULT, path, e.getMessage());
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
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
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
      throw IreeValueException.of(Side.RESULT, path, e.getMessage());
    }
  }

  /**
   * The nested list at {@code index}, which must have {@code expectedSize} elements ({@code -1}:
   * any number).
   *
   * @param list the list holding the value: a function's result list or a nested list; not null
   * @param index the position of the value in {@code list}, from 0; out of range fails
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param expectedSize the number of elements the signature declares
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return the nested list, not copied
   */
  public static VmList list(
      VmList list, int index, AbiType declared, int expectedSize, String path) {
    return ValueChecks.list(element(list, index, path), declared, expectedSize, Side.RESULT, path);
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
    return ValueChecks.list(element(list, index, path), null, expectedSize, Side.RESULT, path);
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
    return ValueChecks.ref(element(list, index, path), Side.RESULT, path);
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
    return ValueChecks.ref(element(list, index, path), type, Side.RESULT, path);
  }

  // ---------------------------------------------------------------------------------------------
  // Failure paths: called only once a check has failed, so that success allocates nothing

  /**
   * {@code failure}, raised for an element of the list at {@code listPath}, with the element's
   * index in its path: {@code batch: rows[*]: ...} becomes {@code batch: rows[2]: ...}. Generated
   * stubs name every element of a list by one constant path ending in {@code [*]} and catch a
   * failure inside the loop over the list to call this, so that the indexed path is built only when
   * a check fails. Nested lists are indexed from the inside out, each loop replacing the {@code
   * [*]} right after its own list's path. A failure whose path does not have {@code [*]} there is
   * returned unchanged.
   *
   * @param failure the exception a check raised for the element, whose path ends in {@code [*]}
   *     after {@code listPath}
   * @param listPath the path of the list, e.g. {@code batch: rows}
   * @param index the index of the element that failed
   * @return a copy of {@code failure} whose path names the index, or {@code failure} itself when
   *     its path does not end in {@code [*]} after {@code listPath}
   */
  public static IreeValueException atIndex(IreeValueException failure, String listPath, int index) {
    return ValueChecks.atIndex(failure, listPath, index);
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
    if (failure instanceof IreeValueException value) {
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
    if (failure instanceof IreeValueException value) {
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
    return ValueChecks.closeOnFailure(results, failure);
  }

  // ---------------------------------------------------------------------------------------------
  // Shared checks

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
      throw IreeValueException.of(
          Side.RESULT,
          path,
          "expected a value at index " + index + " but the list has " + list.size());
    }
    return list.get(index);
  }
}
