package dev.ireestubs.invoke;

import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A call submitted by {@link BackendFunction#invokeAsync}: its signal fence, known at once, and its
 * results, which the backend delivers when the fence is reached.
 *
 * <p>The backend completes {@link #results()} exactly when the signal fence is reached (with the
 * result list) or fails (exceptionally, with an {@link IreeInvocationException} carrying the
 * backend's status, or an {@link IreeValueException} for results that do not decode). Whoever takes
 * the list owns it and closes it; a backend whose completion finds the future already done
 * (cancelled, or completed by someone else) closes the list itself, so cancelling never leaks what
 * the call returned, and never frees what the device still uses.
 *
 * @param signal the call's signal fence: reached when its results are ready; pass it as the wait
 *     fence of a later call to run that call after this one
 * @param results the result list, completed when {@code signal} is reached or fails
 */
public record AsyncCall(Fence signal, CompletableFuture<VmList> results) {

  /**
   * Refuses nulls.
   *
   * @param signal the call's signal fence
   * @param results the result list, completed when {@code signal} is reached or fails
   */
  public AsyncCall {
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(results, "results");
  }

  /**
   * A call that is already over: its fence reached, its results {@code results}.
   *
   * @param results the result list
   * @return a completed call
   */
  public static AsyncCall completed(VmList results) {
    return new AsyncCall(Fence.reached(), CompletableFuture.completedFuture(results));
  }

  /**
   * A call that already failed: its fence failed with {@code failure}, as its results.
   *
   * @param failure why the call failed
   * @return a failed call
   */
  public static AsyncCall failed(Throwable failure) {
    CompletableFuture<VmList> results = CompletableFuture.failedFuture(failure);
    return new AsyncCall(Fence.of(results), results);
  }

  /**
   * A call whose results are {@code stage}'s value, and whose fence is reached when {@code stage}
   * completes: for backends that run calls on threads of their own.
   *
   * @param stage the stage of the result list; a {@link CompletionException} it fails with is
   *     unwrapped
   * @return a call over {@code stage}
   */
  public static AsyncCall of(CompletionStage<VmList> stage) {
    Objects.requireNonNull(stage, "stage");
    CompletableFuture<VmList> results = new CompletableFuture<>();
    stage.whenComplete(
        (list, failure) -> {
          if (failure == null) {
            if (!results.complete(list) && list != null) {
              list.close();
            }
          } else {
            results.completeExceptionally(unwrap(failure));
          }
        });
    return new AsyncCall(Fence.of(results), results);
  }

  /**
   * {@code function} invoked synchronously, now, as a call that is already over: {@link
   * BackendFunction#invokeAsync}'s default. Arguments that do not fit and a closed backend are
   * thrown, as {@code invokeAsync} throws them; any other failure fails the call.
   */
  static AsyncCall invokedNow(BackendFunction function, VmList arguments) {
    VmList results;
    try {
      results = function.invoke(arguments);
    } catch (IreeValueException e) {
      if (e.side() == IreeValueException.Side.ARGUMENT) {
        throw e;
      }
      return failed(e);
    } catch (IllegalStateException e) {
      throw e; // a closed backend
    } catch (RuntimeException e) {
      return failed(e);
    }
    return completed(results);
  }

  /** The cause of a {@link CompletionException}, else {@code failure} itself. */
  static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }
}
