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
