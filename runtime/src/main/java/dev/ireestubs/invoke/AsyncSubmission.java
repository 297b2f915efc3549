package dev.ireestubs.invoke;

import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmResource;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * How an asynchronous call's future is filled ({@link FencedFuture#completeCall}, the one place),
 * and {@link BackendFunction#submitAsync}'s default: a call submitted through {@link
 * BackendFunction#invokeAsync} whose results future completes the caller's.
 */
final class AsyncSubmission {

  private AsyncSubmission() {}

  /**
   * {@link BackendFunction#submitAsync}'s default: the call {@link BackendFunction#invokeAsync}
   * submits, its results handed to a new future of its signal fence when they come.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // whenComplete's stage: the callback delivers
  static <T> FencedFuture<T> submit(
      BackendFunction function,
      VmList arguments,
      Fence wait,
      Function<? super VmList, ? extends T> decoder) {
    AsyncCall call = function.invokeAsync(arguments, wait);
    FencedFuture<T> future = new FencedFuture<>(call.signal());
    call.results()
        .whenComplete(
            (results, failure) -> future.completeCall(arguments, results, failure, decoder));
    return future;
  }

  /** Completes {@code future} with the decoded results, or releases what nobody will take. */
  static <T> void deliver(
      FencedFuture<T> future,
      VmList results,
      Throwable failure,
      Function<? super VmList, ? extends T> decoder) {
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
      value = decoder.apply(results);
    } catch (RuntimeException e) {
      future.completeExceptionally(ValueChecks.closeOnFailure(results, e));
      return;
    } catch (Throwable e) { // an Error, or a checked exception thrown sneakily: the future must
      // complete, or its caller waits forever
      VmResource.closeIfResource(results);
      future.completeExceptionally(e);
      return;
    }
    if (!future.complete(value)) {
      discard(value); // the future was completed meanwhile: nobody takes the value
    }
  }

  /** The cause of a {@link CompletionException}, else {@code failure} itself. */
  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /** Releases a decoded value nobody took: closes the arrays and VM resources in it. */
  static void discard(Object value) {
    ValueWalk.forEachPart(value, ValueWalk::close);
  }
}
