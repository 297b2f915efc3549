package dev.ireestubs.iree;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * The task that delivers a batch of completed calls ({@link InFlight#deliverAll}) on the completion
 * pool, reused from batch to batch: {@link ForkJoinPool#execute(Runnable)} wraps any other {@link
 * Runnable} in a task object of its own, 24 bytes a batch of the 512 an asynchronous submission may
 * cost (issue #36). The session's fence waiter alone hands batches over ({@link CallPath#complete},
 * on its thread): it reuses the last task once the pool has finished running it, and makes a new
 * one while the pool still holds the last (a batch still being delivered). The rare deliveries made
 * elsewhere (a call that failed before it ran, calls lost to a failed wait) take a new task each.
 */
final class Deliveries extends ForkJoinTask<Void> {

  private static final long serialVersionUID = 1L;

  /** The calls to deliver, chained through {@link InFlight#nextDone}; taken by {@link #exec}. */
  private transient InFlight<?> batch;

  /**
   * Hands {@code batch} to {@code pool} in {@code last} when the pool is done with it, else in a
   * new task; returns the task that carries it, to pass as {@code last} next time.
   */
  static Deliveries hand(Deliveries last, InFlight<?> batch, ForkJoinPool pool) {
    Deliveries task;
    if (last != null && last.isDone()) {
      last.reinitialize(); // run and finished: nobody joins it, so it may run again
      task = last;
    } else {
      task = new Deliveries();
    }
    task.batch = batch;
    pool.execute(task);
    return task;
  }

  /** Hands {@code batch} to {@code pool} in a new task (the rare deliveries: see above). */
  static void handAlone(InFlight<?> batch, ForkJoinPool pool) {
    Deliveries task = new Deliveries();
    task.batch = batch;
    pool.execute(task);
  }

  @Override
  protected boolean exec() {
    InFlight<?> calls = batch;
    batch = null;
    try {
      InFlight.deliverAll(calls);
    } catch (RuntimeException | Error e) { // as the pool's own wrapper of a Runnable reports it
      Thread thread = Thread.currentThread();
      thread.getUncaughtExceptionHandler().uncaughtException(thread, e);
    }
    return true;
  }

  @Override
  public Void getRawResult() {
    return null;
  }

  @Override
  protected void setRawResult(Void value) {}
}
