package dev.ireestubs.internal;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.Objects;

/**
 * The asynchronous call of a generated stub's {@code CompletableFuture} method: {@link
 * FencedFuture#submit}, which says what it guarantees whatever becomes of the future, with the
 * stub's check of the result count before its decoder runs. Not API for users.
 */
public final class AsyncCalls {

  private AsyncCalls() {}

  /**
   * How a stub turns a call's result list into the method's value.
   *
   * @param <T> the method's result type
   */
  @FunctionalInterface
  public interface Decoder<T> {
    /**
     * Decodes the results.
     *
     * @param results the function's result list, of the checked size; closed by the caller if this
     *     throws
     * @return the value the method's future completes with
     */
    T decode(VmList results);
  }

  /**
   * Submits a call of {@code function} and returns its future.
   *
   * @param <T> the method's result type
   * @param function the bound function, of the coarse-fences model
   * @param arguments the encoded arguments; the call's until it is over
   * @param wait the fence the call waits for; null for none
   * @param resultCount how many raw results the function returns
   * @param name the function's name, which starts every message
   * @param decoder turns the result list into the value
   * @return the call's future, which carries its signal fence
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) when the backend refuses the
   *     arguments before submitting; the call's copies are then ended
   * @throws IllegalStateException when the backend is closed
   */
  public static <T> FencedFuture<T> submit(
      BackendFunction function,
      VmList arguments,
      Fence wait,
      int resultCount,
      String name,
      Decoder<T> decoder) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(decoder, "decoder");
    return FencedFuture.submit(
        function,
        arguments,
        wait,
        results -> decoder.decode(Marshal.results(results, resultCount, name)));
  }

  /**
   * Submits a call of {@code function}, which returns nothing, and returns its future.
   *
   * @param function the bound function, of the coarse-fences model
   * @param arguments the encoded arguments; the call's until it is over
   * @param wait the fence the call waits for; null for none
   * @param name the function's name, which starts every message
   * @return the call's future, completed with null when the call is over
   */
  public static FencedFuture<Void> run(
      BackendFunction function, VmList arguments, Fence wait, String name) {
    return submit(function, arguments, wait, 0, name, AsyncCalls::none);
  }

  private static Void none(VmList results) {
    results.close();
    return null;
  }
}
