package dev.ireestubs.iree;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vmfb.VmfbModule;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * What an {@link IreeSession} and an {@link IreeSessionPool} are made of: a fixed number of IREE
 * sessions ({@link NativeSession}) on one device, over one set of modules, with one recorder. A
 * session is an engine of one; a pool an engine of many, each call on a free session. Loading,
 * parameters, lookup, the checks of a call, statistics and close are written here once.
 *
 * <p><b>Shared.</b> The device, and each module: its bytes are copied once into native memory and
 * made into one IREE module ({@link SharedModule}) that every session appends, as they append one
 * parameters module. Each session has its own context state, marshaller and call path.
 *
 * <p><b>Calls.</b> Each call is checked once, here ({@link #check}: the arguments against the
 * calling convention, and that an asynchronous call's function takes fences), then runs on a
 * session: an engine of one has no seats (its session's lock orders its calls, and a synchronous
 * call waiting for its fence lets others run), a pool takes a free session first ({@link #take}),
 * in the order the calls came, at most its {@code maxWait}. Whether the session is open is checked
 * once, under its lock, by its call path.
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

  /** "session" or "pool", for messages. */
  private final String noun;

  private final List<NativeSession> sessions;
  private final boolean pooled;
  private final Seats seats;
  private final CallRecorder recorder;
  private final ModuleLoader loader;
  private final Map<String, Function> functions = new ConcurrentHashMap<>();
  private final ReentrantLock loading = new ReentrantLock();
  private final List<SharedModule> modules = new ArrayList<>(); // guarded by loading
  private final MemorySegment halDevice; // the engine's reference; released with the retention

  /** The scopes bound by {@link #bindParameters}, once; empty before (guarded by loading). */
  private Optional<Set<String>> boundScopes = Optional.empty();

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
    this.noun = noun;
    this.what =
        "the IREE " + (pooled ? "session pool" : "session") + " (" + device.driverName() + ")";
    this.pooled = pooled;
    this.seats = new Seats(what, size, pooled, maxWaitNanos);
    this.loader = new ModuleLoader(runtime.api(), device.driverName());
    ModuleLoader names = loader; // the MXBean must not hold the engine or its face
    this.recorder = CallRecorder.create(backend, device.driverName(), names::moduleNames);
    this.halDevice = SessionNatives.createDevice(runtime, device.driverName());
    runtime.retention().retain();
    this.retention = new Retention(what, this::release);
    List<NativeSession> made = new ArrayList<>(size);
    try {
      int window = CallPath.window(device, size);
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
  }

  /** Registers the statistics as an MXBean of {@code owner}, the engine's face. */
  void register(Object owner) {
    recorder.register(owner);
  }

  // ----------------------------------------------------------------------------------------------
  // Loading and parameters

  /** Loads the module file {@code vmfb} into every session (see {@link IreeSession#load(Path)}). */
  void load(Path vmfb) throws IOException {
    Objects.requireNonNull(vmfb, "vmfb");
    if (!Files.isRegularFile(vmfb)) {
      throw new NoSuchFileException(
          vmfb.toString(),
          null,
          Files.exists(vmfb) ? "not a regular file; give the .vmfb file" : "no such module file");
    }
    ModuleLoader.Read read = ModuleLoader.Read.of(vmfb);
    try (Arena mapping = Arena.ofConfined();
        FileChannel channel = FileChannel.open(vmfb, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size == 0) {
        throw new IllegalArgumentException(vmfb + ": the module is empty (0 bytes)");
      }
      append(channel.map(FileChannel.MapMode.READ_ONLY, 0, size, mapping), vmfb.toString(), read);
    }
  }

  /** Loads the module in {@code module}'s remaining bytes into every session. */
  void load(ByteBuffer module, String name) {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(name, "name");
    ByteBuffer bytes = module.slice();
    if (bytes.remaining() == 0) {
      throw new IllegalArgumentException(name + ": the module is empty (0 bytes)");
    }
    append(MemorySegment.ofBuffer(bytes), name, ModuleLoader.Read.of(bytes.duplicate(), name));
  }

  /** Binds {@code parameters} (when there are any), then loads {@code vmfb}. */
  void load(Path vmfb, Parameters parameters) throws IOException {
    Objects.requireNonNull(vmfb, "vmfb");
    Objects.requireNonNull(parameters, "parameters");
    if (Files.isRegularFile(vmfb) && !parameters.isEmpty()) {
      bindParameters(parameters); // after the file is known to exist: no archive opened for none
    }
    load(vmfb);
  }

  /** Makes one module of {@code bytes} (checked first) and appends it to every session. */
  private void append(MemorySegment bytes, String source, ModuleLoader.Read read) {
    loading.lock();
    try {
      checkOpen("load " + source);
      loader.check(source, read, boundScopes);
      Optional<Set<String>> scopes = boundScopes;
      SharedModule module =
          SharedModule.create(runtime, device.driverName(), bytes, source, read, scopes);
      try {
        appendToAll(session -> session.append(module, loader, scopes), "load " + source);
      } catch (RuntimeException | Error e) {
        modules.add(module); // released with the engine's state, as the loaded ones are
        throw e;
      }
      modules.add(module);
      loader.added(source, read);
    } finally {
      loading.unlock();
    }
  }

  /** Builds IREE's parameters module once over {@code parameters} and binds it in every session. */
  void bindParameters(Parameters parameters) throws IOException {
    loading.lock();
    try {
      checkOpen("bind parameters " + ParameterBinder.quoted(parameters));
      if (boundScopes.isPresent()) {
        throw new IllegalStateException(
            "this "
                + noun
                + " already binds parameter scopes "
                + ModuleErrors.scopeList(boundScopes.get())
                + "; a "
                + noun
                + " binds parameters once: open another "
                + noun
                + " for modules with other archives");
      }
      Native api = runtime.api();
      MemorySegment module =
          new ParameterBinder(api, runtime.hostAllocator()).build(runtime.vmInstance(), parameters);
      try {
        appendToAll(session -> session.bindParameters(module), "bind parameters");
      } finally {
        api.parameters().vmModuleRelease(module); // each session's context retains it
      }
      boundScopes = Optional.of(Set.copyOf(parameters.scopes().keySet()));
    } finally {
      loading.unlock();
    }
  }

  /**
   * Runs {@code step} on every session, in order. When it fails on the first, nothing changed; on a
   * later one the sessions differ, so the engine closes before the failure is thrown.
   */
  private void appendToAll(Consumer<NativeSession> step, String action) {
    for (int i = 0; i < sessions.size(); i++) {
      try {
        step.accept(sessions.get(i));
      } catch (RuntimeException | Error e) {
        if (i > 0) {
          close(Duration.ZERO);
          e.addSuppressed(
              new IllegalStateException(
                  "the "
                      + noun
                      + " is closed: "
                      + action
                      + " failed on session "
                      + (i + 1)
                      + " of "
                      + sessions.size()
                      + " after the others succeeded"));
        }
        throw e;
      }
    }
  }

  /** The scopes bound, or none. */
  Set<String> parameterScopes() {
    loading.lock();
    try {
      return boundScopes.orElse(Set.of());
    } finally {
      loading.unlock();
    }
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
    Function named = functions.get(name);
    if (named != null) {
      return Optional.of(named);
    }
    String qualifiedName = ModuleBackend.qualify(name, functionNames());
    Function cached = functions.get(qualifiedName);
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
    Function made = new Function(this, each);
    Function raced = functions.putIfAbsent(qualifiedName, made);
    return Optional.of(raced != null ? raced : made);
  }

  // ----------------------------------------------------------------------------------------------
  // Calls

  /**
   * The checks of a call before it takes a session, the one place for synchronous and asynchronous
   * calls: the function does not yield (IREE would spin on the call forever: {@link
   * IreeFunction#yieldRefusal}), an asynchronous call's function takes fences, and the arguments
   * fit the calling convention (IREE checks them only partly).
   */
  private void check(Function function, VmList arguments, boolean async) {
    IreeFunction f = function.on(0);
    if (f.yields()) {
      throw new UnsupportedOperationException(f.yieldRefusal());
    }
    if (async && !f.isCoarseFences()) {
      throw new UnsupportedOperationException(f.notAsync(functionNames()));
    }
    f.checkArguments(arguments);
  }

  VmList invoke(Function function, VmList arguments) {
    Objects.requireNonNull(arguments, "arguments");
    String name = function.qualifiedName();
    long start = System.nanoTime();
    Object event = CallRecorder.begin();
    long bytesIn = 0;
    int seat = -1;
    VmList results;
    try {
      check(function, arguments, false);
      seat = take(name);
      bytesIn = CallRecorder.bytes(arguments);
      results = sessions.get(seat).invoke(function.on(seat), arguments);
    } catch (RuntimeException e) {
      recorder.failed(name, start, event, bytesIn, e, false);
      throw e;
    } finally {
      if (seat >= 0) {
        giveBack(seat);
      }
    }
    recorder.succeeded(name, start, event, bytesIn, CallRecorder.bytes(results), false);
    return results;
  }

  /**
   * {@link #submitAsync} with the result list as the future's value, the arguments the caller's.
   */
  AsyncCall invokeAsync(Function function, VmList arguments, Fence wait) {
    FencedFuture<VmList> results =
        submitAsync(function, arguments, wait, java.util.function.Function.identity(), null);
    return new AsyncCall(results.signal(), results);
  }

  /**
   * Submits an asynchronous call on a free session and returns its future, which the session's call
   * path completes with {@code decoder}'s value of the results; {@code ending}'s call copies
   * (unless null) are ended when the call is over. Refused arguments and a closed engine are
   * thrown, with nothing submitted; a call that waited longer than the pool's maxWait fails its
   * future.
   */
  <T> FencedFuture<T> submitAsync(
      Function function,
      VmList arguments,
      Fence wait,
      java.util.function.Function<? super VmList, ? extends T> decoder,
      VmList ending) {
    Objects.requireNonNull(arguments, "arguments");
    Objects.requireNonNull(decoder, "decoder");
    String name = function.qualifiedName();
    long start = System.nanoTime();
    Object event = CallRecorder.begin();
    int seat;
    try {
      check(function, arguments, true);
      seat = take(name);
    } catch (IreeInvocationException e) {
      recorder.failed(name, start, event, 0, e, true);
      return failedCall(e, ending); // waited too long: the call fails, as a device failure would
    } catch (RuntimeException e) {
      recorder.failed(name, start, event, 0, e, true);
      throw e;
    }
    try {
      return sessions
          .get(seat)
          .submitAsync(function.on(seat), arguments, wait, decoder, ending, start, event);
    } catch (RuntimeException e) {
      recorder.failed(name, start, event, 0, e, true); // refused before anything was submitted
      throw e;
    } finally {
      giveBack(seat);
    }
  }

  /**
   * The future of a call that failed before it was submitted: it and its signal fence failed with
   * {@code failure}; the call is over, so {@code ending}'s copies (unless null) are ended.
   */
  private static <T> FencedFuture<T> failedCall(RuntimeException failure, VmList ending) {
    FencedFuture<T> future = new FencedFuture<>(AsyncCall.failed(failure).signal());
    future.completeExceptionally(failure);
    if (ending != null) {
      ending.endCall();
    }
    return future;
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
    loading.lock();
    try {
      for (SharedModule module : modules) {
        module.close();
        module.freeBytes();
      }
      modules.clear();
    } finally {
      loading.unlock();
    }
    runtime.retention().release();
  }

  /**
   * An exported function of the engine: the same function in each of its sessions (one {@link
   * IreeFunction} per session), called on whichever session is free. Its name, calling convention,
   * reflection and bytecode types are the first session's, which are every session's.
   */
  static final class Function implements BackendFunction {

    private final Engine engine;
    private final IreeFunction[] bySession;

    Function(Engine engine, IreeFunction[] bySession) {
      this.engine = engine;
      this.bySession = bySession.clone();
    }

    /** The function in session {@code index} of the engine. */
    IreeFunction on(int index) {
      return bySession[index];
    }

    @Override
    public String qualifiedName() {
      return bySession[0].qualifiedName();
    }

    @Override
    public String callingConvention() {
      return bySession[0].callingConvention();
    }

    @Override
    public Map<String, String> reflection() {
      return bySession[0].reflection();
    }

    @Override
    public BytecodeTypes bytecodeTypes() {
      return bySession[0].bytecodeTypes();
    }

    /**
     * Calls the function on a free session (serialised with that session's other calls). The result
     * holds values, buffer views read back into direct host memory, nested lists, and {@link
     * dev.ireestubs.vm.OpaqueRef}s for other refs (close the result list to release those). A
     * function of the coarse-fences model gets a null wait fence and a new signal fence, and the
     * call returns once that fence is reached.
     *
     * @throws dev.ireestubs.invoke.IreeValueException (an argument) when the arguments do not fit
     *     the calling convention (count, or a value where a ref goes, or an integer where a float
     *     goes: IREE would pass 0)
     * @throws IreeInvocationException when IREE's runtime or the device fails the call (its status
     *     code and text), or a pool's call waited longer than its maxWait
     * @throws IllegalStateException when the session or pool is closed
     * @throws UnsupportedOperationException when the function's calls may reach a {@code vm.yield},
     *     which IREE's runtime never resumes (the message says where)
     */
    @Override
    public VmList invoke(VmList arguments) {
      return engine.invoke(this, arguments);
    }

    /**
     * Submits a call of this coarse-fences function on a free session and returns at once; see
     * {@link IreeSession} ("Asynchronous calls").
     *
     * @throws UnsupportedOperationException when the function takes no fences (the message names
     *     its asynchronous twin, if the module exports one), or may reach a {@code vm.yield}
     */
    @Override
    public AsyncCall invokeAsync(VmList arguments, Fence wait) {
      return engine.invokeAsync(this, arguments, wait);
    }

    /**
     * Submits a call of this coarse-fences function on a free session and returns its future, which
     * is the session's record of the call: completed with {@code decoder}'s value when the call's
     * signal fence is reached, without a second future; see {@link IreeSession} ("Asynchronous
     * calls").
     *
     * @throws UnsupportedOperationException when the function takes no fences (the message names
     *     its asynchronous twin, if the module exports one), or may reach a {@code vm.yield}
     */
    @Override
    public <T> FencedFuture<T> submitAsync(
        VmList arguments,
        Fence wait,
        java.util.function.Function<? super VmList, ? extends T> decoder) {
      return engine.submitAsync(this, arguments, wait, decoder, arguments);
    }

    /** E.g. {@code module.add 0rr_r}, or {@code module.add 0rr_r (pool of 4)}. */
    @Override
    public String toString() {
      return engine.pooled
          ? bySession[0] + " (pool of " + bySession.length + ")"
          : bySession[0].toString();
    }
  }
}
