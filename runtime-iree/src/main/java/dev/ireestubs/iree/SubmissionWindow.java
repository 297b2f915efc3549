package dev.ireestubs.iree;

import java.util.ArrayDeque;

/**
 * The window of one session's asynchronous calls on the device: how many it hands the device at
 * once ({@link #size(Device, int)}), how many are there now, and the encoded calls waiting for
 * room, in order. A count and a queue, nothing more: the {@link CallPath} decides when a call
 * enters ({@link #enter}), leaves ({@link #leave}) or waits ({@link #queue}), and submits what
 * {@link #nextQueued} gives it. Touches no native state and no call but the queue's links; guarded
 * by the session's lock.
 */
final class SubmissionWindow {

  /**
   * How many calls a device of local-task is handed at once, shared out among the sessions on it.
   * IREE's task executor keeps at most 63 outstanding waits ({@code
   * IREE_TASK_EXECUTOR_MAX_OUTSTANDING_WAITS}, task/tuning.h) and fails the queue for good when a
   * submission needs more; every call in flight holds about one (measured: 48 calls of micro_speech
   * in flight run, 64 fail the device). Unbounded on local-sync, which waits for nothing.
   */
  static final int LOCAL_TASK_WINDOW = 32;

  /**
   * How many asynchronous calls each of {@code sessions} sessions sharing one device of {@code
   * device}'s driver hands it at once: {@link #LOCAL_TASK_WINDOW} shared out on local-task (at
   * least 1 each), unbounded on local-sync.
   */
  static int size(Device device, int sessions) {
    return device == Device.LOCAL_SYNC
        ? Integer.MAX_VALUE
        : Math.max(1, LOCAL_TASK_WINDOW / Math.max(1, sessions));
  }

  private final int size;

  /** Calls on the device now. */
  private int submitted;

  /** Encoded calls waiting for room in the window, in order. */
  private final ArrayDeque<InFlight<?>> queued = new ArrayDeque<>();

  /** A window of {@code size} calls (see {@link #size(Device, int)}). */
  SubmissionWindow(int size) {
    this.size = size;
  }

  /** Whether one more call may go to the device now. */
  boolean hasRoom() {
    return submitted < size;
  }

  /** A call went to the device. */
  void enter() {
    submitted++;
  }

  /** A call on the device completed or was lost. */
  void leave() {
    submitted--;
  }

  /** Queues an encoded call until the window has room. */
  void queue(InFlight<?> call) {
    queued.add(call);
  }

  /** The oldest queued call, taken off the queue, when the window has room; else null. */
  InFlight<?> nextQueued() {
    return submitted < size ? queued.poll() : null;
  }

  /** Takes {@code call} off the queue, if it is there (a close). */
  void unqueue(InFlight<?> call) {
    queued.remove(call);
  }
}
