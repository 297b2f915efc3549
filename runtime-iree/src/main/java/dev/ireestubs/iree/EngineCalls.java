package dev.ireestubs.iree;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the calls of an {@link Engine}'s functions go to its sessions: each call is checked once
 * ({@link #check}: for synchronous and asynchronous calls alike), takes a session ({@link Seats}:
 * at once for an engine of one, a free one for a pool), runs there ({@link NativeSession}, whose
 * call path checks under its lock that the session is open), gives the session back, and is
 * recorded ({@link CallRecorder}; an asynchronous call by its call path as it completes). The
 * engine's functions ({@link Function}, the {@link BackendFunction} users get) are made here and
 * call back only into this class.
 *
 * <p>It touches the engine's sessions, seats and recorder, and reads the loaded modules' function
 * names ({@link ModuleLoader}) for a message; it holds no state of its own and does not name the
 * engine, which makes it with those parts and asks it for each function it looks up ({@link
 * #function}).
 */
final class EngineCalls {

  private final List<NativeSession> sessions;
  private final Seats seats;
  private final CallRecorder recorder;
  private final ModuleLoader loader;

  /** Whether calls take a seat (a pool): how a function names itself. */
  private final boolean pooled;

  /**
   * The calls on {@code sessions}, taking {@code seats}, recorded by {@code recorder}; {@code
   * loader} has the loaded modules' function names; {@code pooled} for a pool.
   */
  EngineCalls(
      List<NativeSession> sessions,
      Seats seats,
      CallRecorder recorder,
      ModuleLoader loader,
      boolean pooled) {
    this.sessions = List.copyOf(sessions);
    this.seats = seats;
    this.recorder = recorder;
    this.loader = loader;
    this.pooled = pooled;
  }

  /**
   * The engine's function whose instance in session {@code i} is {@code bySession[i]}, its calls
   * made here.
   */
  Function function(IreeFunction[] bySession) {
    return new Function(this, bySession);
  }

  /**
   * The checks of a call before it takes a session, the one place for synchronous and asynchronous
   * calls: the function does not yield (IREE would spin on the call forever: {@link
   * IreeFunction#yieldRefusal}), an asynchronous call's function takes fences, and the arguments
   * fit the calling convention (IREE checks them only partly).
   */
  private void check(Function function, VmList arguments, boolean async) {
    IreeFunction f = function.on(0);
    if (f.yields()) {
      throw new UnsupportedOperationException(f.yieldRefusal());
    }
    if (async && !f.isCoarseFences()) {
      throw new UnsupportedOperationException(f.notAsync(loader.functionNames()));
    }
    f.checkArguments(arguments);
  }

  VmList invoke(Function function, VmList arguments) {
    Objects.requireNonNull(arguments, "arguments");
    String name = function.qualifiedName();
    long start = System.nanoTime();
    Object event = CallRecorder.begin();
    long bytesIn = 0;
    int seat = -1;
    VmList results;
    try {
      check(function, arguments, false);
      seat = seats.take(name);
      bytesIn = CallRecorder.bytes(arguments);
      results = sessions.get(seat).invoke(function.on(seat), arguments);
    } catch (RuntimeException e) {
      recorder.failed(name, start, event, bytesIn, e, false);
      throw e;
    } finally {
      if (seat >= 0) {
        seats.giveBack(seat);
      }
    }
    recorder.succeeded(name, start, event, bytesIn, CallRecorder.bytes(results), false);
    return results;
  }

  /**
   * {@link #submitAsync} with the result list as the future's value, the arguments the caller's.
   */
  AsyncCall invokeAsync(Function function, VmList arguments, Fence wait) {
    FencedFuture<VmList> results =
        submitAsync(function, arguments, wait, java.util.function.Function.identity(), null);
    return new AsyncCall(results.signal(), results);
  }

  /**
   * Submits an asynchronous call on a free session and returns its future, which the session's call
   * path completes with {@code decoder}'s value of the results; {@code ending}'s call copies
   * (unless null) are ended when the call is over. Refused arguments and a closed engine are
   * thrown, with nothing submitted; a call that waited longer than the pool's maxWait fails its
   * future.
   */
  <T> FencedFuture<T> submitAsync(
      Function function,
      VmList arguments,
      Fence wait,
      java.util.function.Function<? super VmList, ? extends T> decoder,
      VmList ending) {
    Objects.requireNonNull(arguments, "arguments");
    Objects.requireNonNull(decoder, "decoder");
    String name = function.qualifiedName();
    long start = System.nanoTime();
    Object event = CallRecorder.begin();
    int seat;
    try {
      check(function, arguments, true);
      seat = seats.take(name);
    } catch (IreeInvocationException e) {
      recorder.failed(name, start, event, 0, e, true);
      return failedCall(e, ending); // waited too long: the call fails, as a device failure would
    } catch (RuntimeException e) {
      recorder.failed(name, start, event, 0, e, true);
      throw e;
    }
    try {
      return sessions
          .get(seat)
          .submitAsync(function.on(seat), arguments, wait, decoder, ending, start, event);
    } catch (RuntimeException e) {
      recorder.failed(name, start, event, 0, e, true); // refused before anything was submitted
      throw e;
    } finally {
      seats.giveBack(seat);
    }
  }

  /**
   * The future of a call that failed before it was submitted: it and its signal fence failed with
   * {@code failure}; the call is over, so {@code ending}'s copies (unless null) are ended.
   */
  private static <T> FencedFuture<T> failedCall(RuntimeException failure, VmList ending) {
    FencedFuture<T> future = new FencedFuture<>(AsyncCall.failed(failure).signal());
    future.completeExceptionally(failure);
    if (ending != null) {
      ending.endCall();
    }
    return future;
  }

  /**
   * An exported function of an engine: the same function in each of its sessions (one {@link
   * IreeFunction} per session), called on whichever session is free. Its name, calling convention,
   * reflection and bytecode types are the first session's, which are every session's. Its calls go
   * to the {@link EngineCalls} that made it.
   */
  static final class Function implements BackendFunction {

    private final EngineCalls calls;
    private final IreeFunction[] bySession;

    private Function(EngineCalls calls, IreeFunction[] bySession) {
      this.calls = calls;
      this.bySession = bySession.clone();
    }

    /** The function in session {@code index} of the engine. */
    IreeFunction on(int index) {
      return bySession[index];
    }

    @Override
    public String qualifiedName() {
      return bySession[0].qualifiedName();
    }

    @Override
    public String callingConvention() {
      return bySession[0].callingConvention();
    }

    @Override
    public Map<String, String> reflection() {
      return bySession[0].reflection();
    }

    @Override
    public BytecodeTypes bytecodeTypes() {
      return bySession[0].bytecodeTypes();
    }

    /**
     * Calls the function on a free session (serialised with that session's other calls). The result
     * holds values, buffer views read back into direct host memory, nested lists, and {@link
     * dev.ireestubs.vm.OpaqueRef}s for other refs (close the result list to release those). A
     * function of the coarse-fences model gets a null wait fence and a new signal fence, and the
     * call returns once that fence is reached.
     *
     * @throws dev.ireestubs.invoke.IreeValueException (an argument) when the arguments do not fit
     *     the calling convention (count, or a value where a ref goes, or an integer where a float
     *     goes: IREE would pass 0)
     * @throws IreeInvocationException when IREE's runtime or the device fails the call (its status
     *     code and text), or a pool's call waited longer than its maxWait
     * @throws IllegalStateException when the session or pool is closed
     * @throws UnsupportedOperationException when the function's calls may reach a {@code vm.yield},
     *     which IREE's runtime never resumes (the message says where)
     */
    @Override
    public VmList invoke(VmList arguments) {
      return calls.invoke(this, arguments);
    }

    /**
     * Submits a call of this coarse-fences function on a free session and returns at once; see
     * {@link IreeSession} ("Asynchronous calls").
     *
     * @throws UnsupportedOperationException when the function takes no fences (the message names
     *     its asynchronous twin, if the module exports one), or may reach a {@code vm.yield}
     */
    @Override
    public AsyncCall invokeAsync(VmList arguments, Fence wait) {
      return calls.invokeAsync(this, arguments, wait);
    }

    /**
     * Submits a call of this coarse-fences function on a free session and returns its future, which
     * is the session's record of the call: completed with {@code decoder}'s value when the call's
     * signal fence is reached, without a second future; see {@link IreeSession} ("Asynchronous
     * calls").
     *
     * @throws UnsupportedOperationException when the function takes no fences (the message names
     *     its asynchronous twin, if the module exports one), or may reach a {@code vm.yield}
     */
    @Override
    public <T> FencedFuture<T> submitAsync(
        VmList arguments,
        Fence wait,
        java.util.function.Function<? super VmList, ? extends T> decoder) {
      return calls.submitAsync(this, arguments, wait, decoder, arguments);
    }

    /** E.g. {@code module.add 0rr_r}, or {@code module.add 0rr_r (pool of 4)}. */
    @Override
    public String toString() {
      return calls.pooled
          ? bySession[0] + " (pool of " + bySession.length + ")"
          : bySession[0].toString();
    }
  }
}
