package dev.ireestubs.internal;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.function.Function;

/**
 * The asynchronous call of a generated stub's {@code CompletableFuture} method: {@link
 * FencedFuture#submit}, which says what it guarantees whatever becomes of the future. The stub's
 * decoder checks the result count itself ({@link Marshal#results}) before it decodes: a decoder
 * that names only constants is one object for all calls, so a call allocates no wrapper around it.
 * Not API for users.
 */
public final class AsyncCalls {

  private AsyncCalls() {}

  /**
   * How a stub turns a call's result list into the method's value.
   *
   * @param <T> the method's result type
   */
  @FunctionalInterface
  public interface Decoder<T> extends Function<VmList, T> {
    /**
     * Checks the result count and decodes the results.
     *
     * @param results the function's result list; closed by the caller if this throws
     * @return the value the method's future completes with
     */
    T decode(VmList results);

    /** {@link #decode}. */
    @Override
    default T apply(VmList results) {
      return decode(results);
    }
  }

  /**
   * Submits a call of {@code function} and returns its future.
   *
   * @param <T> the method's result type
   * @param function the bound function, of the coarse-fences model
   * @param arguments the encoded arguments; the call's until it is over
   * @param wait the fence the call waits for; null for none
   * @param decoder checks the result count and turns the result list into the value
   * @return the call's future, which carries its signal fence
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) when the backend refuses the
   *     arguments before submitting; the call's copies are then ended
   * @throws IllegalStateException when the backend is closed
   */
  public static <T> FencedFuture<T> submit(
      BackendFunction function, VmList arguments, Fence wait, Decoder<T> decoder) {
    return FencedFuture.submit(function, arguments, wait, decoder);
  }

  /**
   * The value of a call that returns nothing: checks that {@code results} is empty and closes it.
   *
   * @param results the function's result list
   * @param name the function's name, which starts the message
   * @return null
   * @throws dev.ireestubs.invoke.IreeValueException (a result) when the function returned results
   */
  public static Void none(VmList results, String name) {
    Marshal.results(results, 0, name).close();
    return null;
  }
}
