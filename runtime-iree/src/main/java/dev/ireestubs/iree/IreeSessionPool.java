package dev.ireestubs.iree;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.ModuleBackend;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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
 * ({@link BackendFunction#submitAsync}) only while it is submitted (on local-sync, where the work
 * runs inside the invoke, that is the whole call). A call that finds every session busy waits,
 * without bound or up to the pool's {@code maxWait} ({@link IreeRuntime#newPool(Device, int,
 * Duration)}); one that waited that long fails with an {@link IreeInvocationException} of status
 * {@code DEADLINE_EXCEEDED} (an interrupted wait: {@code CANCELLED}, the interrupt kept), thrown by
 * a synchronous call and failing an asynchronous call's future. Results are the caller's, exactly
 * as a session's (see {@link IreeSession}): copies, or views holding IREE's buffers, valid after
 * the session went back to the pool and after the pool is closed. On local-task the sessions share
 * the device's window of {@value SubmissionWindow#LOCAL_TASK_WINDOW} asynchronous calls, and a
 * device failure fails every later call of the whole pool (IREE's task queue keeps its first
 * failure): open a new pool.
 *
 * <p><b>Order of waiting calls.</b> A call takes a session that is free as it comes, even while
 * others wait, so a thread that just gave its session back goes on without a thread switch; once a
 * call has waited {@value Seats#GRACE_MILLIS} ms, later calls queue behind the waiting ones, and
 * the queue is served in its order. A call is overtaken by later ones for at most that long plus
 * the calls then queued ahead of it: a strictly fair queue would hand every freed session to a
 * parked thread, which with more threads than sessions costs each call a park and a wake-up.
 *
 * <p><b>Size.</b> With local-sync each call runs on its caller's thread, so a pool as large as the
 * number of threads that call at once, at most the machine's processors, lets them all run; more
 * sessions only cost memory. With local-task IREE's workers run every call, and a few sessions keep
 * them busy. At most {@value #MAX_SIZE} sessions ({@value SubmissionWindow#LOCAL_TASK_WINDOW} on
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
  private final boolean ownsRuntime;

  /** The pool's sessions, with their loading, lookup, calls and close. */
  private final Engine engine;

  IreeSessionPool(
      IreeRuntime runtime, Device device, int size, Duration maxWait, boolean ownsRuntime) {
    this.runtime = runtime;
    this.ownsRuntime = ownsRuntime;
    checkSize(Objects.requireNonNull(device, "device"), size);
    long maxWaitNanos = maxWait == null ? -1 : checkWait(maxWait);
    this.engine =
        new Engine(runtime.natives(), device, "iree-pool", "pool", size, true, maxWaitNanos);
    engine.register(this);
  }

  /** The engine behind this pool, for {@link IreeBackend}'s loading. */
  Engine engine() {
    return engine;
  }

  private static void checkSize(Device device, int size) {
    int max = device == Device.LOCAL_SYNC ? MAX_SIZE : SubmissionWindow.LOCAL_TASK_WINDOW;
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
    return Engine.nanos(maxWait);
  }

  /** The default size: this machine's processors, at most the device's maximum. */
  static int defaultSize(Device device) {
    int max = device == Device.LOCAL_SYNC ? MAX_SIZE : SubmissionWindow.LOCAL_TASK_WINDOW;
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
    engine.loading().load(vmfb);
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
    engine.loading().load(vmfb, parameters);
    return this;
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
    engine.loading().load(module, name);
    return this;
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
    return engine.lookup(qualifiedName);
  }

  @Override
  public List<String> functionNames() {
    return engine.functionNames();
  }

  // ----------------------------------------------------------------------------------------------
  // State

  /**
   * How many sessions the pool has.
   *
   * @return the size given when the pool was made
   */
  public int size() {
    return engine.size();
  }

  /**
   * The device every session runs on.
   *
   * @return the device given when the pool was made
   */
  public Device device() {
    return engine.device();
  }

  /**
   * What the pool's calls cost so far, over all its sessions (see {@link CallStatistics}); also
   * registered as an MXBean under {@code
   * dev.ireestubs:type=CallStatistics,backend=iree-pool,id=<n>} until the pool is closed.
   *
   * @return the pool's statistics, live
   */
  public CallStatistics statistics() {
    return engine.statistics();
  }

  /**
   * True once {@link #close()} has been called.
   *
   * @return true when the pool is closed
   */
  public boolean isClosed() {
    return engine.isClosed();
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
    if (engine.close(timeout)) {
      runtime.forget(this);
      if (ownsRuntime) {
        runtime.close();
      }
    }
  }

  @Override
  public String toString() {
    return "IreeSessionPool "
        + engine.device().driverName()
        + " x"
        + engine.size()
        + " "
        + engine.moduleNames()
        + (engine.isClosed() ? " (closed)" : "");
  }

  /** The scopes the pool's sessions bind (tests). */
  Set<String> parameterScopes() {
    return engine.loading().parameterScopes();
  }

  /** How many calls wait for a free session now (tests). */
  int waiting() {
    return engine.waiting();
  }

  /** Takes a free session, waiting as {@link Seats} says (tests). */
  int take(String name) {
    return engine.take(name);
  }

  /** Returns a session {@link #take} took (tests). */
  void giveBack(int index) {
    engine.giveBack(index);
  }

  /** The name the statistics are registered under, or null (tests). */
  String objectName() {
    return engine.objectName();
  }
}
