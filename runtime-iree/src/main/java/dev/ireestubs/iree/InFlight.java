package dev.ireestubs.iree;

import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.vm.VmList;
import java.util.concurrent.CompletableFuture;

/**
 * One call of a coarse-fences function between its submission and its completion: its signal fence,
 * the native result list IREE filled when the call was submitted (whose buffers hold the results
 * once the fence is reached), and the future of its decoded results. Its native parts are touched
 * only under the session's lock; the waiter reads {@link #signal}'s semaphore while the call is
 * pending, and nothing releases it meanwhile (see {@link FenceWaiter}).
 */
final class InFlight {

  final IreeFunction function;
  final NativeFence signal;
  final CompletableFuture<VmList> results = new CompletableFuture<>();

  /**
   * True for a synchronous call whose caller waits for {@link #results}: completed on the waiter's
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
   * Completes the signal fence's stage, then the results future; results that find the future
   * already done (cancelled) are closed.
   */
  void deliver() {
    signal.publish();
    if (failure != null) {
      results.completeExceptionally(failure);
    } else if (!results.complete(decoded) && decoded != null) {
      decoded.close();
    }
    decoded = null;
  }
}
