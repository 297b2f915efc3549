package dev.ireestubs.internal;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.ndarray.BFloat16Array;
import dev.ireestubs.ndarray.BoolArray;
import dev.ireestubs.ndarray.ByteArray;
import dev.ireestubs.ndarray.DoubleArray;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.HalfArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.ndarray.LongArray;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.ndarray.ShortArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.ndarray.UIntArray;
import dev.ireestubs.ndarray.ULongArray;
import dev.ireestubs.ndarray.UShortArray;
import dev.ireestubs.vm.VmList;

/**
 * Marshal's operations that are generic methods, in the non-generic forms generated stubs call: one
 * method per n-d array class for an array result, each {@link Marshal#array(VmList, int,
 * AbiType.NdArray, Class, String)} for that class, and a null check as a statement (the same checks
 * and messages as Marshal's).
 *
 * <p>They exist for the compiler, not the call: javac resolves a call of a generic method by type
 * inference, and the stub of a module of a thousand functions makes thousands of such calls, which
 * took about a fifth of the time javac spent on that stub. A non-generic method of a name of its
 * own is resolved at once; at run time it is inlined into the stub's method like the generic call
 * it stands for.
 */
public final class StubMarshal {

  private StubMarshal() {}

  /**
   * Checks that {@code value}, an argument, is not null: {@link Marshal#notNull(Object, String)} as
   * a statement.
   *
   * @param value the argument to check; may be null, which fails
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) {@code predict: features: is
   *     null}
   */
  public static void notNull(Object value, String path) {
    Marshal.notNull(value, path);
  }

  /**
   * The name of the method for an array result of class {@code simpleName} ({@code FloatArray},
   * ..., {@code NdArray}), which the processor writes.
   *
   * @param simpleName the simple name of an n-d array class of {@code dev.ireestubs.ndarray}
   * @return the name of the {@code StubMarshal} method that returns that class, e.g. {@code
   *     floatArray}
   * @throws IllegalArgumentException for any other name
   */
  public static String methodFor(String simpleName) {
    return switch (simpleName) {
      case "FloatArray" -> "floatArray";
      case "DoubleArray" -> "doubleArray";
      case "HalfArray" -> "halfArray";
      case "BFloat16Array" -> "bfloat16Array";
      case "BoolArray" -> "boolArray";
      case "ByteArray" -> "byteArray";
      case "ShortArray" -> "shortArray";
      case "IntArray" -> "intArray";
      case "LongArray" -> "longArray";
      case "UByteArray" -> "ubyteArray";
      case "UShortArray" -> "ushortArray";
      case "UIntArray" -> "uintArray";
      case "ULongArray" -> "ulongArray";
      case "NdArray" -> "ndArray";
      default -> throw new IllegalArgumentException("not an n-d array class: " + simpleName);
    };
  }

  /**
   * A {@link FloatArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static FloatArray floatArray(
      VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, FloatArray.class, path);
  }

  /**
   * A {@link DoubleArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static DoubleArray doubleArray(
      VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, DoubleArray.class, path);
  }

  /**
   * A {@link HalfArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static HalfArray halfArray(VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, HalfArray.class, path);
  }

  /**
   * A {@link BFloat16Array} over the buffer view at {@code index}, checked against {@code
   * declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static BFloat16Array bfloat16Array(
      VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, BFloat16Array.class, path);
  }

  /**
   * A {@link BoolArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static BoolArray boolArray(VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, BoolArray.class, path);
  }

  /**
   * A {@link ByteArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static ByteArray byteArray(VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, ByteArray.class, path);
  }

  /**
   * A {@link ShortArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static ShortArray shortArray(
      VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, ShortArray.class, path);
  }

  /**
   * A {@link IntArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static IntArray intArray(VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, IntArray.class, path);
  }

  /**
   * A {@link LongArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static LongArray longArray(VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, LongArray.class, path);
  }

  /**
   * A {@link UByteArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static UByteArray ubyteArray(
      VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, UByteArray.class, path);
  }

  /**
   * A {@link UShortArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static UShortArray ushortArray(
      VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, UShortArray.class, path);
  }

  /**
   * A {@link UIntArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static UIntArray uintArray(VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, UIntArray.class, path);
  }

  /**
   * A {@link ULongArray} over the buffer view at {@code index}, checked against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array over the view's memory; nothing is copied
   */
  public static ULongArray ulongArray(
      VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, ULongArray.class, path);
  }

  /**
   * An n-d array of the class its element type names over the buffer view at {@code index}, checked
   * against {@code declared}.
   *
   * @param list the function's result list (or a nested list) holding the buffer view; not null
   * @param index the position of the buffer view in {@code list}, from 0; out of range fails
   * @param declared the array type the signature declares for the result; the view's element type
   *     and shape are checked against it
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return an array of the class the view's element type names ({@code FloatArray} for {@code
   *     f32}), over the view's memory
   */
  public static NdArray ndArray(VmList list, int index, AbiType.NdArray declared, String path) {
    return Marshal.array(list, index, declared, NdArray.class, path);
  }
}
