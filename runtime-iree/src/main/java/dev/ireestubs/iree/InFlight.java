package dev.ireestubs.iree;

import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.vm.VmList;
import java.util.concurrent.CompletableFuture;

/**
 * One call of a coarse-fences function between its submission and its completion: its signal fence,
 * the native result list IREE filled when the call was submitted (whose buffers hold the results
 * once the fence is reached), and, being a {@link CompletableFuture}, the future of its decoded
 * results (the {@code results} of the {@link dev.ireestubs.invoke.AsyncCall} the call path
 * returns). Its native parts are touched only under the session's lock; the waiter reads {@link
 * #signal}'s semaphore while the call is pending, and nothing releases it meanwhile (see {@link
 * FenceWaiter}).
 *
 * <p>Why one object is the record, the future, a node of two lists and a task: an asynchronous
 * submission may cost at most 512 bytes of heap (issue #36), and a separate future, a {@code
 * LinkedHashSet} entry, a queue node and a task per call were a third of that. So the call is the
 * results future itself; it links itself into the call path's list of calls in flight ({@link
 * #previous}, {@link #next}: {@link InFlightList}), into the waiter's stack of new calls ({@link
 * #nextIncoming}) and into a batch of completed calls ({@link #nextDone}); and it is the {@link
 * Runnable} that delivers such a batch on the completion executor ({@link #run}). Each link field
 * belongs to one owner, named on the field.
 */
final class InFlight extends CompletableFuture<VmList> implements Runnable {

  final IreeFunction function;
  final NativeFence signal;

  /**
   * True for a synchronous call whose caller waits for this future: completed on the waiter's
   * thread, where completing only wakes the caller.
   */
  final boolean direct;

  /**
   * {@code iree_vm_list_t*} of the arguments with the fences, owned from encoding to submission (it
   * holds what the arguments' memory IREE imported: a deferred call keeps it meanwhile).
   */
  long inputs;

  /** {@code iree_vm_list_t*} of the results, owned; 0 before submission and once released. */
  long outputs;

  /** False while the call waits for its wait fence before it is submitted (local-sync). */
  boolean submitted;

  /**
   * True once a close gave up on the call while the device still runs it: its future is failed, and
   * its native parts ({@link #signal}'s fence, {@link #outputs}) are released only when the device
   * reaches or fails the signal fence (under the lock).
   */
  boolean abandoned;

  /** Links of {@link InFlightList} (the call path's calls in flight); under the session's lock. */
  InFlight previous;

  InFlight next;

  /** Whether the call is in the call path's {@link InFlightList}; under the session's lock. */
  boolean listed;

  /**
   * The call added to the waiter before this one and not taken by its thread yet ({@link
   * FenceWaiter}'s stack of new calls): written before the push publishes it, read by the thread
   * after it took the stack.
   */
  InFlight nextIncoming;

  /**
   * The next call of the batch {@link #run} delivers: set under the lock when the batch is made,
   * read by the completion executor after it is handed over.
   */
  InFlight nextDone;

  /** The decoded results, or why the call failed; set when the call completes (under the lock). */
  private VmList decoded;

  private RuntimeException failure;

  /**
   * Records an asynchronous call when it completes; null for a synchronous one (its caller does).
   */
  private CallRecorder recorder;

  private long start;
  private Object event;
  private long bytesIn;

  InFlight(IreeFunction function, NativeFence signal, boolean direct) {
    this.function = function;
    this.signal = signal;
    this.direct = direct;
  }

  /** Has {@link #outcome} record the call with {@code recorder}, as taken at {@code start}. */
  void record(CallRecorder recorder, long start, Object event, long bytesIn) {
    this.recorder = recorder;
    this.start = start;
    this.event = event;
    this.bytesIn = bytesIn;
  }

  /**
   * Records the outcome (under the lock), the moment the fence is seen reached or failed: the
   * call's end for its statistics and JFR event. {@link #deliver()} hands it on.
   */
  void outcome(VmList results, RuntimeException failed) {
    this.decoded = results;
    this.failure = failed;
    if (recorder != null) {
      String name = function.qualifiedName();
      if (failed == null) {
        recorder.succeeded(name, start, event, bytesIn, CallRecorder.bytes(results), true);
      } else {
        recorder.failed(name, start, event, bytesIn, failed, true);
      }
      recorder = null;
      event = null;
    }
  }

  /**
   * Gives up on a submitted call at a close (under the lock): records {@code why} as its outcome
   * and its signal fence's, keeping every native part for the device; {@link #deliver()} then fails
   * the futures.
   */
  void abandon(RuntimeException why) {
    abandoned = true;
    signal.abandon(why);
    outcome(null, why);
  }

  /**
   * Completes the signal fence's stage, then this future; results that find the future already done
   * (cancelled) are closed.
   */
  void deliver() {
    signal.publish();
    VmList results = decoded;
    decoded = null;
    if (failure != null) {
      completeExceptionally(failure);
    } else if (!complete(results) && results != null) {
      results.close();
    }
  }

  /**
   * Delivers this call and the calls chained after it through {@link #nextDone}: the one task a
   * batch of completed calls costs the completion executor. Runs once per batch.
   */
  @Override
  public void run() {
    for (InFlight call = this; call != null; ) {
      InFlight after = call.nextDone;
      call.nextDone = null;
      call.deliver();
      call = after;
    }
  }
}
