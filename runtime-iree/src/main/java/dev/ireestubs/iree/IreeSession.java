package dev.ireestubs.iree;

import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vmfb.VmfbModule;
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
 * An IREE runtime session ({@code iree_runtime_session_t}) on one device, with the modules loaded
 * into it: a {@link ModuleBackend} whose functions run on IREE's C runtime. Make one with {@link
 * IreeRuntime#newSession(Device)} or {@link IreeBackend#open}.
 *
 * <pre>{@code
 * try (IreeSession session = IreeBackend.open(Path.of("add.vmfb"))) {
 *   Iree_Adder adder = new Iree_Adder(session);
 *   FloatArray sum = adder.add(a, b);
 * }
 * }</pre>
 *
 * <p><b>Calls.</b> Arguments in direct memory that starts on a 64-byte boundary (every typed array
 * iree-stubs allocates) are handed to IREE without a copy, read-only, and kept reachable until IREE
 * lets go of them; the session keeps the views of the last 8 such arguments (and so their memory)
 * until they are replaced or the session closes, and passes one again when the same memory comes
 * with the same type and shape. Do not write an argument's memory while a call that uses it runs.
 * Other arguments are copied into device memory once. Native memory the caller owns (a {@link
 * java.lang.foreign.MemorySegment} from its own arena) is passed as an array with {@link
 * Segments#wrap}, and results are read into it with {@link Segments#copyInto}. Results of 4 KiB or
 * more are views of IREE's own result memory (mapped, not copied, on the CPU drivers); smaller ones
 * are copied into new direct memory. A result view holds IREE's buffer and device until the last
 * Java object over its memory (the {@link dev.ireestubs.vm.BufferView}, its {@code data()}, an
 * array made from it) is unreachable and collected, and no longer: it never dangles, also after the
 * session and runtime are closed. At most 64 MiB of result memory waits for collection this way;
 * beyond it results are copied. Refs of other types in results (fences, raw buffers) come back as
 * {@link dev.ireestubs.vm.OpaqueRef}s that keep the native object alive until closed: close the
 * result list, or the refs.
 *
 * <p><b>Thread safety.</b> IREE's sessions are thread-compatible, not thread-safe: this class
 * serialises every call, lookup and load on one lock, so one session (and every stub on it) may be
 * used from many threads. A synchronous call holds the lock for the whole call; an asynchronous one
 * only while it is submitted. For calls in parallel, use an {@link IreeSessionPool}: sessions
 * sharing one device and one loaded module, each call on a free one.
 *
 * <p><b>Observability.</b> Each call is a JFR event {@code dev.ireestubs.Call} (backend {@code
 * iree-session}) while a recording takes it, and counts in the session's {@link #statistics()}, an
 * MXBean while the session is open.
 *
 * <p><b>Asynchronous calls.</b> Functions of the coarse-fences model (the {@code f$async} twins of
 * torch and ONNX imports: see {@link dev.ireestubs.abi.CoarseFences}) are called asynchronously
 * through {@link dev.ireestubs.invoke.BackendFunction#submitAsync} (a stub's {@code
 * CompletableFuture} method, {@code DynamicFunction.callAsync}; {@code invokeAsync} too): the
 * calling thread encodes the arguments, creates the call's signal fence, invokes the function and
 * returns. One thread per session (started at the first such call) waits for every call in flight
 * at once, in IREE; when a call's fence is reached it reads the results (under the lock) and
 * completes the call's future on {@link java.util.concurrent.ForkJoinPool#commonPool()}, where
 * dependent stages run. On local-sync the device runs the work inside the invoke, on the calling
 * thread; on local-task on IREE's workers. A call whose wait fence is not reached yet is submitted,
 * by the completion executor, once it is (IREE v3.11's CPU drivers would otherwise wait for it on
 * the submitting thread); on local-task at most {@value SubmissionWindow#LOCAL_TASK_WINDOW} calls
 * are on the device at once, the others waiting their turn in order (IREE's task executor fails the
 * device for good beyond 63 outstanding waits). Results are decoded when the fence is reached and
 * belong to the caller like a synchronous call's; arguments are lent until then. A failure of the
 * device fails the call's future with an {@link IreeInvocationException} carrying IREE's status,
 * and, on local-task, may fail later calls of the session with ABORTED (IREE's task queue keeps its
 * first failure): open a new session. A synchronous call of a coarse-fences function gets a null
 * wait fence and a new signal fence and returns once that fence is reached.
 *
 * <p><b>Lifetime.</b> {@link #close()} waits for a running synchronous call and, up to {@link
 * #CLOSE_TIMEOUT}, for asynchronous calls in flight, then fails the futures of the rest; later
 * calls, lookups and loads throw {@link IllegalStateException}. IREE's session, its device and
 * modules, and the native parts of each call are released exactly once, and never while the device
 * may still use them: by the session's fence waiter once the device has finished the calls the
 * close gave up on (see {@link #close(Duration)}). A session made by {@link IreeBackend#open} also
 * closes its runtime.
 */
public final class IreeSession implements ModuleBackend {

  /** How long {@link #close()} waits for asynchronous calls in flight before failing them. */
  public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final IreeRuntime runtime;
  private final boolean ownsRuntime;

  /** The session's one IREE session, with its loading, lookup, calls and close. */
  private final Engine engine;

  IreeSession(IreeRuntime runtime, Device device, boolean ownsRuntime) {
    this.runtime = runtime;
    this.ownsRuntime = ownsRuntime;
    this.engine = new Engine(runtime.natives(), device, "iree-session", "session", 1, false, -1);
    engine.register(this);
  }

  /** The engine behind this session, for {@link IreeBackend}'s loading. */
  Engine engine() {
    return engine;
  }

  // ----------------------------------------------------------------------------------------------
  // Loading

  /**
   * Loads the compiled module in {@code vmfb}. Its bytes are copied once into 64-byte-aligned
   * native memory that the session keeps until it is closed (as IREE's own file loading reads the
   * whole file): the file may change or go once this returns, and a module takes its file's size in
   * native memory.
   *
   * <p><b>Trust.</b> A module contains native machine code that runs in this process, unsandboxed:
   * load only modules you would run as native programs (see the package documentation).
   *
   * @return this session
   * @param vmfb the compiled module file ({@code .vmfb})
   * @throws NoSuchFileException when the file does not exist
   * @throws IOException when it cannot be read
   * @throws IllegalArgumentException when the file is empty, or a module of the same name is
   *     already loaded in this session (IREE would let the new one shadow its functions)
   * @throws IreeIncompatibleModuleException when IREE refuses it as compiled by another IREE
   *     release or for another device or CPU (the message gives the module's bytecode version and
   *     the releases that write it)
   * @throws IreeInvocationException when IREE refuses it for another reason (not a module, external
   *     parameters it needs and this session lacks...), with IREE's status code and text
   * @throws IllegalStateException when the session is closed
   */
  public IreeSession load(Path vmfb) throws IOException {
    engine.loading().load(vmfb);
    return this;
  }

  /**
   * Loads a compiled module from memory: the bytes from {@code module}'s position to its limit are
   * copied into 64-byte-aligned native memory that the session keeps until it is closed. The buffer
   * is not modified and may be reused afterwards.
   *
   * @param module the module's bytes, a whole {@code .vmfb} file
   * @param name how messages name the module, e.g. a resource name
   * @return this session
   * @throws IllegalArgumentException when there are no bytes, or a module of the same name is
   *     already loaded in this session
   * @throws IreeIncompatibleModuleException when IREE refuses it as compiled by another IREE
   *     release or for another device or CPU
   * @throws IreeInvocationException when IREE refuses it for another reason
   * @throws IllegalStateException when the session is closed
   */
  public IreeSession load(ByteBuffer module, String name) {
    engine.loading().load(module, name);
    return this;
  }

  /**
   * {@link #load(ByteBuffer, String)} for an array.
   *
   * @param module the module's bytes, a whole {@code .vmfb} file
   * @param name how messages name the module, e.g. a resource name
   * @return this session
   */
  public IreeSession load(byte[] module, String name) {
    return load(ByteBuffer.wrap(Objects.requireNonNull(module, "module")), name);
  }

  // ----------------------------------------------------------------------------------------------
  // Parameters

  /**
   * Loads {@code vmfb} with its external weights: {@link #bindParameters} then {@link #load(Path)}.
   *
   * @param vmfb the compiled module file ({@code .vmfb})
   * @param parameters the parameter archives the module's initialiser loads its weights from; not
   *     empty
   * @return this session
   * @throws NoSuchFileException when the module or an archive does not exist
   * @throws IreeInvocationException when IREE cannot read an archive, the module needs a scope
   *     {@code parameters} lacks, or its initialiser does not find a parameter it loads (the
   *     message names the scope, file or key)
   * @see #load(Path)
   */
  public IreeSession load(Path vmfb, Parameters parameters) throws IOException {
    engine.loading().load(vmfb, parameters);
    return this;
  }

  /**
   * Registers IREE's parameters module ({@code io_parameters}) on this session, serving {@code
   * parameters}, for the modules loaded after it. IREE opens each file for reading and indexes its
   * entries now; it reads a parameter when a module's initialiser loads it (at that module's load).
   * The files stay open until the session is closed. A session binds parameters once.
   *
   * @return this session
   * @param parameters the parameter archives to bind, by scope; not empty
   * @throws IllegalArgumentException when {@code parameters} is empty
   * @throws IllegalStateException when the session already binds parameters, or is closed
   * @throws NoSuchFileException when an archive does not exist
   * @throws IreeInvocationException when IREE cannot open or read an archive (truncated, corrupt,
   *     not a parameter archive), naming the scope and the file
   */
  public IreeSession bindParameters(Parameters parameters) throws IOException {
    Objects.requireNonNull(parameters, "parameters");
    if (parameters.isEmpty()) {
      throw new IllegalArgumentException(
          "no parameter scopes to bind: add archives with Parameters.builder().scope(...)");
    }
    engine.loading().bindParameters(parameters);
    return this;
  }

  /**
   * The parameter scopes this session binds (empty before {@link #bindParameters}).
   *
   * @return an unmodifiable set of scope names; the empty name is IREE's unnamed scope
   */
  public Set<String> parameterScopes() {
    return engine.loading().parameterScopes();
  }

  /**
   * What iree-stubs' reader saw in each loaded module, in load order (modules it could read).
   *
   * @return an unmodifiable list, one entry per module the reader could read
   */
  public List<VmfbModule> modules() {
    return engine.modules();
  }

  // ----------------------------------------------------------------------------------------------
  // Functions

  /**
   * The exported function {@code module.function}, looked up with IREE's runtime; its calling
   * convention and reflection attributes are the runtime's.
   *
   * @throws IllegalStateException when the session is closed
   * @throws IreeInvocationException when the lookup fails other than by not finding the name
   */
  @Override
  public Optional<BackendFunction> lookup(String qualifiedName) {
    return engine.lookup(qualifiedName);
  }

  /**
   * The exported functions of the loaded modules ({@code module.function}, sorted), as iree-stubs'
   * reader lists them (modules it could not read contribute none, though their functions can still
   * be looked up by name).
   */
  @Override
  public List<String> functionNames() {
    return engine.functionNames();
  }

  // ----------------------------------------------------------------------------------------------
  // State

  /**
   * What this session's calls cost so far (see {@link CallStatistics}); also registered as an
   * MXBean under {@code dev.ireestubs:type=CallStatistics,backend=iree-session,id=<n>} until the
   * session is closed.
   *
   * @return the session's statistics, live
   */
  public CallStatistics statistics() {
    return engine.statistics();
  }

  /** The name the statistics are registered under, or null (tests). */
  String objectName() {
    return engine.objectName();
  }

  /**
   * The device the session runs on.
   *
   * @return the device given when the session was created
   */
  public Device device() {
    return engine.device();
  }

  /**
   * The runtime the session belongs to.
   *
   * @return the runtime that created the session
   */
  public IreeRuntime runtime() {
    return runtime;
  }

  /**
   * True once {@link #close()} has been called.
   *
   * @return true when the session is closed
   */
  public boolean isClosed() {
    return engine.isClosed();
  }

  /**
   * Closes the session; closing twice does nothing. A session from {@link IreeBackend#open} also
   * closes its runtime. A synchronous call running now is waited for; asynchronous calls in flight
   * are given {@link #CLOSE_TIMEOUT} to complete, then fail (see {@link #close(Duration)}).
   */
  @Override
  public void close() {
    close(CLOSE_TIMEOUT);
  }

  /**
   * Closes the session, giving asynchronous calls in flight up to {@code timeout} to complete. New
   * calls are refused at once; a synchronous call running now is waited for. The futures of calls
   * still running after {@code timeout} fail at once with an {@link IllegalStateException}, and so
   * do those of calls not handed to the device yet.
   *
   * <p>Nothing the device may still use is released early: the native state of the session (its
   * context, modules and device) and of each call the device still runs is released by the
   * session's fence waiter once the device reaches or fails that call's signal fence, after this
   * method has returned (immediately when the device is idle). A device that never finishes a call
   * keeps them for good; {@link IreeRuntime#callsStillOnDevice()} counts such calls, and the close
   * logs how many it left running.
   *
   * @param timeout how long to wait for calls in flight; zero fails their futures at once
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
    return "IreeSession "
        + engine.device().driverName()
        + " "
        + engine.sources()
        + (engine.isClosed() ? " (closed)" : "");
  }

  /** The call path (tests). */
  CallPath calls() {
    return engine.session(0).calls();
  }

  /** The native state (tests). */
  SessionNatives natives() {
    return engine.session(0).natives();
  }
}
