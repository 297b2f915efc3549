package dev.ireestubs.iree;

import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vmfb.VmfbModule;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One IREE session of an {@link Engine} (a session's only one, or one of a pool's): its native
 * state ({@link SessionNatives}), the marshaller and call path that work on it, and the session's
 * part of loading and lookup, each under the session's lock after its open check.
 *
 * <p>Lifetime ({@link Retention}): the engine holds the session until {@link #close}; the session's
 * fence waiter holds it while calls are on the device; the last hold dropped releases the native
 * session, then drops this session's hold on the engine's shared state ({@code parent}).
 */
final class NativeSession {

  private final SessionNatives natives;
  private final Marshaller marshaller;
  private final CallPath calls;
  private final Retention retention;
  private final Retention parent;

  /**
   * A new IREE session on the shared {@code device}, handing the device at most {@code window}
   * asynchronous calls at once, holding {@code parent} until its native state is released; its
   * asynchronous calls are recorded by {@code recorder} as they complete.
   */
  NativeSession(
      RuntimeNatives runtime,
      String driverName,
      MemorySegment device,
      int window,
      Retention parent,
      CallRecorder recorder) {
    this.natives = new SessionNatives(runtime, driverName, device);
    this.parent = parent;
    this.retention = new Retention("the IREE session (" + driverName + ")", this::release);
    parent.retain();
    this.marshaller = new Marshaller(natives, natives.arena()); // reused by every call, locked
    this.calls = new CallPath(natives, marshaller, retention, window, recorder);
  }

  /** Appends a module the engine made once; IREE runs its initialiser in this session. */
  void append(SharedModule module, ModuleLoader loader, Optional<Set<String>> boundScopes) {
    natives.lock().lock();
    try {
      natives.checkOpen("load " + module.source());
      long status =
          natives.api().parameters().sessionAppendModule(natives.handle(), module.handle());
      if (status != 0) {
        throw loader.loadFailure(status, module.source(), module.read(), boundScopes);
      }
    } finally {
      natives.lock().unlock();
    }
  }

  /** Appends the parameters module the engine built once ({@code io_parameters}). */
  void bindParameters(MemorySegment parametersModule) {
    natives.lock().lock();
    try {
      natives.checkOpen("bind parameters");
      natives
          .api()
          .status()
          .check(
              natives.api().parameters().sessionAppendModule(natives.handle(), parametersModule),
              "iree_runtime_session_append_module (io_parameters)");
    } finally {
      natives.lock().unlock();
    }
  }

  /**
   * The exported function {@code qualifiedName} as this session finds it, or null when IREE does
   * not find it; {@code modules} is what the reader saw in the loaded modules.
   *
   * @throws dev.ireestubs.invoke.IreeInvocationException when the lookup fails otherwise
   */
  IreeFunction lookup(String qualifiedName, List<VmfbModule> modules) {
    Native api = natives.api();
    natives.lock().lock();
    try (Arena tmp = Arena.ofConfined()) {
      natives.checkOpen("look up " + qualifiedName);
      MemorySegment found = tmp.allocate(Layouts.VM_FUNCTION);
      long status =
          api.sessions()
              .sessionLookupFunction(natives.handle(), StringViews.of(tmp, qualifiedName), found);
      if (status != 0) {
        if (IreeStatusCode.codeOf(status) == IreeStatusCode.NOT_FOUND.code()) {
          api.status().freeStatus(status);
          return null;
        }
        throw api.status().failure(status, "looking up " + qualifiedName);
      }
      MemorySegment handle = natives.arena().allocate(Layouts.VM_FUNCTION);
      handle.copyFrom(found);
      String cconv = StringViews.read(api.sessions().functionSignature(tmp, handle));
      Map<String, String> attributes =
          FunctionAttributes.read(api, tmp, handle, qualifiedName, modules);
      return new IreeFunction(
          qualifiedName,
          handle,
          cconv,
          attributes,
          FunctionAttributes.bytecodeTypes(qualifiedName, modules),
          FunctionAttributes.yieldReason(qualifiedName, modules));
    } finally {
      natives.lock().unlock();
    }
  }

  /** A synchronous call (checked by the engine; the call path checks that the session is open). */
  VmList invoke(IreeFunction function, VmList arguments) {
    return calls.invoke(function, arguments);
  }

  /**
   * An asynchronous call (checked by the engine), recorded when it completes: {@link
   * CallPath#submitAsync}.
   */
  <T> FencedFuture<T> submitAsync(
      IreeFunction function,
      VmList arguments,
      Fence wait,
      Function<? super VmList, ? extends T> decoder,
      VmList ending,
      long start,
      Object event) {
    return calls.submitAsync(function, arguments, wait, decoder, ending, start, event);
  }

  /**
   * Closes the session: refuses every later use (waiting for a running synchronous call, which
   * holds the lock), ends the calls in flight as {@link CallPath#shutdown} says, and drops the
   * engine's hold. Once.
   *
   * @return how many calls the device still runs (their futures failed)
   */
  int close(long millis) {
    natives.lock().lock();
    try {
      if (natives.isClosed()) {
        return 0;
      }
      natives.markClosed();
    } finally {
      natives.lock().unlock();
    }
    int onDevice = calls.shutdown(millis);
    retention.release(); // now, or by the fence waiter once the device is done
    return onDevice;
  }

  /** Releases the native session, on the thread that dropped the last hold. */
  private void release() {
    natives.lock().lock();
    try {
      marshaller.close();
      natives.release();
    } finally {
      natives.lock().unlock();
    }
    parent.release();
  }

  /** The call path (tests). */
  CallPath calls() {
    return calls;
  }

  /** The native state (tests). */
  SessionNatives natives() {
    return natives;
  }
}
