package dev.ireestubs.internal;

import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmResource;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionException;

/**
 * The asynchronous call of a generated stub's {@code CompletableFuture} method (and of {@link
 * dev.ireestubs.invoke.DynamicFunction#callAsync}): submits the encoded arguments ({@link
 * BackendFunction#invokeAsync}) and returns a {@link FencedFuture} that the backend's completion
 * fills with the decoded value. Not API for users.
 *
 * <p>What it guarantees, whatever becomes of the future it returns:
 *
 * <ul>
 *   <li>the copies the call made of Java-array arguments are ended ({@link CallMemory#endCall})
 *       only once the backend completed the call (its signal fence reached or failed), never when
 *       the future is cancelled or times out;
 *   <li>results that arrive when the future is already done (cancelled, timed out) are released:
 *       the list closed, or the decoded arrays closed when the race was lost after decoding;
 *   <li>a result list that fails its checks is closed, and the future fails with the check's
 *       exception (an {@code IreeValueException}, side {@code RESULT}).
 * </ul>
 */
public final class AsyncCalls {

  /** How deep {@link #discard} looks into lists, maps and records of a value nobody took. */
  private static final int MAX_DEPTH = 16;

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
    return submitChecked(function, arguments, wait, resultCount, Objects.requireNonNull(name), decoder);
  }

  /**
   * {@link #submit(BackendFunction, VmList, Fence, int, String, Decoder)} for a decoder that checks
   * the result list itself and closes it when it fails (a {@link
   * dev.ireestubs.invoke.CallCodec}'s).
   *
   * @param <T> the result type
   * @param function the bound function, of the coarse-fences model
   * @param arguments the encoded arguments; the call's until it is over
   * @param wait the fence the call waits for; null for none
   * @param decoder turns the result list into the value
   * @return the call's future, which carries its signal fence
   */
  public static <T> FencedFuture<T> submit(
      BackendFunction function, VmList arguments, Fence wait, Decoder<T> decoder) {
    return submitChecked(function, arguments, wait, -1, null, decoder);
  }

  /** With {@code name} null, the decoder checks the results itself. */
  private static <T> FencedFuture<T> submitChecked(
      BackendFunction function,
      VmList arguments,
      Fence wait,
      int resultCount,
      String name,
      Decoder<T> decoder) {
    AsyncCall call;
    try {
      call = function.invokeAsync(arguments, wait);
    } catch (RuntimeException | Error e) {
      CallMemory.endCall(arguments);
      throw e;
    }
    FencedFuture<T> future = new FencedFuture<>(call.signal());
    call.results()
        .whenComplete(
            (results, failure) -> {
              try {
                deliver(future, results, failure, resultCount, name, decoder);
              } finally {
                CallMemory.endCall(arguments);
              }
            });
    return future;
  }

  /**
   * Submits a call of a function that returns nothing: {@link #submit} whose future completes with
   * null.
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

  private static <T> void deliver(
      FencedFuture<T> future,
      VmList results,
      Throwable failure,
      int resultCount,
      String name,
      Decoder<T> decoder) {
    if (failure != null) {
      future.completeExceptionally(unwrap(failure));
      return;
    }
    if (future.isDone()) {
      VmResource.closeIfResource(results); // cancelled or timed out: nobody takes them
      return;
    }
    T value;
    try {
      value = decoder.decode(name == null ? results : Marshal.results(results, resultCount, name));
    } catch (RuntimeException e) {
      future.completeExceptionally(Marshal.closeOnFailure(results, e));
      return;
    } catch (Error e) { // the future must complete, or its caller waits forever
      VmResource.closeIfResource(results);
      future.completeExceptionally(e);
      return;
    }
    if (!future.complete(value)) {
      discard(value, 0);
    }
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /**
   * Releases a decoded value nobody will see (its future was completed first): closes the arrays
   * and VM resources in it, in lists, maps and records, down to {@link #MAX_DEPTH}. What it misses
   * is left to the garbage collector, as any unclosed result is.
   */
  static void discard(Object value, int depth) {
    if (value == null || depth > MAX_DEPTH) {
      return;
    }
    if (value instanceof NdArray) {
      ((NdArray) value).close();
    } else if (value instanceof VmResource) {
      ((VmResource) value).close();
    } else if (value instanceof Collection) {
      for (Object element : (Collection<?>) value) {
        discard(element, depth + 1);
      }
    } else if (value instanceof Map) {
      for (Object element : ((Map<?, ?>) value).values()) {
        discard(element, depth + 1);
      }
    } else if (value instanceof Record) {
      for (RecordComponent c : value.getClass().getRecordComponents()) {
        try {
          discard(c.getAccessor().invoke(value), depth + 1);
        } catch (ReflectiveOperationException | RuntimeException e) {
          // An accessor we may not call (a record of a module we cannot read): left to the GC.
        }
      }
    }
  }
}
