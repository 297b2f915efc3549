package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.vm.VmList;
import java.lang.foreign.MemorySegment;

/**
 * Where a session's calls reach IREE: encodes a call's arguments into the native list IREE is
 * invoked with, invokes the function ({@code iree_runtime_session_call}), reads the results back
 * and releases the lists. The {@link CallPath} decides when; this class does the native work, the
 * one place each of these steps happens, for synchronous and asynchronous calls.
 *
 * <p>It touches the session's native handle ({@link SessionNatives}), the session's {@link
 * Marshaller}, a scratch ref it allocates once in the session's arena, and a call's native {@link
 * InFlight#list} and {@link InFlight#submitted} flag; nothing of the call path's bookkeeping (calls
 * in flight, window, waiter). Every method runs under the session's lock, held by the caller, and
 * allocates nothing of its own beyond what the marshaller makes of the values.
 */
final class SessionInvoker {

  private final SessionNatives session;
  private final Native api;
  private final Marshaller marshaller;
  private final MemorySegment ref;
  private final long fenceType;

  /** The invoker of {@code session}'s calls, encoding with {@code marshaller}. */
  SessionInvoker(SessionNatives session, Marshaller marshaller) {
    this.session = session;
    this.api = session.api();
    this.marshaller = marshaller;
    this.ref = session.arena().allocate(Layouts.VM_REF);
    this.fenceType = api.fences().fenceRefType();
  }

  /**
   * A synchronous call of a function that takes no fences: encodes the arguments, invokes, reads
   * the results, and releases both lists. Under the lock, the session checked open.
   *
   * @throws IreeValueException (an argument) when IREE cannot take an argument
   * @throws IreeInvocationException when IREE's invoke fails
   */
  VmList invoke(IreeFunction function, VmList arguments) {
    marshaller.begin(function.qualifiedName());
    long inputs = 0;
    long outputs = 0;
    try {
      // Inside the try: an argument IREE refuses still ends the call (its heap copies freed).
      inputs = marshaller.toNative(arguments);
      outputs = marshaller.newList(0L, function.resultCount());
      call(function, inputs, outputs);
      return marshaller.fromNative(outputs);
    } finally {
      if (inputs != 0) {
        api.lists().listRelease(inputs);
      }
      if (outputs != 0) {
        api.lists().listRelease(outputs);
      }
      marshaller.end();
    }
  }

  /**
   * Encodes {@code call}'s arguments under the lock, as the list IREE is invoked with: the
   * arguments, then a null wait fence (a call is submitted once its wait fence is reached: see
   * {@link CallPath}) and the call's signal fence. Memory IREE imports stays pinned while the list
   * holds it, so a deferred call keeps its arguments valid until it runs.
   *
   * @throws IreeValueException (an argument) when IREE cannot take an argument
   */
  void encode(InFlight<?> call, VmList arguments) {
    String name = call.function.qualifiedName();
    marshaller.begin(name);
    try {
      call.list = marshaller.toNative(arguments);
      pushFence(call.list, 0, name);
      pushFence(call.list, call.signal().handle(), name);
    } catch (RuntimeException | Error e) {
      release(call);
      throw e;
    } finally {
      marshaller.end();
    }
  }

  /**
   * Submits an encoded call under the lock: the invoke. On success {@code call.list} holds the
   * result list IREE filled (its buffers complete when the signal fence is reached) in place of the
   * inputs, which are released either way.
   *
   * @throws IreeInvocationException when IREE's invoke fails
   */
  void submit(InFlight<?> call) {
    long inputs = call.list;
    call.list = 0;
    long outputs = 0;
    marshaller.begin(call.function.qualifiedName());
    try {
      outputs = marshaller.newList(0L, call.function.resultCount());
      call(call.function, inputs, outputs);
      call.list = outputs;
      call.submitted = true;
    } catch (RuntimeException e) {
      if (outputs != 0) {
        api.lists().listRelease(outputs);
      }
      throw e;
    } finally {
      if (inputs != 0) {
        api.lists().listRelease(inputs);
      }
      marshaller.end();
    }
  }

  /**
   * The results of a submitted call whose signal fence was reached, read from its result list
   * (which stays the call's until {@link #release}). Under the lock.
   *
   * @throws RuntimeException when the results do not decode
   */
  VmList results(InFlight<?> call) {
    marshaller.begin(call.function.qualifiedName());
    try {
      return marshaller.fromNative(call.list);
    } finally {
      marshaller.end();
    }
  }

  /** Releases the native list a call holds (its inputs before submission, else its outputs). */
  void release(InFlight<?> call) {
    if (call.list != 0) {
      api.lists().listRelease(call.list);
      call.list = 0;
    }
  }

  /** {@code iree_runtime_session_call}, its failure an {@link IreeInvocationException}. */
  private void call(IreeFunction function, long inputs, long outputs) {
    long status = api.sessions().sessionCall(session.handle(), function.handle(), inputs, outputs);
    if (status != 0) {
      int code = IreeStatusCode.codeOf(status);
      String text = api.status().consumeStatus(status);
      throw new IreeInvocationException(
          function.qualifiedName()
              + " failed in IREE's runtime ("
              + IreeStatusCode.describe(code)
              + "): "
              + text,
          code);
    }
  }

  /** Pushes a {@code hal.fence} ref (retained by the list; a null ref for 0). */
  private void pushFence(long list, long fence, String name) {
    ref.set(JAVA_LONG, Layouts.VM_REF_PTR, fence);
    ref.set(JAVA_LONG, Layouts.VM_REF_TYPE, fenceType);
    api.status()
        .check(
            api.lists().listPushRefRetain(list, ref),
            name,
            "fences",
            "iree_vm_list_push_ref_retain");
  }
}
