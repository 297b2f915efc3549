package dev.ireestubs.invoke;

import dev.ireestubs.vm.Fence;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The future of an asynchronous call, with the call's signal fence: what a stub's {@code
 * CompletableFuture} method and {@link DynamicFunction#callAsync} return. The fence is known as
 * soon as the call is submitted, before the results exist, so it can be passed as the wait fence
 * of a later call, submitted at once too: that call runs after this one. (On IREE v3.11's CPU
 * drivers the backend hands the later call to the device when this fence is reached, on its
 * completion thread: no thread of the caller waits meanwhile.)
 *
 * <pre>{@code
 * FencedFuture<FloatArray> a = model.stage1Async(input);
 * CompletableFuture<FloatArray> b = model.stage2Async(other, a.signal()); // runs after a
 * }</pre>
 *
 * <p>Completing, cancelling or timing out this future ({@code orTimeout}) completes this future
 * only: the call goes on, the memory its arguments and results use stays valid until the device
 * is done with it (its signal fence is reached or failed), and results that arrive after this
 * future was completed are released, never handed to anyone. Dependent stages made from it are
 * plain {@link CompletableFuture}s.
 *
 * @param <T> the call's result type ({@link Void} for none)
 */
public final class FencedFuture<T> extends CompletableFuture<T> {

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
