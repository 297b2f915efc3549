package dev.ireestubs.host;

import java.util.List;

/**
 * The body of a function in a {@link HostModule}, written with Java values: arguments arrive in the
 * forms {@link dev.ireestubs.invoke.AbiValues} documents for results (maps for {@code sdict},
 * lists, n-d arrays, boxed scalars), and the return value is marshalled back by the signature.
 *
 * <p><b>Arguments are valid for the call; copy what you keep.</b> An array argument is made over
 * memory lent for the call (see {@link HostFunction}). On JDK 22 and later the module closes it
 * when the function returns: using it later throws {@link IllegalStateException} (its memory may be
 * freed). Below JDK 22 it stays open and keeps the memory until the garbage collector frees it,
 * since freed memory would not be checked there. Returning an argument array as a result is fine.
 *
 * <p><b>Returned arrays pass to the caller.</b> An n-d array the function returns (as its result,
 * or in a list, map or record of it) is handed over with its memory ({@link
 * dev.ireestubs.ndarray.NdArray#handOver()}): the caller's result array reads it without a copy,
 * and the caller's {@code close()} of the result frees it (to the memory pool), so a new array per
 * call costs no memory that only the garbage collector frees. The function's own array is closed by
 * the hand-over: do not use it after returning it, and return a new array (or a {@code copy()}) on
 * each call, not one the function keeps; returning a kept array a second time fails the call with
 * an {@link IllegalStateException} saying it was handed over. An argument returned stays the
 * caller's (nothing is handed over), as do views ({@code reshape}, {@code slice}) and arrays over a
 * caller's buffer ({@code wrap}). When the value does not fit the declared results, the arrays it
 * would have handed over are closed. A returned Java array ({@code float[]}) is copied into an
 * array handed over the same way.
 *
 * <p><b>Asynchronous functions.</b> The body of a function of the coarse-fences model (an {@code
 * f$async}) may return a {@link java.util.concurrent.CompletionStage} of its value instead of the
 * value: the call's signal fence is reached when the stage completes, and the argument arrays stay
 * valid (and are closed) until then.
 */
@FunctionalInterface
public interface DynamicHostFunction {

  /**
   * Runs the function.
   *
   * @param arguments one Java value per declared argument
   * @return null when the function has no results; the value of its single result; a {@code Map} or
   *     {@code List} (or record) for an inlined structure; a {@code List} for several results; for
   *     an asynchronous function, any of these or a {@code CompletionStage} of one
   */
  Object call(List<Object> arguments);
}
