package dev.ireestubs.iree;

import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
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
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A fixed number of IREE sessions (contexts) over one loaded module set, for many threads calling
 * at once: a {@link ModuleBackend} whose calls each take a free session, run on it and give it
 * back. Make one with {@link IreeBackend#openPool} or {@link IreeRuntime#newPool}; generated stubs
 * take it as they take a session ({@code new Iree_Model(pool)}).
 *
 * <pre>{@code
 * try (IreeSessionPool pool = IreeBackend.openPool(Path.of("model.vmfb"), Options.defaults(), 4)) {
 *   Model model = new Iree_Model(pool);
 *   // any number of threads: model.predict(x), at most 4 at once, the others wait their turn
 * }
 * }</pre>
 *
 * <p><b>What is shared.</b> The sessions share the runtime instance, one HAL device, and each
 * module: its bytes are read into native memory once and made into one IREE module ({@code
 * iree_vm_module_t}) that every session appends, as they share one parameters module over one set
 * of open archives. What each session has of its own is IREE's per-context state: the module's
 * globals, and what its initialiser makes, which for a compiled model is its loaded executables and
 * constant buffers; and iree-stubs' per-session call state (the native scratch structs, the last 8
 * imported argument views, a fence-waiting thread once asynchronous calls are made).
 *
 * <p><b>Calls.</b> A synchronous call holds a session for the whole call; an asynchronous one
 * ({@link BackendFunction#invokeAsync}) only while it is submitted (on local-sync, where the work
 * runs inside the invoke, that is the whole call). A call that finds every session busy waits, in
 * the order the calls came (a fair queue), without bound or up to the pool's {@code maxWait}
 * ({@link IreeRuntime#newPool(Device, int, Duration)}); one that waited that long fails with an
 * {@link IreeInvocationException} of status {@code DEADLINE_EXCEEDED} (an interrupted wait: {@code
 * CANCELLED}, the interrupt kept), thrown by a synchronous call and failing an asynchronous call's
 * future. Results are the caller's, exactly as a session's (see {@link IreeSession}): copies, or
 * views holding IREE's buffers, valid after the session went back to the pool and after the pool is
 * closed. On local-task the sessions share the device's window of {@value
 * CallPath#LOCAL_TASK_WINDOW} asynchronous calls, and a device failure fails every later call of
 * the whole pool (IREE's task queue keeps its first failure): open a new pool.
 *
 * <p><b>Size.</b> With local-sync each call runs on its caller's thread, so a pool as large as the
 * number of threads that call at once, at most the machine's processors, lets them all run; more
 * sessions only cost memory. With local-task IREE's workers run every call, and a few sessions keep
 * them busy. At most {@value #MAX_SIZE} sessions ({@value CallPath#LOCAL_TASK_WINDOW} on
 * local-task).
 *
 * <p><b>Loading</b> mirrors {@link IreeSession}: {@link #load(Path)}, {@link #load(Path,
 * Parameters)} and {@link #load(ByteBuffer, String)} load a module into every session, with the
 * same checks and errors; do it before the calls start (a load waits for each session in turn).
 *
 * <p><b>Observability.</b> Calls are reported as one backend's: a JFR event {@code
 * dev.ireestubs.Call} each (backend {@code iree-pool}; its time includes the wait for a session)
 * and the pool's {@link #statistics()}, registered as an MXBean while the pool is open.
 *
 * <p><b>Lifetime.</b> {@link #close()} refuses new calls and wakes the calls waiting for a session
 * (they fail with {@link IllegalStateException}), then closes every session by the session's rules:
 * a running synchronous call is waited for, asynchronous calls in flight get {@link
 * IreeSession#CLOSE_TIMEOUT} (in all, not per session) before their futures fail. The modules'
 * bytes and the shared device are released after the last session's native state is, which is once
 * the device has finished every call a close gave up on; a pool of {@link IreeBackend#openPool}
 * also closes its runtime.
 */
public final class IreeSessionPool implements ModuleBackend {

  /** The largest pool: more sessions than this are surely a mistake. */
  public static final int MAX_SIZE = 256;

  private final IreeRuntime runtime;
  private final Device device;
  private final boolean ownsRuntime;
  private final long maxWaitNanos; // < 0: no bound
  private final List<IreeSession> sessions;
  private final CallRecorder recorder;
  private final ConcurrentLinkedDeque<Integer> free = new ConcurrentLinkedDeque<>();
  private final Semaphore permits;
  private final Map<String, PooledFunction> functions = new ConcurrentHashMap<>();
  private final ReentrantLock loading = new ReentrantLock();
  private final List<SharedModule> modules = new ArrayList<>(); // guarded by loading
  private final MemorySegment halDevice; // the pool's reference; released with the retention

  /**
   * The device and the modules' bytes the sessions share: held by every session until its native
   * state is released, so freed only after the last one is (see {@link Retention}). Holds the
   * runtime's instance until then.
   */
  private final Retention retention;

  /** The names of the loaded modules, which the MXBean reads (it must not hold the pool). */
  private final List<String> moduleNames = new CopyOnWriteArrayList<>();

  private volatile boolean closed;

  IreeSessionPool(
      IreeRuntime runtime, Device device, int size, Duration maxWait, boolean ownsRuntime) {
    this.runtime = runtime;
    this.device = Objects.requireNonNull(device, "device");
    this.ownsRuntime = ownsRuntime;
    checkSize(device, size);
    this.maxWaitNanos = maxWait == null ? -1 : checkWait(maxWait);
    this.permits = new Semaphore(size, true);
    List<String> names = moduleNames;
    this.recorder = CallRecorder.create("iree-pool", device.driverName(), () -> names);
    this.halDevice = IreeSession.createDevice(runtime, device);
    runtime.retention().retain();
    this.retention =
        new Retention("the IREE session pool (" + device.driverName() + ")", this::release);
    List<IreeSession> made = new ArrayList<>(size);
    try {
      int window = CallPath.window(device, size);
      for (int i = 0; i < size; i++) {
        made.add(new IreeSession(runtime, device, false, halDevice, recorder, window, retention));
        free.push(i);
      }
    } catch (RuntimeException | Error e) {
      made.forEach(IreeSession::close);
      retention.release();
      throw e;
    }
    this.sessions = List.copyOf(made);
    recorder.register(this);
  }

  private static void checkSize(Device device, int size) {
    int max = device == Device.LOCAL_SYNC ? MAX_SIZE : CallPath.LOCAL_TASK_WINDOW;
    if (size < 1 || size > max) {
      throw new IllegalArgumentException(
          "a pool of "
              + size
              + " sessions on "
              + device.driverName()
              + ": the size must be from"
              + " 1 to "
              + max
              + (device == Device.LOCAL_SYNC
                  ? ""
                  : " (IREE's task executor takes at most 63 waits, and each session of the pool"
                      + " keeps at least one asynchronous call on the device)"));
    }
  }

  private static long checkWait(Duration maxWait) {
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait " + maxWait + " is negative");
    }
    try {
      return maxWait.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** The default size: this machine's processors, at most the device's maximum. */
  static int defaultSize(Device device) {
    int max = device == Device.LOCAL_SYNC ? MAX_SIZE : CallPath.LOCAL_TASK_WINDOW;
    return Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), max));
  }

  // ----------------------------------------------------------------------------------------------
  // Loading

  /**
   * Loads the compiled module in {@code vmfb} into every session: its bytes are read once into
   * native memory that the pool keeps until it is closed; IREE makes one module of them, which each
   * session appends (running the module's initialiser in each). Same checks, errors and trust as
   * {@link IreeSession#load(Path)}.
   *
   * @param vmfb the compiled module file ({@code .vmfb})
   * @return this pool
   * @throws NoSuchFileException when the file does not exist
   * @throws IOException when it cannot be read
   * @throws IllegalArgumentException when a module of the same name is already loaded
   * @throws IreeIncompatibleModuleException when IREE refuses it as compiled by another IREE
   *     release or for another device or CPU
   * @throws IreeInvocationException when IREE refuses it for another reason
   * @throws IllegalStateException when the pool is closed
   */
  public IreeSessionPool load(Path vmfb) throws IOException {
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
    return this;
  }

  /**
   * Loads {@code vmfb} with its external weights into every session: the parameters module is built
   * once (IREE opens each archive once) and every session appends it, then the module. Same checks
   * and errors as {@link IreeSession#load(Path, Parameters)}; a pool binds parameters once.
   *
   * @param vmfb the compiled module file ({@code .vmfb})
   * @param parameters the parameter archives the module's initialiser loads its weights from
   * @return this pool
   * @throws IOException when the module or an archive cannot be read
   * @throws IllegalStateException when the pool already binds parameters, or is closed
   */
  public IreeSessionPool load(Path vmfb, Parameters parameters) throws IOException {
    Objects.requireNonNull(vmfb, "vmfb");
    Objects.requireNonNull(parameters, "parameters");
    if (!Files.isRegularFile(vmfb) || parameters.isEmpty()) {
      return load(vmfb);
    }
    loading.lock();
    try {
      checkOpen("bind parameters " + ParameterBinder.quoted(parameters));
      if (sessions.get(0).boundScopes().isPresent()) {
        throw new IllegalStateException(
            "this pool already binds parameter scopes "
                + ModuleErrors.scopeList(sessions.get(0).boundScopes().get())
                + "; a pool binds parameters once: open another pool for modules with other"
                + " archives");
      }
      Native api = runtime.api();
      MemorySegment module =
          new ParameterBinder(api, runtime.hostAllocator())
              .build(api.parameters().instanceVmInstance(runtime.instance()), parameters);
      try {
        Set<String> scopes = parameters.scopes().keySet();
        appendToAll(session -> session.bindShared(module, scopes), "bind parameters");
      } finally {
        api.parameters().vmModuleRelease(module); // each session's context retains it
      }
    } finally {
      loading.unlock();
    }
    return load(vmfb);
  }

  /**
   * Loads a compiled module from memory into every session, as {@link #load(Path)} does: the bytes
   * from {@code module}'s position to its limit are copied once into native memory the pool keeps.
   *
   * @param module the module's bytes, a whole {@code .vmfb} file
   * @param name how messages name the module
   * @return this pool
   * @throws IllegalArgumentException when there are no bytes, or a module of the same name is
   *     already loaded
   * @throws IreeInvocationException when IREE refuses it
   * @throws IllegalStateException when the pool is closed
   */
  public IreeSessionPool load(ByteBuffer module, String name) {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(name, "name");
    ByteBuffer bytes = module.slice();
    if (bytes.remaining() == 0) {
      throw new IllegalArgumentException(name + ": the module is empty (0 bytes)");
    }
    append(MemorySegment.ofBuffer(bytes), name, ModuleLoader.Read.of(bytes.duplicate(), name));
    return this;
  }

  /** Makes one module of {@code bytes} and appends it to every session. */
  private void append(MemorySegment bytes, String source, ModuleLoader.Read read) {
    loading.lock();
    try {
      checkOpen("load " + source);
      IreeSession first = sessions.get(0);
      Optional<Set<String>> scopes = first.boundScopes();
      SharedModule module =
          SharedModule.create(runtime, device.driverName(), bytes, source, read, scopes);
      try {
        appendToAll(session -> session.appendShared(module), "load " + source);
      } catch (RuntimeException | Error e) {
        modules.add(module); // released with the pool's state, as the loaded ones are
        throw e;
      }
      modules.add(module);
      moduleNames.add(read.module().map(m -> m.name()).orElse(source));
    } finally {
      loading.unlock();
    }
  }

  /**
   * Runs {@code step} on every session, in order. When it fails on the first, nothing changed; on a
   * later one the sessions differ, so the pool closes before the failure is thrown.
   */
  private void appendToAll(Consumer<IreeSession> step, String what) {
    for (int i = 0; i < sessions.size(); i++) {
      try {
        step.accept(sessions.get(i));
      } catch (RuntimeException | Error e) {
        if (i > 0) {
          close(Duration.ZERO);
          e.addSuppressed(
              new IllegalStateException(
                  "the pool is closed: "
                      + what
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

  // ----------------------------------------------------------------------------------------------
  // Functions

  /**
   * The exported function {@code module.function}: a function of every session of the pool, each
   * call on a free one.
   *
   * @throws IllegalStateException when the pool is closed
   */
  @Override
  public Optional<BackendFunction> lookup(String qualifiedName) {
    Objects.requireNonNull(qualifiedName, "qualifiedName");
    checkOpen("look up " + qualifiedName);
    PooledFunction cached = functions.get(qualifiedName);
    if (cached != null) {
      return Optional.of(cached);
    }
    IreeFunction[] each = new IreeFunction[sessions.size()];
    for (int i = 0; i < each.length; i++) {
      Optional<BackendFunction> found = sessions.get(i).lookup(qualifiedName);
      if (found.isEmpty()) {
        return Optional.empty();
      }
      each[i] = (IreeFunction) found.get();
    }
    PooledFunction made = new PooledFunction(this, each);
    PooledFunction raced = functions.putIfAbsent(qualifiedName, made);
    return Optional.of(raced != null ? raced : made);
  }

  @Override
  public List<String> functionNames() {
    return sessions.get(0).functionNames();
  }

  // ----------------------------------------------------------------------------------------------
  // Calls

  VmList invoke(PooledFunction function, VmList arguments) {
    Objects.requireNonNull(arguments, "arguments");
    String name = function.qualifiedName();
    checkOpenToCall(name);
    long start = System.nanoTime();
    Object event = CallRecorder.begin();
    int taken;
    try {
      taken = take(name);
    } catch (RuntimeException e) {
      recorder.failed(name, start, event, 0, e, false);
      throw e;
    }
    try {
      return sessions.get(taken).invoke(function.on(taken), arguments, start, event);
    } finally {
      giveBack(taken);
    }
  }

  AsyncCall invokeAsync(PooledFunction function, VmList arguments, Fence wait) {
    Objects.requireNonNull(arguments, "arguments");
    String name = function.qualifiedName();
    checkOpenToCall(name);
    long start = System.nanoTime();
    Object event = CallRecorder.begin();
    int taken;
    try {
      taken = take(name);
    } catch (IreeInvocationException e) {
      recorder.failed(name, start, event, 0, e, true);
      return AsyncCall.failed(e); // waited too long: the call fails, as a device failure would
    }
    try {
      return sessions.get(taken).invokeAsync(function.on(taken), arguments, wait, start, event);
    } finally {
      giveBack(taken);
    }
  }

  /** Takes a free session, waiting in turn (at most the pool's maxWait); its index. */
  int take(String name) {
    boolean got;
    try {
      if (maxWaitNanos < 0) {
        permits.acquire();
        got = true;
      } else {
        got = permits.tryAcquire(maxWaitNanos, TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IreeInvocationException(
          name + ": interrupted while waiting for a free session of the pool",
          IreeStatusCode.CANCELLED.code());
    }
    if (!got) {
      throw new IreeInvocationException(
          name
              + ": all "
              + sessions.size()
              + " sessions of the pool stayed busy for "
              + Duration.ofNanos(maxWaitNanos).toMillis()
              + " ms (the pool's maxWait): make the"
              + " pool larger, let calls wait longer, or send fewer calls at once",
          IreeStatusCode.DEADLINE_EXCEEDED.code());
    }
    if (closed) {
      permits.release();
      checkOpenToCall(name);
    }
    Integer index = free.pollFirst();
    if (index == null) { // cannot happen: a permit is a free session
      permits.release();
      throw new IllegalStateException(name + ": no free session although a permit was taken");
    }
    return index;
  }

  /** Returns a session {@link #take} took. */
  void giveBack(int index) {
    free.addFirst(index); // the session used last is taken next: its caches are warm
    permits.release();
  }

  private void checkOpenToCall(String name) {
    if (closed) {
      checkOpen(name + " cannot be called");
    }
  }

  private void checkOpen(String action) {
    if (closed) {
      throw new IllegalStateException(
          "the IREE session pool (" + device.driverName() + ") is closed: " + action);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // State

  /**
   * How many sessions the pool has.
   *
   * @return the size given when the pool was made
   */
  public int size() {
    return sessions.size();
  }

  /**
   * The device every session runs on.
   *
   * @return the device given when the pool was made
   */
  public Device device() {
    return device;
  }

  /**
   * What the pool's calls cost so far, over all its sessions (see {@link CallStatistics}); also
   * registered as an MXBean under {@code
   * dev.ireestubs:type=CallStatistics,backend=iree-pool,id=<n>} until the pool is closed.
   *
   * @return the pool's statistics, live
   */
  public CallStatistics statistics() {
    return recorder.statistics();
  }

  /**
   * True once {@link #close()} has been called.
   *
   * @return true when the pool is closed
   */
  public boolean isClosed() {
    return closed;
  }

  /** Closes the pool: see the class comment ("Lifetime"); closing twice does nothing. */
  @Override
  public void close() {
    close(IreeSession.CLOSE_TIMEOUT);
  }

  /**
   * Closes the pool, giving asynchronous calls in flight up to {@code timeout} in all to complete
   * (see {@link IreeSession#close(Duration)} for what happens to those that do not).
   *
   * @param timeout how long to wait for calls in flight; zero fails them at once
   */
  public void close(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    permits.release(Integer.MAX_VALUE / 2); // wakes every waiting call: each finds the pool closed
    long deadline = System.nanoTime() + checkWait(timeout);
    for (IreeSession session : sessions) {
      session.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }
    functions.clear();
    recorder.unregister();
    runtime.forget(this);
    retention.release(); // the device and bytes: now, or when the last session is released
    if (ownsRuntime) {
      runtime.close();
    }
  }

  /**
   * Frees what the sessions shared, once the last of them is released: the device first (its
   * destruction waits until its queues are idle), then the modules (IREE aborts when it destroys a
   * module whose constants device work still uses: see {@link IreeSession}), then their bytes.
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

  @Override
  public String toString() {
    return "IreeSessionPool "
        + device.driverName()
        + " x"
        + sessions.size()
        + " "
        + moduleNames
        + (closed ? " (closed)" : "");
  }

  /** How many calls wait for a free session now (tests). */
  int waiting() {
    return permits.getQueueLength();
  }

  /** The pool's sessions (tests). */
  List<IreeSession> sessions() {
    return sessions;
  }

  /** The name the statistics are registered under, or null (tests). */
  String objectName() {
    return recorder.objectName();
  }
}
