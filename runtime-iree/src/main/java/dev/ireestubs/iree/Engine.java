package dev.ireestubs.iree;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vmfb.VmfbModule;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What an {@link IreeSession} and an {@link IreeSessionPool} are made of: a fixed number of IREE
 * sessions ({@link NativeSession}) on one device, over one set of modules, with one recorder. A
 * session is an engine of one; a pool an engine of many, each call on a free session. The engine
 * makes and owns the parts, looks functions up, and closes; what it is made of, each written once
 * for sessions and pools: its {@link EngineLoading} (loading and parameters, which the faces reach
 * through {@link #loading()}), its {@link EngineCalls} (the checks of a call, the seats, the
 * recording, and the functions users get), its {@link Seats}, its {@link ModuleLoader} (what is
 * loaded) and its {@link CallRecorder} (statistics). Those parts do not name the engine: what they
 * need of it they are given when it makes them.
 *
 * <p><b>Shared.</b> The device, and each module: its bytes are copied once into native memory and
 * made into one IREE module ({@link SharedModule}) that every session appends, as they append one
 * parameters module. Each session has its own context state, marshaller and call path.
 *
 * <p><b>Calls.</b> Each call is checked once, by the engine's {@link EngineCalls} (the arguments
 * against the calling convention, and that an asynchronous call's function takes fences), then runs
 * on a session: an engine of one has no seats (its session's lock orders its calls, and a
 * synchronous call waiting for its fence lets others run), a pool takes a free session first
 * ({@link Seats}), in the order the calls came, at most its {@code maxWait}. Whether the session is
 * open is checked once, under its lock, by its call path.
 *
 * <p><b>Lifetime.</b> {@link #close} refuses new calls, loads and lookups, wakes the calls waiting
 * for a seat, and closes each session ({@link NativeSession#close}); the device and the modules go
 * once the last session's native state is released ({@link Retention}), and then the engine drops
 * its hold on the runtime's instance.
 */
final class Engine {

  private final RuntimeNatives runtime;
  private final Device device;

  /** How messages name the engine's face: "the IREE session (local-sync)". */
  private final String what;

  private final List<NativeSession> sessions;
  private final Seats seats;
  private final CallRecorder recorder;
  private final ModuleLoader loader;
  private final EngineLoading loading;
  private final EngineCalls calls;
  private final Map<String, EngineCalls.Function> functions = new ConcurrentHashMap<>();
  private final MemorySegment halDevice; // the engine's reference; released with the retention

  /**
   * The device and the modules the sessions share: held by every session until its native state is
   * released, so freed only after the last one is. Holds the runtime's instance until then.
   */
  private final Retention retention;

  private volatile boolean closed;

  /**
   * @param backend the recorder's backend name ({@code iree-session}, {@code iree-pool})
   * @param noun how messages name the face: "session" or "pool"
   * @param size how many sessions
   * @param pooled whether calls take a seat (a pool, also of one) or go to the session directly
   * @param maxWaitNanos how long a pooled call waits for a seat; negative: without bound
   */
  Engine(
      RuntimeNatives runtime,
      Device device,
      String backend,
      String noun,
      int size,
      boolean pooled,
      long maxWaitNanos) {
    this.runtime = runtime;
    this.device = Objects.requireNonNull(device, "device");
    this.what =
        "the IREE " + (pooled ? "session pool" : "session") + " (" + device.driverName() + ")";
    this.seats = new Seats(what, size, pooled, maxWaitNanos);
    this.loader = new ModuleLoader(runtime.api(), device.driverName());
    ModuleLoader names = loader; // the MXBean must not hold the engine or its face
    this.recorder = CallRecorder.create(backend, device.driverName(), names::moduleNames);
    this.halDevice = SessionNatives.createDevice(runtime, device.driverName());
    runtime.retention().retain();
    this.retention = new Retention(what, this::release);
    List<NativeSession> made = new ArrayList<>(size);
    try {
      int window = SubmissionWindow.size(device, size);
      for (int i = 0; i < size; i++) {
        made.add(
            new NativeSession(
                runtime, device.driverName(), halDevice, window, retention, recorder));
      }
    } catch (RuntimeException | Error e) {
      made.forEach(s -> s.close(0));
      retention.release();
      throw e;
    }
    this.sessions = List.copyOf(made);
    this.loading =
        new EngineLoading(
            runtime,
            device.driverName(),
            sessions,
            loader,
            noun,
            this::checkOpen,
            () -> close(Duration.ZERO));
    this.calls = new EngineCalls(sessions, seats, recorder, loader, pooled);
  }

  /** Registers the statistics as an MXBean of {@code owner}, the engine's face. */
  void register(Object owner) {
    recorder.register(owner);
  }

  // ----------------------------------------------------------------------------------------------
  // Loading and the modules loaded

  /** How modules are loaded and parameters bound into the sessions (the faces' loading). */
  EngineLoading loading() {
    return loading;
  }

  List<VmfbModule> modules() {
    return loader.modules();
  }

  List<String> functionNames() {
    return loader.functionNames();
  }

  /**
   * The names of the loaded modules, in load order (the source of one the reader could not read).
   */
  List<String> moduleNames() {
    return loader.moduleNames();
  }

  /** Where each module came from, in load order. */
  List<String> sources() {
    return loader.sources();
  }

  // ----------------------------------------------------------------------------------------------
  // Functions

  /**
   * The exported function {@code name} ({@code module.function}, or the function's name alone when
   * one loaded module exports it: {@link ModuleBackend#qualify}), looked up in every session, once.
   */
  Optional<BackendFunction> lookup(String name) {
    Objects.requireNonNull(name, "name");
    checkOpen("look up " + name);
    EngineCalls.Function named = functions.get(name);
    if (named != null) {
      return Optional.of(named);
    }
    String qualifiedName = ModuleBackend.qualify(name, functionNames());
    EngineCalls.Function cached = functions.get(qualifiedName);
    if (cached != null) {
      return Optional.of(cached);
    }
    int dot = qualifiedName.indexOf('.');
    if (dot <= 0 || dot == qualifiedName.length() - 1) {
      return Optional.empty();
    }
    List<VmfbModule> read = loader.modules();
    IreeFunction[] each = new IreeFunction[sessions.size()];
    for (int i = 0; i < each.length; i++) {
      each[i] = sessions.get(i).lookup(qualifiedName, read);
      if (each[i] == null) {
        return Optional.empty();
      }
    }
    EngineCalls.Function made = calls.function(each);
    EngineCalls.Function raced = functions.putIfAbsent(qualifiedName, made);
    return Optional.of(raced != null ? raced : made);
  }

  /** Takes a free session (see {@link Seats}); its index. */
  int take(String name) {
    return seats.take(name);
  }

  /** Returns a session {@link #take} took. */
  void giveBack(int index) {
    seats.giveBack(index);
  }

  /** How many calls wait for a free session now (tests). */
  int waiting() {
    return seats.waiting();
  }

  private void checkOpen(String action) {
    if (closed) {
      throw new IllegalStateException(what + " is closed: " + action);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // State and close

  int size() {
    return sessions.size();
  }

  Device device() {
    return device;
  }

  CallStatistics statistics() {
    return recorder.statistics();
  }

  /** The name the statistics are registered under, or null (tests). */
  String objectName() {
    return recorder.objectName();
  }

  /** Session {@code index} (tests). */
  NativeSession session(int index) {
    return sessions.get(index);
  }

  boolean isClosed() {
    return closed;
  }

  /**
   * Closes the engine, giving asynchronous calls in flight up to {@code timeout} in all: see {@link
   * IreeSession#close(Duration)}.
   *
   * @return false when it was closed already
   */
  boolean close(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    synchronized (this) {
      if (closed) {
        return false;
      }
      closed = true; // no new calls, loads or lookups
    }
    seats.close(); // wakes every waiting call: each finds the engine closed
    long deadline = System.nanoTime() + nanos(timeout);
    int onDevice = 0;
    for (NativeSession session : sessions) {
      long left = Math.max(0, deadline - System.nanoTime());
      onDevice += session.close(TimeUnit.NANOSECONDS.toMillis(left));
    }
    functions.clear();
    if (onDevice > 0) {
      System.getLogger(Engine.class.getName())
          .log(
              System.Logger.Level.INFO,
              "iree-stubs: closed "
                  + what
                  + " while the device still ran "
                  + onDevice
                  + " of its calls (their futures failed); its native state is released when the"
                  + " device has finished them");
    }
    recorder.unregister();
    retention.release(); // the device and modules: now, or when the last session is released
    return true;
  }

  /** {@code timeout} in nanoseconds, at most {@link Long#MAX_VALUE}; a negative one is zero. */
  static long nanos(Duration timeout) {
    if (timeout.isNegative()) {
      return 0;
    }
    try {
      return timeout.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * Frees what the sessions shared, once the last of them is released: the device first (its
   * destruction waits until its queues are idle), then the modules (IREE aborts when it destroys a
   * module whose constants device work still uses: see {@link SessionNatives#release()}), then
   * their bytes; then the hold on the runtime's instance.
   */
  private void release() {
    runtime.api().sessions().halDeviceRelease(halDevice.address());
    loading.release();
    runtime.retention().release();
  }
}
