package dev.ireestubs.invoke;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.CoarseFences;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One exported function of a loaded module, as its backend sees it: a name, the IREE calling
 * convention string ({@code 0rr_r}), the reflection attributes the module carries for it, and a
 * call that takes and returns native-ABI lists.
 *
 * <h2>What a backend may keep of its arguments</h2>
 *
 * <p>Argument memory is lent only for the call. A {@link dev.ireestubs.vm.BufferView} argument is
 * usually a view of the caller's array or of a copy the stub made for this call alone, which is
 * freed as soon as the call is over ({@link dev.ireestubs.vm.BufferView#endCall()}). So a backend:
 *
 * <ul>
 *   <li>reads an argument's bytes during the call through {@link
 *       dev.ireestubs.vm.BufferView#pin()}, closing the pin when done;
 *   <li>keeps the memory past the call (imports it into a device buffer, keeps a view for reuse)
 *       only while holding a pin, closed when it lets go (IREE's backend closes it in the import's
 *       release callback), so the memory is freed after, never before;
 *   <li>may return an argument's view as a result (an identity function): whoever decodes the
 *       result pins it before the call's copies end, and keeps it valid as long as it is used;
 *   <li>that takes the raw bytes ({@link dev.ireestubs.vm.BufferView#data()}) makes the memory
 *       escape: it is then never freed early, only by the garbage collector. Always safe, but the
 *       caller's memory then waits for a collection.
 * </ul>
 *
 * <p>A view kept past the call without a pin is not memory: {@code pin()} and {@code data()} on it
 * throw {@link IllegalStateException} once it was freed. Result memory a backend hands over may
 * carry a {@link dev.ireestubs.vm.MemoryLease} of its own ({@link
 * dev.ireestubs.vm.BufferView#lend}), released when the arrays made over it are closed.
 *
 * <p>For an asynchronous call ({@link #invokeAsync}) "the call" lasts until its signal fence is
 * reached or fails, not until {@code invokeAsync} returns: the caller ends its copies only then
 * (whatever became of the future it handed on: cancelled, timed out), and a backend that reads an
 * argument's memory while the call runs on the device holds a pin until the device is done.
 */
public interface BackendFunction {

  /**
   * {@code module.function}.
   *
   * @return the module's name and the function's, joined by a dot
   */
  String qualifiedName();

  /**
   * The calling convention, e.g. {@code 0rr_r}: {@code i} i32, {@code I} i64, {@code f} f32, {@code
   * F} f64, {@code r} ref, before and after the {@code _}.
   *
   * @return the calling convention string, or an empty string when the module records none
   */
  String callingConvention();

  /**
   * Every reflection attribute of the function, in the module's order: {@code iree.abi}, {@code
   * iree.abi.declaration}, {@code iree.abi.model}, V0's {@code f}/{@code fv}/{@code sip}, ...
   *
   * @return the attribute names mapped to their text, unmodifiable; empty when the module has none
   */
  Map<String, String> reflection();

  /**
   * The types the function's bytecode states, for a backend that read its module's function bodies
   * ({@link dev.ireestubs.vmfb.VmfbExport#bytecodeTypes()}); ranked by {@link #signature()} after
   * the reflection attributes and before the calling convention.
   *
   * @return the bytecode's types; {@link BytecodeTypes#none()} by default
   */
  default BytecodeTypes bytecodeTypes() {
    return BytecodeTypes.none();
  }

  /**
   * The best signature this function's reflection, bytecode and calling convention give, chosen as
   * everywhere in iree-stubs ({@link Reflection#resolve(Map, String, BytecodeTypes)}, with IREE's
   * naming of an {@code f$async} twin applied by {@link CoarseFences}).
   *
   * @return the signature, where it came from, and warnings about sources skipped
   * @throws dev.ireestubs.abi.AbiParseException when the chosen reflection does not parse
   * @throws IllegalArgumentException when there is no usable reflection and no calling convention
   */
  default Reflection.Resolved signature() {
    return CoarseFences.resolve(
        qualifiedName(), reflection(), callingConvention(), bytecodeTypes());
  }

  /**
   * Calls the function. {@code arguments} is a variant list with one element per described
   * argument; a backend whose function takes wait/signal fences ({@code iree.abi.model =
   * "coarse-fences"}) appends them itself. The caller keeps ownership of {@code arguments} and owns
   * the returned list (close it to release refs it holds).
   *
   * @param arguments one element per argument the function's signature describes, fences excluded
   * @return the function's results as a new list, which the caller closes
   * @throws IreeInvocationException when the call fails in the backend; the message carries the
   *     backend's own text (and, for IREE, its status code)
   */
  VmList invoke(VmList arguments);

  /**
   * Submits a call and returns at once: the asynchronous form of {@link #invoke}, for functions of
   * the coarse-fences model ({@code f$async}, see {@link dev.ireestubs.abi.CoarseFences}), to which
   * the backend passes a wait fence and a new signal fence after {@code arguments}. The call runs
   * once {@code wait} is reached; the returned {@link AsyncCall} has the signal fence, and its
   * results future is completed, on a thread of the backend's, when that fence is reached.
   *
   * <p>What is thrown at once and what fails the call: arguments that do not fit (an {@link
   * IreeValueException}, side {@code ARGUMENT}) and a closed backend ({@link
   * IllegalStateException}) are thrown by this method, before anything is submitted; a failure of
   * the function itself, of the device, of {@code wait}, or of the results' checks completes the
   * results future exceptionally ({@link IreeInvocationException}, {@link IreeValueException}).
   *
   * <p>The caller keeps ownership of {@code arguments} and must not change the list, nor write the
   * memory of its arrays, until the signal fence is reached (see "What a backend may keep of its
   * arguments" above).
   *
   * <p>This default runs the call synchronously through {@link #invoke}: at once, on this thread,
   * when {@code wait} is reached already, else on the thread that reaches it. That is right for
   * backends without a queue of their own (a fake of an asynchronous function then answers at
   * once); backends with one (IREE's runtime, host modules with asynchronous functions) override
   * it. Stubs and {@link FencedFuture#submit} call {@link #submitAsync}, whose default goes through
   * this method; a backend that overrides {@code submitAsync} keeps this one working for callers
   * that use it directly.
   *
   * @param arguments one element per argument the function's signature describes, fences excluded
   * @param wait the fence the call waits for; null (or a reached fence) for none
   * @return the submitted call: its signal fence and its future results
   * @throws IreeValueException (an argument) when the arguments do not fit, before submitting
   * @throws IllegalStateException when the backend is closed
   */
  default AsyncCall invokeAsync(VmList arguments, Fence wait) {
    Objects.requireNonNull(arguments, "arguments");
    if (wait == null || wait.isReached()) {
      return AsyncCall.invokedNow(this, arguments);
    }
    return AsyncCall.of(
        wait.whenReached().thenCompose(reached -> AsyncCall.invokedNow(this, arguments).results()));
  }

  /**
   * Submits a call and returns its future, which the backend completes with {@code decoder}'s value
   * of the results when the call's signal fence is reached: what {@link FencedFuture#submit} calls
   * (stubs, {@link DynamicFunction#callAsync}). Which calls it takes, what it throws and what fails
   * the future are as for {@link #invokeAsync}.
   *
   * <p>A backend that overrides it makes the returned future itself, typically a subclass of {@link
   * FencedFuture} that is its record of the call, and completes it through {@link
   * FencedFuture#completeCall} once the call is over: that step keeps what {@link
   * FencedFuture#submit} promises (results nobody takes released, a failing decoder's list closed,
   * {@code arguments}' call copies ended only then, whatever became of the future), and a call
   * costs no second future and no dependent stage. When it throws, nothing was submitted and the
   * copies are still the caller's ({@link FencedFuture#submit} ends them).
   *
   * <p>This default submits through {@link #invokeAsync} and completes a new {@link FencedFuture}
   * of its signal fence from the results future: right for every backend, at the cost of those
   * objects.
   *
   * @param <T> the call's result type
   * @param arguments one element per argument the function's signature describes, fences excluded;
   *     the call's until it is over
   * @param wait the fence the call waits for; null (or a reached fence) for none
   * @param decoder turns the result list into the future's value, on a thread of the backend's
   * @return the call's future, which carries its signal fence
   * @throws IreeValueException (an argument) when the arguments do not fit, before submitting
   * @throws IllegalStateException when the backend is closed
   */
  default <T> FencedFuture<T> submitAsync(
      VmList arguments, Fence wait, Function<? super VmList, ? extends T> decoder) {
    return AsyncSubmission.submit(this, arguments, wait, decoder);
  }
}
