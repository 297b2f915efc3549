package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An IREE runtime instance ({@code iree_runtime_instance_t}) in a loaded {@link IreeLibrary}, with
 * every HAL driver the library has: the factory of {@link IreeSession}s. One runtime serves any
 * number of sessions.
 *
 * <p>Thread-safe (IREE's instances are). {@link #close()} closes the sessions and pools it made
 * that are still open, then releases the instance, exactly once: at once when every session's
 * native state is released, else when the last one is (after the device finished the calls a close
 * gave up on: see {@link #callsStillOnDevice()}).
 */
public final class IreeRuntime implements AutoCloseable {

  private final IreeLibrary library;
  private final Native api;
  private final Arena arena = Arena.ofShared();
  private final MemorySegment instance;
  private final MemorySegment hostAllocator;
  private final Set<IreeSession> sessions = ConcurrentHashMap.newKeySet();
  private final Set<IreeSessionPool> pools = ConcurrentHashMap.newKeySet();
  private boolean closed; // guarded by this

  /**
   * The instance, its allocator, its retention (held by every session and pool until released) and
   * the calls of closed sessions that the device had not finished (see {@link
   * #callsStillOnDevice}): what the layers below receive.
   */
  private final RuntimeNatives natives;

  private IreeRuntime(IreeLibrary library) {
    this.library = library;
    this.api = library.api();
    try (Arena tmp = Arena.ofConfined()) {
      MemorySegment options = tmp.allocate(Layouts.INSTANCE_OPTIONS);
      api.sessions().instanceOptionsInitialize(options);
      api.sessions().instanceOptionsUseAllAvailableDrivers(options);
      // iree_allocator_system(): {NULL, the system allocator's control function}.
      MemorySegment system = tmp.allocate(Layouts.ALLOCATOR);
      system.set(ADDRESS, Layouts.ALLOCATOR_SELF, MemorySegment.NULL);
      system.set(ADDRESS, Layouts.ALLOCATOR_CTL, api.allocatorCtl());
      MemorySegment out = tmp.allocate(ADDRESS);
      api.status()
          .check(
              api.sessions().instanceCreate(options, system, out), "iree_runtime_instance_create");
      this.instance = out.get(ADDRESS, 0);
      this.hostAllocator = api.sessions().instanceHostAllocator(arena, instance);
    } catch (RuntimeException | Error e) {
      arena.close();
      throw e;
    }
    this.natives =
        new RuntimeNatives(
            api,
            instance,
            hostAllocator,
            new Retention("the IREE runtime instance", this::releaseInstance));
  }

  private void releaseInstance() {
    api.sessions().instanceRelease(instance);
    arena.close();
  }

  /**
   * A runtime in the library {@link IreeLibrary#load()} finds: named by the system property {@value
   * IreeLibrary#PROPERTY} or the environment variable {@value IreeLibrary#ENVIRONMENT_VARIABLE},
   * else in the native jar on the class path, else at the conventional location.
   *
   * @return a new runtime; close it to release IREE's instance
   * @throws IreeLibraryException when no usable library is configured
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE fails to create the instance
   */
  public static IreeRuntime create() {
    return create(IreeLibrary.load());
  }

  /**
   * A runtime in {@code library}.
   *
   * @param library a loaded IREE runtime library
   * @return a new runtime; close it to release IREE's instance
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE fails to create the instance
   */
  public static IreeRuntime create(IreeLibrary library) {
    return new IreeRuntime(Objects.requireNonNull(library, "library"));
  }

  /**
   * A new session on {@link Device#LOCAL_SYNC}.
   *
   * @return a new session with no modules loaded; close it when done
   */
  public IreeSession newSession() {
    return newSession(Device.LOCAL_SYNC);
  }

  /**
   * A new session on {@code device}, with no modules loaded yet.
   *
   * @param device the device the session runs on
   * @return a new session; close it when done
   * @throws dev.ireestubs.invoke.IreeInvocationException when the library lacks the device's
   *     driver, or IREE fails to create the session
   * @throws IllegalStateException when the runtime is closed
   */
  public IreeSession newSession(Device device) {
    return newSession(device, false);
  }

  IreeSession newSession(Device device, boolean ownsRuntime) {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the IREE runtime is closed: cannot open a session");
      }
      IreeSession session = new IreeSession(this, device, ownsRuntime);
      sessions.add(session);
      return session;
    }
  }

  /**
   * A new pool of sessions on {@code device} for calls from many threads at once, as many as this
   * machine has processors (at most the device's maximum), with no modules loaded yet; a call that
   * finds every session busy waits for one without bound. See {@link IreeSessionPool}.
   *
   * @param device the device every session of the pool runs on (one device, shared)
   * @return a new pool; load modules into it, and close it when done
   * @throws dev.ireestubs.invoke.IreeInvocationException when the library lacks the device's
   *     driver, or IREE fails to create the sessions
   * @throws IllegalStateException when the runtime is closed
   */
  public IreeSessionPool newPool(Device device) {
    return newPool(device, IreeSessionPool.defaultSize(device));
  }

  /**
   * A new pool of {@code size} sessions on {@code device}; a call that finds every session busy
   * waits for one without bound.
   *
   * @param device the device every session of the pool runs on (one device, shared)
   * @param size how many sessions: from 1 to {@value IreeSessionPool#MAX_SIZE} (to 32 on
   *     local-task)
   * @return a new pool; load modules into it, and close it when done
   * @throws IllegalArgumentException when {@code size} is out of range
   * @throws IllegalStateException when the runtime is closed
   */
  public IreeSessionPool newPool(Device device, int size) {
    return newPool(device, size, null, false);
  }

  /**
   * A new pool of {@code size} sessions on {@code device}; a call that finds every session busy
   * waits in turn at most {@code maxWait}, then fails with an {@link
   * dev.ireestubs.invoke.IreeInvocationException} of status {@code DEADLINE_EXCEEDED}.
   *
   * @param device the device every session of the pool runs on (one device, shared)
   * @param size how many sessions: from 1 to {@value IreeSessionPool#MAX_SIZE} (to 32 on
   *     local-task)
   * @param maxWait how long a call may wait for a free session; zero: fail at once when none is
   *     free
   * @return a new pool; load modules into it, and close it when done
   * @throws IllegalArgumentException when {@code size} is out of range or {@code maxWait} negative
   * @throws IllegalStateException when the runtime is closed
   */
  public IreeSessionPool newPool(Device device, int size, Duration maxWait) {
    return newPool(device, size, Objects.requireNonNull(maxWait, "maxWait"), false);
  }

  IreeSessionPool newPool(Device device, int size, Duration maxWait, boolean ownsRuntime) {
    Objects.requireNonNull(device, "device");
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the IREE runtime is closed: cannot open a pool");
      }
      IreeSessionPool pool = new IreeSessionPool(this, device, size, maxWait, ownsRuntime);
      pools.add(pool);
      return pool;
    }
  }

  /**
   * The library this runtime runs in.
   *
   * @return the library given when the runtime was created
   */
  public IreeLibrary library() {
    return library;
  }

  /**
   * The IREE release of the library this runtime runs in, e.g. {@code 3.11.0} or {@code
   * 3.12.0rc20260822}, as its {@code BUILD-INFO} records it (see {@link IreeLibrary#release()}).
   *
   * @return the release, or empty for a library without {@code BUILD-INFO}
   */
  public Optional<String> release() {
    return library.release();
  }

  /**
   * True once {@link #close()} has been called.
   *
   * @return true when the runtime is closed
   */
  public synchronized boolean isClosed() {
    return closed;
  }

  /**
   * How many calls of closed sessions and pools the device has not finished: a close that stops
   * waiting for a call fails its future at once but releases nothing the device may still use; the
   * call's native objects, its session's and this runtime's instance are kept until the device
   * reaches or fails the call's signal fence, and for good when it never does (a hung dispatch, a
   * failed device wait). Zero when every close found its calls finished or the device has since
   * finished them; a count that stays above zero is native memory kept on purpose.
   *
   * @return the number of such calls now
   */
  public int callsStillOnDevice() {
    return natives.stillOnDevice().get();
  }

  /**
   * Closes the pools and sessions this runtime made that are open, then releases the instance, once
   * (when the device still runs calls that a close gave up on, once it has finished them).
   */
  @Override
  public void close() {
    List<AutoCloseable> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = new ArrayList<>(pools);
      open.addAll(sessions);
    }
    RuntimeException failure = null;
    for (AutoCloseable s : open) {
      try {
        s.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    natives.retention().release();
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "IreeRuntime on "
        + library.path()
        + " (IREE "
        + library.release().orElse("of an unknown release")
        + ")"
        + (isClosed() ? " (closed)" : "");
  }

  void forget(IreeSession session) {
    sessions.remove(session);
  }

  void forget(IreeSessionPool pool) {
    pools.remove(pool);
  }

  /** The runtime's native state, which its sessions and pools receive. */
  RuntimeNatives natives() {
    return natives;
  }
}
