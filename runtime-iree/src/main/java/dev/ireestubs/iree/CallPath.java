package dev.ireestubs.iree;

import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * How an IREE session ({@link SessionNatives}) calls its functions: synchronously ({@link
 * #invoke}), and asynchronously for functions of the coarse-fences model ({@link #submitAsync}).
 * Every call is submitted in one place ({@link SessionInvoker#submit}, under the session's lock,
 * held only while submitting) and every asynchronous call completes in one place ({@link
 * #complete}, on the session's {@link FenceWaiter} thread).
 *
 * <p>An asynchronous call gets a new signal fence, is invoked with a null wait fence and that
 * signal fence, and returns at once; the waiter notices the fence, decodes the results under the
 * lock (results are read only once the fence is reached) and hands the futures to the completion
 * executor ({@link ForkJoinPool#commonPool()}), where dependent stages run.
 *
 * <p>A call whose wait fence is not reached yet is not handed to IREE with it: IREE v3.11's CPU
 * drivers (local-sync and local-task) wait for a submission's wait semaphores on the submitting
 * thread, inside the invoke ({@code queue_alloca}, the first queue operation of every compiled
 * function, does a host wait: "TODO(benvanik): queue-ordered allocations"; local-sync runs all work
 * inside the invoke), which would block the caller and the session's lock. Such a call is submitted
 * by the completion executor once its wait fence is reached (and fails without running when the
 * fence fails): the calls of a chain run in order, the host taking one step between them, and no
 * thread blocks meanwhile.
 *
 * <p>What it is made of: the call path keeps the bookkeeping of the session's calls (those in
 * flight, the fences it makes, the waiter, the delivery of outcomes, the close) and decides when a
 * call goes to IREE; the native work of a call (encoding, the invoke, reading the results) is the
 * {@link SessionInvoker}'s, and how many calls the device gets at once the {@link
 * SubmissionWindow}'s. Both are its own, made with it, and know nothing of it. Of the session's
 * native state it touches directly only the fences (it makes them with its {@link Fences}, queries
 * and releases them) and the session's open check and count of calls left on the device; all under
 * the session's lock.
 */
final class CallPath implements FenceWaiter.Completer {

  private final SessionNatives session;
  private final Native api;
  private final ReentrantLock lock;
  private final Condition idle;
  private final SessionInvoker invoker;
  private final Fences fences;
  private final FenceWaiter waiter;
  private final ForkJoinPool completions = ForkJoinPool.commonPool();

  /** The task the last batch of completed calls went in; the fence waiter's thread's own. */
  private Deliveries deliveries;

  /** Records the asynchronous calls as they complete (a synchronous call's caller records it). */
  private final CallRecorder recorder;

  /**
   * How many calls of {@link #inFlight} the session hands to the device at once, and those waiting,
   * encoded, for room (guarded by the lock).
   */
  private final SubmissionWindow window;

  /** Asynchronous calls submitted or deferred and not completed (guarded by the lock). */
  private final InFlightList inFlight = new InFlightList();

  /**
   * The call path of the session {@code session}, encoding with {@code marshaller}, handing the
   * device at most {@code window} asynchronous calls at once ({@link SubmissionWindow#size}); its
   * fence waiter holds {@code hold} (the session's native state) while calls are on the device.
   */
  CallPath(
      SessionNatives session,
      Marshaller marshaller,
      Retention hold,
      int window,
      CallRecorder recorder) {
    this.session = session;
    this.api = session.api();
    this.lock = session.lock();
    this.idle = lock.newCondition();
    this.invoker = new SessionInvoker(session, marshaller);
    this.window = new SubmissionWindow(window);
    this.recorder = recorder;
    Arena arena = session.arena();
    this.fences = new Fences(session, arena);
    this.waiter = new FenceWaiter(session, hold, arena, this);
  }

  // ----------------------------------------------------------------------------------------------
  // Synchronous calls

  /** A call that returns its results: a coarse-fences function gets fences and is waited for. */
  VmList invoke(IreeFunction function, VmList arguments) {
    if (function.isCoarseFences()) {
      return invokeFenced(function, arguments);
    }
    lock.lock();
    try {
      session.checkOpenToCall(function.qualifiedName());
      return invoker.invoke(function, arguments);
    } finally {
      lock.unlock();
    }
  }

  /**
   * A synchronous call of a coarse-fences function: a null wait fence and a new signal fence, as
   * IREE's tools pass; when the fence is not reached as the invoke returns, the caller waits for
   * the waiter's completion (without the lock, so other calls go on meanwhile).
   */
  private VmList invokeFenced(IreeFunction function, VmList arguments) {
    String name = function.qualifiedName();
    InFlight<VmList> call;
    lock.lock();
    try {
      session.checkOpenToCall(name);
      call = InFlight.direct(function, fences.create(name));
      try {
        invoker.encode(call, arguments);
        if (window.hasRoom()) {
          invoker.submit(call);
        }
      } catch (RuntimeException | Error e) {
        call.signal().release(api, null);
        throw e;
      }
      inFlight.add(call);
      if (!call.submitted) {
        window.queue(call); // the device's window is full: submitted when a call completes
      } else {
        long status = api.fences().fenceQuery(call.signal().handle());
        if (status == 0) {
          inFlight.remove(call);
          finish(call, null); // reached in the invoke (local-sync): read the results now
          call.deliver();
          return joined(call);
        }
        api.status().freeStatus(status);
        window.enter();
        waiter.add(call);
      }
    } finally {
      lock.unlock();
    }
    return joined(call);
  }

  /** A synchronous call's results, or the failure its future completed with, as it was thrown. */
  private static VmList joined(InFlight<VmList> call) {
    try {
      return call.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Asynchronous calls

  /**
   * Submits a call of a coarse-fences function and returns its future at once (see the class
   * comment): the future is the call's record, completed with {@code decoder}'s value of the
   * results when the call is over, and then {@code ending}'s call copies are ended (unless null).
   * The call is recorded when it completes, timed from {@code start}. The function and arguments
   * are checked already (the engine checks every call once, sync or async).
   *
   * @throws dev.ireestubs.invoke.IreeValueException (an argument) when IREE cannot take an
   *     argument: nothing was submitted, and {@code ending}'s copies are still the caller's
   */
  <T> InFlight<T> submitAsync(
      IreeFunction function,
      VmList arguments,
      Fence wait,
      Function<? super VmList, ? extends T> decoder,
      VmList ending,
      long start,
      Object event) {
    String name = function.qualifiedName();
    lock.lock();
    try {
      session.checkOpenToCall(name);
      InFlight<T> call = new InFlight<>(function, fences.create(name), false, decoder, ending);
      call.record(start, event, CallRecorder.bytes(arguments));
      try {
        invoker.encode(call, arguments);
      } catch (RuntimeException | Error e) {
        call.signal().release(api, null);
        throw e; // arguments that IREE cannot take: thrown, as nothing was submitted
      }
      RuntimeException waitFailed = failure(wait);
      if (waitFailed != null) {
        fail(call, notRun(name, waitFailed));
        return call;
      }
      if (wait != null && !reached(wait)) {
        // IREE v3.11's CPU drivers would wait for it inside the invoke: submit once it is reached.
        inFlight.add(call);
        wait.whenReached()
            .whenCompleteAsync((reached, failure) -> submitLater(call, failure), completions);
        return call;
      }
      inFlight.add(call);
      submitOrQueue(call);
      return call;
    } finally {
      lock.unlock();
    }
  }

  /** A deferred call, submitted once its wait fence came out (on the completion executor). */
  private void submitLater(InFlight<?> call, Throwable waitFailure) {
    lock.lock();
    try {
      if (!inFlight.contains(call)) {
        return; // the session closed meanwhile and failed it
      }
      if (waitFailure == null) {
        submitOrQueue(call);
        return;
      }
      inFlight.remove(call);
      signalIfIdle();
      fail(call, notRun(call.function.qualifiedName(), unwrap(waitFailure)));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Submits an encoded call of {@link #inFlight} and hands it to the waiter, or queues it while the
   * {@link #window} is full; a call IREE refuses fails. Under the lock.
   */
  private void submitOrQueue(InFlight<?> call) {
    if (!window.hasRoom()) {
      window.queue(call);
      return;
    }
    try {
      invoker.submit(call);
    } catch (RuntimeException e) {
      inFlight.remove(call);
      signalIfIdle();
      fail(call, e);
      return;
    }
    window.enter();
    waiter.add(call);
  }

  /** Submits queued calls while the window has room (after calls completed). Under the lock. */
  private void submitQueued() {
    for (InFlight<?> call = window.nextQueued(); call != null; call = window.nextQueued()) {
      submitOrQueue(call);
    }
  }

  /** Whether {@code wait} is reached (for a fence of this session: as the device says now). */
  private boolean reached(Fence wait) {
    if (wait instanceof NativeFence own && own.session() == session && own.handle() != 0) {
      long status = api.fences().fenceQuery(own.handle());
      if (status != 0) {
        api.status().freeStatus(status);
        return false;
      }
      return true;
    }
    return wait.isReached();
  }

  /** Why {@code wait} failed, when it is known to have failed already; else null. */
  private static RuntimeException failure(Fence wait) {
    if (wait == null || wait.isReached()) {
      return null;
    }
    if (wait instanceof NativeFence own) {
      return own.failure();
    }
    var stage = wait.whenReached().toCompletableFuture();
    if (!stage.isCompletedExceptionally()) {
      return null;
    }
    try {
      stage.join();
      return null;
    } catch (CompletionException | java.util.concurrent.CancellationException e) {
      Throwable cause = unwrap(e);
      return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
    }
  }

  private static IreeInvocationException notRun(String name, Throwable cause) {
    return new IreeInvocationException(
        name + " did not run: the fence it waited for failed: " + cause, cause);
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  /** Fails a call that was never submitted (under the lock); delivered by the executor. */
  private void fail(InFlight<?> call, RuntimeException failure) {
    invoker.release(call);
    call.signal().release(api, failure);
    call.outcome(null, failure, recorder);
    Deliveries.handAlone(call, completions); // this call alone: its nextDone is null
  }

  // ----------------------------------------------------------------------------------------------
  // Completion: the one place it happens

  @Override
  public void complete(List<InFlight<?>> done, List<RuntimeException> failures) {
    InFlight<?> later = null; // the calls the completion executor delivers, chained (InFlight.run)
    lock.lock();
    try {
      for (int i = 0; i < done.size(); i++) {
        InFlight<?> call = done.get(i);
        finish(call, failures.get(i));
        inFlight.remove(call);
        window.leave();
        if (call.abandoned) {
          continue; // its futures failed at the close: only its native parts were left
        }
        if (call.direct) {
          call.deliver(); // a synchronous caller waits: completing only wakes it
        } else {
          call.nextDone = later; // done lists the newest first: the chain starts at the oldest
          later = call;
        }
      }
      submitQueued(); // calls accepted before a close run too, while it waits for them
      signalIfIdle();
    } finally {
      lock.unlock();
    }
    if (later != null) {
      deliveries = Deliveries.hand(deliveries, later, completions); // one task, the whole batch
    }
  }

  /**
   * Reads a finished call's results (when its fence was reached) and releases its native parts.
   * Under the lock.
   */
  private void finish(InFlight<?> call, RuntimeException failure) {
    if (call.abandoned) {
      call.signal().release(api, failure);
      invoker.release(call);
      session.leftDevice();
      return;
    }
    VmList results = null;
    if (failure == null) {
      try {
        results = invoker.results(call);
      } catch (RuntimeException e) {
        failure = e; // the fence was reached; the results do not decode
      }
      call.signal().release(api, null);
    } else {
      call.signal().release(api, failure);
    }
    invoker.release(call);
    call.outcome(results, failure, recorder);
  }

  @Override
  public void lose(List<InFlight<?>> lost, RuntimeException why) {
    InFlight<?> failed = null; // chained through InFlight.nextDone, delivered by one task
    lock.lock();
    try {
      for (InFlight<?> call : lost) {
        inFlight.remove(call);
        window.leave();
        if (!call.abandoned) {
          call.abandon(
              new IreeInvocationException(
                  call.function.qualifiedName() + ": waiting for the call failed: " + why, why),
              recorder);
          session.stayedOnDevice();
          call.nextDone = failed;
          failed = call;
        }
      }
      submitQueued();
      signalIfIdle();
    } finally {
      lock.unlock();
    }
    if (failed != null) {
      Deliveries.handAlone(failed, completions);
    }
  }

  private void signalIfIdle() {
    if (inFlight.isEmpty()) {
      idle.signalAll();
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Closing

  /**
   * Ends every call in flight, after the session stopped taking calls: waits up to {@code millis}
   * for them to complete, then fails the futures of the rest. A call not submitted yet is released
   * at once; one the device runs keeps its native parts, and the session's, until the device
   * reaches or fails its signal fence: the waiter finishes them, then ends and drops its hold on
   * the session (see {@link Retention}). Call without the lock.
   *
   * @return how many calls the device still runs (their futures failed)
   */
  int shutdown(long millis) {
    List<InFlight<?>> failed = new ArrayList<>();
    int onDevice = 0;
    lock.lock();
    try {
      try {
        awaitIdle(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // stop waiting: fail what is left
      }
      for (InFlight<?> call : inFlight.toList()) {
        RuntimeException why = closedWhileRunning(call, millis);
        inFlight.remove(call);
        if (call.submitted) {
          call.abandon(
              why, recorder); // the device runs it: the waiter releases it when the device is done
          session.stayedOnDevice();
          onDevice++;
        } else {
          window.unqueue(call);
          invoker.release(call);
          call.signal().release(api, why);
          call.outcome(null, why, recorder);
        }
        failed.add(call);
      }
      waiter.stopWhenIdle();
    } finally {
      lock.unlock();
    }
    failed.forEach(InFlight::deliver);
    return onDevice;
  }

  private IllegalStateException closedWhileRunning(InFlight<?> call, long millis) {
    return new IllegalStateException(
        call.function.qualifiedName()
            + ": the IREE session ("
            + session.driverName()
            + ") was closed while the call was "
            + (call.submitted ? "running" : "waiting to run")
            + ", after waiting "
            + millis
            + " ms for it");
  }

  /** Waits (releasing the lock) until no call is in flight, at most {@code millis}. */
  private void awaitIdle(long millis) throws InterruptedException {
    long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
    while (!inFlight.isEmpty() && nanos > 0) {
      nanos = idle.awaitNanos(nanos);
    }
  }

  /** How many asynchronous calls are in flight (tests). */
  int inFlightCount() {
    lock.lock();
    try {
      return inFlight.size();
    } finally {
      lock.unlock();
    }
  }
}
