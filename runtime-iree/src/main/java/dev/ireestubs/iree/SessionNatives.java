package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.ireestubs.invoke.IreeInvocationException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The native state of one IREE session ({@code iree_runtime_session_t}, one VM context), in one
 * place: its runtime's natives, the session, its device and allocator, the HAL ref types, the
 * buffer parameters and timeout every call passes, the session's arena, its lock, and whether it is
 * still open. What works on the session (the marshaller, the buffer transfer, the fences, the fence
 * waiter, the call path, the module loader) receives this at construction and reaches no further
 * up; it names neither a session nor a pool.
 *
 * <p>Every use of the native session is under {@link #lock()}, after {@link #checkOpen}: the close
 * marks it closed under the lock ({@link #markClosed()}) before anything is released, and the
 * release ({@link #release()}) takes the lock too, so a use that passed the check finishes before
 * the session goes.
 */
final class SessionNatives {

  private final RuntimeNatives runtime;
  private final String driverName;
  private final ReentrantLock lock = new ReentrantLock();
  private final Arena arena = Arena.ofShared();
  private final MemorySegment session;
  private final MemorySegment halDevice;
  private final MemorySegment deviceAllocator;
  private final Encodings.RefTypes refTypes;
  private final MemorySegment bufferParams;
  private final MemorySegment infiniteTimeout;

  private volatile boolean closed; // set under the lock

  /**
   * A new IREE session on {@code device} (which the session retains; the caller keeps its own
   * reference).
   */
  SessionNatives(RuntimeNatives runtime, String driverName, MemorySegment device) {
    this.runtime = runtime;
    this.driverName = driverName;
    Native api = runtime.api();
    try (Arena tmp = Arena.ofConfined()) {
      MemorySegment out = tmp.allocate(ADDRESS);
      MemorySegment options = tmp.allocate(Layouts.SESSION_OPTIONS);
      api.sessions().sessionOptionsInitialize(options);
      long status =
          api.sessions()
              .sessionCreateWithDevice(
                  runtime.instance(), options, device, runtime.hostAllocator(), out);
      api.status().check(status, "iree_runtime_session_create_with_device (" + driverName + ")");
      this.session = out.get(ADDRESS, 0);
    } catch (RuntimeException | Error e) {
      arena.close();
      throw e;
    }
    this.halDevice = api.sessions().sessionDevice(session);
    this.deviceAllocator = api.sessions().sessionDeviceAllocator(session);
    // The HAL types are registered once a session exists: read their ids now.
    this.refTypes = new Encodings.RefTypes(api.listRefType(), api.bufferViewRefType());
    this.bufferParams = arena.allocate(Layouts.BUFFER_PARAMS);
    bufferParams.set(JAVA_INT, Layouts.BUFFER_PARAMS_USAGE, Encodings.BUFFER_USAGE_DEFAULT);
    bufferParams.set(JAVA_SHORT, Layouts.BUFFER_PARAMS_ACCESS, Encodings.MEMORY_ACCESS_ALL);
    bufferParams.set(JAVA_INT, Layouts.BUFFER_PARAMS_TYPE, Encodings.MEMORY_TYPE_DEVICE_LOCAL);
    bufferParams.set(JAVA_LONG, Layouts.BUFFER_PARAMS_QUEUE_AFFINITY, Encodings.QUEUE_AFFINITY_ANY);
    bufferParams.set(JAVA_LONG, Layouts.BUFFER_PARAMS_MIN_ALIGNMENT, 0L);
    this.infiniteTimeout = arena.allocate(Layouts.TIMEOUT);
    infiniteTimeout.set(JAVA_INT, Layouts.TIMEOUT_TYPE, Encodings.TIMEOUT_ABSOLUTE);
    infiniteTimeout.set(JAVA_LONG, Layouts.TIMEOUT_NANOS, Long.MAX_VALUE);
  }

  /**
   * A new HAL device of {@code driverName} ({@code
   * iree_runtime_instance_try_create_default_device}); the caller owns the reference.
   */
  static MemorySegment createDevice(RuntimeNatives runtime, String driverName) {
    Native api = runtime.api();
    try (Arena tmp = Arena.ofConfined()) {
      MemorySegment out = tmp.allocate(ADDRESS);
      long status =
          api.sessions()
              .instanceTryCreateDefaultDevice(
                  runtime.instance(), StringViews.of(tmp, driverName), out);
      if (status != 0) {
        int code = IreeStatusCode.codeOf(status);
        String text = api.status().consumeStatus(status);
        throw new IreeInvocationException(
            "cannot create an IREE device with driver "
                + driverName
                + " ("
                + IreeStatusCode.describe(code)
                + "): "
                + text
                + ". The runtime library must be built with the "
                + driverName
                + " HAL driver",
            code);
      }
      return out.get(ADDRESS, 0);
    }
  }

  /**
   * Throws when the session is closed: {@code action} ends the message. Under the lock (that is
   * what makes it hold until the use ends).
   */
  void checkOpen(String action) {
    if (closed) {
      throw new IllegalStateException("the IREE session (" + driverName + ") is closed: " + action);
    }
  }

  /** {@link #checkOpen} for a call, with the message built only when the session is closed. */
  void checkOpenToCall(String function) {
    if (closed) {
      checkOpen(function + " cannot be called");
    }
  }

  /** Refuses every later use; under the lock. */
  void markClosed() {
    closed = true;
  }

  boolean isClosed() {
    return closed;
  }

  /**
   * Releases IREE's session and what it kept, on the thread that dropped the last hold (see {@link
   * Retention}), under the lock.
   *
   * <p>The context's modules are kept past the session and released in the context's order, the HAL
   * module first: IREE aborts the process when it destroys a module whose constant buffers
   * something still uses (device work the device has not retired: on local-task a failed fence is
   * failed before the work's resources are freed, and a fence failed by a caller does not stop the
   * work), while destroying the device, which the HAL module holds, first waits until its queues
   * are idle. So the modules go after the device's last work.
   */
  void release() {
    Native api = runtime.api();
    MemorySegment[] modules = api.sessions().retainModules(session);
    api.sessions().sessionRelease(session);
    for (MemorySegment module : modules) {
      api.parameters().vmModuleRelease(module); // the HAL module first: see above
    }
    arena.close();
  }

  RuntimeNatives runtime() {
    return runtime;
  }

  Native api() {
    return runtime.api();
  }

  String driverName() {
    return driverName;
  }

  /** The session's lock: every call, lookup and load is made under it. */
  ReentrantLock lock() {
    return lock;
  }

  /** Native memory that lives as long as the session (scratch structs, function handles). */
  Arena arena() {
    return arena;
  }

  /** {@code iree_runtime_session_t*}. */
  MemorySegment handle() {
    return session;
  }

  MemorySegment hostAllocator() {
    return runtime.hostAllocator();
  }

  MemorySegment halDevice() {
    return halDevice;
  }

  MemorySegment deviceAllocator() {
    return deviceAllocator;
  }

  Encodings.RefTypes refTypes() {
    return refTypes;
  }

  MemorySegment bufferParams() {
    return bufferParams;
  }

  MemorySegment infiniteTimeout() {
    return infiniteTimeout;
  }

  /** A close gave up on a call the device runs. */
  void stayedOnDevice() {
    runtime.stillOnDevice().incrementAndGet();
  }

  /** The device finished a call a close gave up on. */
  void leftDevice() {
    runtime.stillOnDevice().decrementAndGet();
  }

  @Override
  public String toString() {
    return "IREE session natives (" + driverName + (closed ? ", closed)" : ")");
  }
}
