package dev.ireestubs.invoke;

import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The future of an asynchronous call, with the call's signal fence: what a stub's {@code
 * CompletableFuture} method and {@link DynamicFunction#callAsync} return. The fence is known as
 * soon as the call is submitted, before the results exist, so it can be passed as the wait fence of
 * a later call, submitted at once too: that call runs after this one. (On IREE v3.11's CPU drivers
 * the backend hands the later call to the device when this fence is reached, on its completion
 * thread: no thread of the caller waits meanwhile.)
 *
 * <pre>{@code
 * FencedFuture<FloatArray> a = model.stage1Async(input);
 * CompletableFuture<FloatArray> b = model.stage2Async(other, a.signal()); // runs after a
 * }</pre>
 *
 * <p>Completing, cancelling or timing out this future ({@code orTimeout}) completes this future
 * only: the call goes on, the memory its arguments and results use stays valid until the device is
 * done with it (its signal fence is reached or failed), and results that arrive after this future
 * was completed are released, never handed to anyone. Dependent stages made from it are plain
 * {@link CompletableFuture}s.
 *
 * <p>A backend may make the future itself (SPI: {@link BackendFunction#submitAsync}): a subclass
 * that is the backend's record of the call too, completed by {@link #completeCall} when the call is
 * over, so that a call costs no second future and no dependent stage.
 *
 * @param <T> the call's result type ({@link Void} for none)
 */
public class FencedFuture<T> extends CompletableFuture<T> {

  private final Fence signal;

  /**
   * An incomplete future for the call whose signal fence is {@code signal}.
   *
   * @param signal the call's signal fence
   */
  public FencedFuture(Fence signal) {
    this.signal = Objects.requireNonNull(signal, "signal");
  }

  /**
   * Submits an asynchronous call of {@code function} ({@link BackendFunction#submitAsync}) and
   * returns its future, which the backend's completion fills with {@code decoder}'s value of the
   * results: how generated stubs and {@link DynamicFunction#callAsync} call, and how a calling
   * format of one's own calls asynchronously (SPI). Whatever becomes of the future returned:
   *
   * <ul>
   *   <li>the call-owned copies in {@code arguments} are ended ({@link VmList#endCall()}) only once
   *       the backend completed the call (its signal fence reached or failed), never when the
   *       future is cancelled or times out, and at once when submitting throws;
   *   <li>results that arrive when the future is already done (cancelled, timed out) are released:
   *       the list closed, or the decoded value's arrays and refs closed when the race was lost
   *       after decoding;
   *   <li>a result list {@code decoder} fails on is closed, and the future fails with the decoder's
   *       exception (an {@link IreeValueException}, side {@code RESULT}, for a check).
   * </ul>
   *
   * @param <T> the call's result type
   * @param function the function to call, of the coarse-fences model ({@code f$async})
   * @param arguments the encoded arguments, the call's until it is over
   * @param wait the fence the call waits for; null for none
   * @param decoder turns the result list into the future's value; the list is closed for it when it
   *     throws
   * @return the call's future, which carries its signal fence
   * @throws IreeValueException (an argument) when the backend refuses the arguments before
   *     submitting
   * @throws IllegalStateException when the backend is closed
   */
  public static <T> FencedFuture<T> submit(
      BackendFunction function,
      VmList arguments,
      Fence wait,
      Function<? super VmList, ? extends T> decoder) {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(arguments, "arguments");
    Objects.requireNonNull(decoder, "decoder");
    try {
      return function.submitAsync(arguments, wait, decoder);
    } catch (RuntimeException | Error e) {
      arguments.endCall(); // nothing was submitted: the call is over
      throw e;
    }
  }

  /**
   * Completes this future with a call's outcome, once the call is over (its signal fence reached or
   * failed, or the call given up on): what a backend's completion does with the future it made
   * ({@link BackendFunction#submitAsync}), with the guarantees {@link #submit} lists whatever
   * became of this future meanwhile. Decodes {@code results} with {@code decoder} unless this
   * future is done already (then they are closed); closes them when the decoder throws, and fails
   * this future with what it threw (an {@link Error} too); releases the arrays and refs of a
   * decoded value when this future was completed while decoding; and ends {@code arguments}' call
   * copies last, whatever happened before. Runs {@code decoder} and this future's dependent actions
   * on the calling thread.
   *
   * @param arguments the call's arguments, whose call copies are ended ({@link VmList#endCall()});
   *     null when the caller ends them itself
   * @param results the result list, which this future (or the decoded value) owns from now on; null
   *     when the call failed
   * @param failure why the call failed ({@code CompletionException}s unwrapped), or null
   * @param decoder turns the result list into this future's value
   */
  protected final void completeCall(
      VmList arguments,
      VmList results,
      Throwable failure,
      Function<? super VmList, ? extends T> decoder) {
    try {
      AsyncSubmission.deliver(this, results, failure, decoder);
    } finally {
      if (arguments != null) {
        // Only now is the call over: its copies are the device's until the fence.
        arguments.endCall();
      }
    }
  }

  /**
   * The call's signal fence: reached when its results are ready (also when this future was
   * cancelled meanwhile).
   *
   * @return the fence to pass as the wait fence of a call that must run after this one
   */
  public Fence signal() {
    return signal;
  }

  /** Dependent stages are plain futures: only the call's own future carries its fence. */
  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new CompletableFuture<>();
  }

  @Override
  public String toString() {
    return super.toString() + " signal " + signal;
  }
}
