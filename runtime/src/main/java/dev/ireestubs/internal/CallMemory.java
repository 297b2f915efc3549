package dev.ireestubs.internal;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.invoke.ValueChecks;
import dev.ireestubs.ndarray.JavaArrays;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;

/**
 * The memory a stub's call owns: copies of Java-array arguments, lent to the backend for the call
 * only ({@link #copyArgument}) and ended when the call is over ({@link #endCall}); and arrays
 * decoded only to be copied out into Java arrays ({@link #toJavaArray}), closed at once. So a call
 * that passes and returns Java arrays frees its native memory when it returns, instead of leaving
 * it to a garbage collection (see "Ownership and closing" in {@link NdArray}).
 *
 * <p>Ending is safe whoever still reads the memory: a backend that keeps it (IREE's imported
 * buffers) holds a pin, a result that is the argument itself holds a pin through its array, and
 * code that took a raw buffer made it escape, so the memory is freed only after all of them.
 */
public final class CallMemory {

  private CallMemory() {}

  /**
   * Copies a Java array ({@code float[][]}, ...) into a new n-d array, checks it against {@code
   * declared} and returns a view of it that the call owns ({@link NdArray#asCallArgument()}):
   * {@link Marshal#array(NdArray, AbiType.NdArray, String) Marshal.array}{@code (}{@link
   * Marshal#copy(Object, AbiType.NdArray, String) Marshal.copy}{@code (...))} whose memory {@link
   * #endCall} frees.
   *
   * @param javaArray a Java array of a supported element type and any rank; may be null or ragged,
   *     which fails
   * @param declared the type the signature declares for the value; checked against, and named in a
   *     message
   * @param path names the function and the value for a message, e.g. {@code predict:
   *     features.image}; not parsed
   * @return a buffer view over the copy, ended by {@link #endCall}
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) when the array is null, ragged,
   *     holds a null row, or its element type or shape differs from the declared one
   */
  public static BufferView copyArgument(Object javaArray, AbiType.NdArray declared, String path) {
    NdArray copy = Marshal.copy(javaArray, declared, path);
    BufferView view = copy.asCallArgument();
    if (!ValueChecks.fits(declared, view)) {
      try {
        Marshal.array(copy, declared, path); // throws the message for the mismatch
      } finally {
        copy.close();
      }
    }
    return view;
  }

  /**
   * Ends the call's use of the copies {@link #copyArgument} made for {@code arguments} (at any
   * depth of nested lists): what nothing pins is freed now. Called when the call is over. Views of
   * arrays the caller passed are left alone. {@link VmList#endCall()}, as a statement of generated
   * code.
   *
   * @param arguments the argument list the call was made with
   */
  public static void endCall(VmList arguments) {
    arguments.endCall();
  }

  /**
   * Copies a decoded array result into a new Java array and closes the array: what a stub returning
   * {@code float[][]} calls, so the result's memory (a backend's mapping, a pin on an argument) is
   * released at once rather than when the array is collected.
   *
   * @param array the decoded result, which nothing else holds
   * @return a new Java array such as {@code float[][]}, to be cast by the caller
   */
  public static Object toJavaArray(NdArray array) {
    try {
      return JavaArrays.toJavaArray(array);
    } finally {
      array.close();
    }
  }
}
