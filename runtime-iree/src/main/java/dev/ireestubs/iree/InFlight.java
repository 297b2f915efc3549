package dev.ireestubs.iree;

import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.vm.VmList;
import java.util.function.Function;

/**
 * One call of a coarse-fences function between its submission and its completion: its signal fence,
 * the native result list IREE filled when the call was submitted (whose buffers hold the results
 * once the fence is reached), and, being a {@link FencedFuture}, the caller's future of the decoded
 * results: what {@link dev.ireestubs.invoke.BackendFunction#submitAsync} returns (or, with the
 * identity for a decoder, the {@code results} of the {@link dev.ireestubs.invoke.AsyncCall} that
 * {@code invokeAsync} returns). Its native parts are touched only under the session's lock; the
 * waiter reads {@link #signal()}'s semaphore while the call is pending, and nothing releases it
 * meanwhile (see {@link FenceWaiter}).
 *
 * <p>Why one object is the record, the caller's future, a node of two lists and a task: an
 * asynchronous submission may cost at most 512 bytes of heap (issue #36), and a second future with
 * the dependent stage that filled it, a {@code LinkedHashSet} entry, a queue node and a task per
 * call were half of that. So the call is the caller's future itself, decoded and completed by
 * {@link FencedFuture#completeCall} when the call is over ({@link #deliver()}); it links itself
 * into the call path's list of calls in flight ({@link #previous}, {@link #next}: {@link
 * InFlightList}), into the waiter's stack of new calls ({@link #nextIncoming}) and into a batch of
 * completed calls ({@link #nextDone}), which one task delivers on the completion executor ({@link
 * #deliverAll}, in a {@link Deliveries} task, which the session reuses). (Not a {@link Runnable}
 * itself: the caller holds this future, and must not be able to deliver it.) Each link field
 * belongs to one owner, named on the field.
 *
 * @param <T> the decoded result's type
 */
final class InFlight<T> extends FencedFuture<T> {

  final IreeFunction function;

  /**
   * True for a synchronous call whose caller waits for this future: completed on the waiter's
   * thread, where completing only wakes the caller.
   */
  final boolean direct;

  /**
   * The {@code iree_vm_list_t*} the call owns, one at a time: the arguments with the fences from
   * encoding to submission (it holds what the arguments' memory IREE imported: a deferred call
   * keeps it meanwhile), then the results IREE fills from submission until they are read; 0 when
   * none. One field for both: they never live at once past the invoke, and 8 bytes a call count
   * (issue #36).
   */
  long list;

  /** False while the call waits for its wait fence before it is submitted (local-sync). */
  boolean submitted;

  /**
   * True once a close gave up on the call while the device still runs it: its future is failed, and
   * its native parts ({@link #signal}'s fence, the results {@link #list}) are released only when
   * the device reaches or fails the signal fence (under the lock).
   */
  boolean abandoned;

  /** Links of {@link InFlightList} (the call path's calls in flight); under the session's lock. */
  InFlight<?> previous;

  InFlight<?> next;

  /** Whether the call is in the call path's {@link InFlightList}; under the session's lock. */
  boolean listed;

  /**
   * The call added to the waiter before this one and not taken by its thread yet ({@link
   * FenceWaiter}'s stack of new calls): written before the push publishes it, read by the thread
   * after it took the stack.
   */
  InFlight<?> nextIncoming;

  /**
   * The next call of the batch {@link #deliverAll} delivers: set under the lock when the batch is
   * made, read by the completion executor after it is handed over.
   */
  InFlight<?> nextDone;

  /** Turns the result list into this future's value, on the thread that delivers the call. */
  private final Function<? super VmList, ? extends T> decoder;

  /**
   * The caller's arguments, whose call copies are ended once the call is over ({@link #deliver()});
   * null when the caller ends them itself (a synchronous call, {@code invokeAsync}) or once ended.
   */
  private VmList arguments;

  /**
   * The result list ({@link VmList}) or why the call failed ({@link RuntimeException}); set when
   * the call completes (under the lock), taken by {@link #deliver()}. One field for either.
   */
  private Object outcome;

  /** When an asynchronous call started, its JFR event and its bytes in: what is recorded. */
  private long start;

  private Object event;
  private long bytesIn;

  /**
   * A call of {@code function} whose signal fence is {@code signal}; {@code direct} for a
   * synchronous call. {@code decoder} makes the future's value of the results; {@code arguments},
   * when not null, have their call copies ended when the call is over.
   */
  InFlight(
      IreeFunction function,
      NativeFence signal,
      boolean direct,
      Function<? super VmList, ? extends T> decoder,
      VmList arguments) {
    super(signal);
    this.function = function;
    this.direct = direct;
    this.decoder = decoder;
    this.arguments = arguments;
  }

  /** A synchronous call's record, whose future is the result list. */
  static InFlight<VmList> direct(IreeFunction function, NativeFence signal) {
    return new InFlight<>(function, signal, true, Function.identity(), null);
  }

  /** The call's signal fence, a fence of this session. */
  @Override
  public NativeFence signal() {
    return (NativeFence) super.signal();
  }

  /** What {@link #outcome} records of an asynchronous call: taken at {@code start}. */
  void record(long start, Object event, long bytesIn) {
    this.start = start;
    this.event = event;
    this.bytesIn = bytesIn;
  }

  /**
   * Records the outcome (under the lock), the moment the fence is seen reached or failed, and for
   * an asynchronous call records its end with {@code recorder} (statistics and JFR event); called
   * once a call. {@link #deliver()} hands it on.
   */
  void outcome(VmList results, RuntimeException failed, CallRecorder recorder) {
    this.outcome = failed != null ? failed : results;
    if (!direct) { // a synchronous call's caller records it
      String name = function.qualifiedName();
      if (failed == null) {
        recorder.succeeded(name, start, event, bytesIn, CallRecorder.bytes(results), true);
      } else {
        recorder.failed(name, start, event, bytesIn, failed, true);
      }
      event = null;
    }
  }

  /**
   * Gives up on a submitted call at a close (under the lock): records {@code why} as its outcome
   * and its signal fence's, keeping every native part for the device; {@link #deliver()} then fails
   * the futures.
   */
  void abandon(RuntimeException why, CallRecorder recorder) {
    abandoned = true;
    signal().abandon(why);
    outcome(null, why, recorder);
  }

  /**
   * Completes the signal fence's stage, then this future ({@link FencedFuture#completeCall}: the
   * results decoded, or closed when the future is done already), then ends the arguments' call
   * copies. Once: a second delivery finds nothing left to hand on.
   */
  void deliver() {
    signal().publish();
    Object settled = outcome;
    VmList ending = arguments;
    outcome = null;
    arguments = null;
    if (settled instanceof RuntimeException failed) {
      completeCall(ending, null, failed, decoder);
    } else {
      completeCall(ending, (VmList) settled, null, decoder);
    }
  }

  /**
   * Delivers this call and the calls chained after it through {@link #nextDone}: the one task a
   * batch of completed calls costs the completion executor. Runs once per batch.
   */
  static void deliverAll(InFlight<?> first) {
    for (InFlight<?> call = first; call != null; ) {
      InFlight<?> after = call.nextDone;
      call.nextDone = null;
      try {
        call.deliver();
      } catch (Throwable t) { // one call's failure must not strand the calls after it in the batch
        call.completeExceptionally(t); // nothing when the future was completed before the throw
        Thread thread = Thread.currentThread();
        thread.getUncaughtExceptionHandler().uncaughtException(thread, t);
      }
      call = after;
    }
  }
}
