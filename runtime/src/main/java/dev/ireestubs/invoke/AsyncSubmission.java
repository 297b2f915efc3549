package dev.ireestubs.invoke;

import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmResource;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * How an asynchronous call's future is filled ({@link FencedFuture#completeCall}, the one place),
 * and {@link BackendFunction#submitAsync}'s default: a call submitted through {@link
 * BackendFunction#invokeAsync} whose results future completes the caller's.
 */
final class AsyncSubmission {

  /** How deep {@link #discard} looks into lists, maps and records of a value nobody took. */
  private static final int MAX_DEPTH = 16;

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
      discard(value, 0); // the future was completed meanwhile: nobody takes the value
    }
  }

  /** The cause of a {@link CompletionException}, else {@code failure} itself. */
  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /**
   * Releases a decoded value nobody took: closes the arrays and VM resources in it, looking into
   * collections, maps and records up to {@link #MAX_DEPTH} deep.
   */
  static void discard(Object value, int depth) {
    if (value == null || depth > MAX_DEPTH) {
      return;
    }
    if (value instanceof NdArray ndArray) {
      ndArray.close();
    } else if (value instanceof VmResource vmResource) {
      vmResource.close();
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
