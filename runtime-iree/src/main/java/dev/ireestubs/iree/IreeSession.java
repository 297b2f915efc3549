package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vmfb.VmfbModule;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

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
 * through {@link dev.ireestubs.invoke.BackendFunction#invokeAsync} (a stub's {@code
 * CompletableFuture} method, {@code DynamicFunction.callAsync}): the calling thread encodes the
 * arguments, creates the call's signal fence, invokes the function and returns. One thread per
 * session (started at the first such call) waits for every call in flight at once, in IREE; when a
 * call's fence is reached it reads the results (under the lock) and completes the call's future on
 * {@link java.util.concurrent.ForkJoinPool#commonPool()}, where dependent stages run. On local-sync
 * the device runs the work inside the invoke, on the calling thread; on local-task on IREE's
 * workers. A call whose wait fence is not reached yet is submitted, by the completion executor,
 * once it is (IREE v3.11's CPU drivers would otherwise wait for it on the submitting thread); on
 * local-task at most {@value CallPath#LOCAL_TASK_WINDOW} calls are on the device at once, the
 * others waiting their turn in order (IREE's task executor fails the device for good beyond 63
 * outstanding waits). Results are decoded when the fence is reached and belong to the caller like a
 * synchronous call's; arguments are lent until then. A failure of the device fails the call's
 * future with an {@link IreeInvocationException} carrying IREE's status, and, on local-task, may
 * fail later calls of the session with ABORTED (IREE's task queue keeps its first failure): open a
 * new session. A synchronous call of a coarse-fences function gets a null wait fence and a new
 * signal fence and returns once that fence is reached.
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
  private final Native api;
  private final Device device;
  private final boolean ownsRuntime;
  private final ReentrantLock lock = new ReentrantLock();
  private final Arena arena = Arena.ofShared();
  private final Map<String, IreeFunction> functions = new ConcurrentHashMap<>();

  private final MemorySegment session;
  private final MemorySegment halDevice;
  private final MemorySegment deviceAllocator;
  private final Encodings.RefTypes refTypes;
  private final MemorySegment bufferParams;
  private final MemorySegment infiniteTimeout;
  private final ModuleLoader loader;
  private final Marshaller marshaller;
  private final CallPath calls;
  private final CallRecorder recorder;
  private final boolean ownsRecorder;

  private volatile boolean closed;

  /**
   * The native session (its context, modules, device reference, this session's arena): released
   * once the session is closed and its fence waiter, which holds it while the device runs calls of
   * the session, has ended. Holds {@link #parent} until then.
   */
  private final Retention retention;

  /** What this session holds until it is released: its runtime's instance, or its pool's state. */
  private final Retention parent;

  /** The scopes bound by {@link #bindParameters}, once; empty before (guarded by the lock). */
  private Optional<Set<String>> boundScopes = Optional.empty();

  IreeSession(IreeRuntime runtime, Device device, boolean ownsRuntime) {
    this(runtime, device, ownsRuntime, null, null, CallPath.window(device, 1), runtime.retention());
  }

  /**
   * A session on {@code sharedDevice} (a new device of its own when null), reporting its calls to
   * {@code poolRecorder} (a recorder of its own, registered, when null), handing at most {@code
   * window} asynchronous calls to the device at once: a pool's members share the pool's device,
   * recorder and the device's window. The session holds {@code parent} until its native state is
   * released.
   */
  IreeSession(
      IreeRuntime runtime,
      Device device,
      boolean ownsRuntime,
      MemorySegment sharedDevice,
      CallRecorder poolRecorder,
      int window,
      Retention parent) {
    this.runtime = runtime;
    this.parent = parent;
    this.api = runtime.api();
    this.device = Objects.requireNonNull(device, "device");
    this.ownsRuntime = ownsRuntime;
    try (Arena tmp = Arena.ofConfined()) {
      MemorySegment out = tmp.allocate(ADDRESS);
      MemorySegment halDevice = sharedDevice != null ? sharedDevice : createDevice(runtime, device);
      MemorySegment options = tmp.allocate(Layouts.SESSION_OPTIONS);
      api.sessions().sessionOptionsInitialize(options);
      long status =
          api.sessions()
              .sessionCreateWithDevice(
                  runtime.instance(), options, halDevice, runtime.hostAllocator(), out);
      if (sharedDevice == null) {
        // The session retains the device; this reference is ours either way.
        api.sessions().halDeviceRelease(halDevice.address());
      }
      api.status()
          .check(status, "iree_runtime_session_create_with_device (" + device.driverName() + ")");
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
    MemorySegment nullAllocator = arena.allocate(Layouts.ALLOCATOR); // {NULL, NULL}
    this.loader = new ModuleLoader(api, session, device.driverName(), nullAllocator);
    this.retention = new Retention("the IREE session (" + device.driverName() + ")", this::release);
    parent.retain();
    this.marshaller = new Marshaller(this, arena); // reused by every call, under the lock
    this.calls = new CallPath(this, marshaller, arena, window);
    this.ownsRecorder = poolRecorder == null;
    if (ownsRecorder) {
      ModuleLoader modules = loader; // the MXBean must not hold the session itself
      this.recorder =
          CallRecorder.create("iree-session", device.driverName(), modules::moduleNames)
              .register(this);
    } else {
      this.recorder = poolRecorder;
    }
  }

  /**
   * A new HAL device of {@code device}'s driver ({@code
   * iree_runtime_instance_try_create_default_device}); the caller owns the reference.
   */
  static MemorySegment createDevice(IreeRuntime runtime, Device device) {
    Native api = runtime.api();
    try (Arena tmp = Arena.ofConfined()) {
      MemorySegment out = tmp.allocate(ADDRESS);
      long status =
          api.sessions()
              .instanceTryCreateDefaultDevice(
                  runtime.instance(), StringViews.of(tmp, device.driverName()), out);
      if (status != 0) {
        int code = IreeStatusCode.codeOf(status);
        String text = api.status().consumeStatus(status);
        throw new IreeInvocationException(
            "cannot create an IREE device with driver "
                + device.driverName()
                + " ("
                + IreeStatusCode.describe(code)
                + "): "
                + text
                + ". The runtime library must be built with the "
                + device.driverName()
                + " HAL driver",
            code);
      }
      return out.get(ADDRESS, 0);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Loading

  /**
   * Loads the compiled module in {@code vmfb}. IREE v3.11 reads the whole file into memory (it does
   * not map it) and keeps that copy until the session is closed: the file may change or go once
   * this returns, and a module takes its file's size in native memory.
   *
   * <p><b>Trust.</b> A module contains native machine code that runs in this process, unsandboxed:
   * load only modules you would run as native programs (see the package documentation).
   *
   * @return this session
   * @param vmfb the compiled module file ({@code .vmfb})
   * @throws NoSuchFileException when the file does not exist
   * @throws IOException when it cannot be read
   * @throws IllegalArgumentException when a module of the same name is already loaded in this
   *     session (IREE would let the new one shadow its functions)
   * @throws IreeIncompatibleModuleException when IREE refuses it as compiled by another IREE
   *     release or for another device or CPU (the message gives the module's bytecode version and
   *     the releases that write it)
   * @throws IreeInvocationException when IREE refuses it for another reason (not a module, external
   *     parameters it needs and this session lacks...), with IREE's status code and text
   * @throws IllegalStateException when the session is closed
   */
  public IreeSession load(Path vmfb) throws IOException {
    Objects.requireNonNull(vmfb, "vmfb");
    if (!Files.isRegularFile(vmfb)) {
      throw new NoSuchFileException(
          vmfb.toString(),
          null,
          Files.exists(vmfb) ? "not a regular file; give the .vmfb file" : "no such module file");
    }
    ModuleLoader.Read read = ModuleLoader.Read.of(vmfb);
    lock.lock();
    try {
      checkOpen("load " + vmfb);
      loader.appendFile(vmfb, read, boundScopes);
    } finally {
      lock.unlock();
    }
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
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(name, "name");
    ByteBuffer bytes = module.slice();
    int length = bytes.remaining();
    if (length == 0) {
      throw new IllegalArgumentException(name + ": the module is empty (0 bytes)");
    }
    ModuleLoader.Read read = ModuleLoader.Read.of(bytes, name);
    lock.lock();
    try {
      checkOpen("load " + name);
      loader.appendBytes(bytes, name, read, boundScopes);
    } finally {
      lock.unlock();
    }
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
    Objects.requireNonNull(vmfb, "vmfb");
    Objects.requireNonNull(parameters, "parameters");
    if (!Files.isRegularFile(vmfb)) {
      return load(vmfb); // the usual NoSuchFileException, before any archive is opened
    }
    if (!parameters.isEmpty()) {
      bindParameters(parameters);
    }
    return load(vmfb);
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
    lock.lock();
    try {
      checkOpen("bind parameters " + ParameterBinder.quoted(parameters));
      if (boundScopes.isPresent()) {
        throw new IllegalStateException(
            "this session already binds parameter scopes "
                + ModuleErrors.scopeList(boundScopes.get())
                + "; a session binds parameters"
                + " once: open another session for modules with other archives");
      }
      MemorySegment module =
          new ParameterBinder(api, runtime.hostAllocator())
              .build(api.parameters().instanceVmInstance(runtime.instance()), parameters);
      try {
        api.status()
            .check(
                api.parameters().sessionAppendModule(session, module),
                "iree_runtime_session_append_module (io_parameters)");
      } finally {
        api.parameters().vmModuleRelease(module); // the session's context retains it
      }
      boundScopes = Optional.of(Set.copyOf(parameters.scopes().keySet()));
    } finally {
      lock.unlock();
    }
    return this;
  }

  /**
   * The parameter scopes this session binds (empty before {@link #bindParameters}).
   *
   * @return an unmodifiable set of scope names; the empty name is IREE's unnamed scope
   */
  public Set<String> parameterScopes() {
    lock.lock();
    try {
      return boundScopes.orElse(Set.of());
    } finally {
      lock.unlock();
    }
  }

  /**
   * What iree-stubs' reader saw in each loaded module, in load order (modules it could read).
   *
   * @return an unmodifiable list, one entry per module the reader could read
   */
  public List<VmfbModule> modules() {
    return loader.modules();
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
    Objects.requireNonNull(qualifiedName, "qualifiedName");
    checkOpen("look up " + qualifiedName);
    IreeFunction cached = functions.get(qualifiedName);
    if (cached != null) {
      return Optional.of(cached);
    }
    int dot = qualifiedName.indexOf('.');
    if (dot <= 0 || dot == qualifiedName.length() - 1) {
      return Optional.empty();
    }
    lock.lock();
    try {
      checkOpen("look up " + qualifiedName);
      cached = functions.get(qualifiedName);
      if (cached != null) {
        return Optional.of(cached);
      }
      try (Arena tmp = Arena.ofConfined()) {
        MemorySegment found = tmp.allocate(Layouts.VM_FUNCTION);
        long status =
            api.sessions()
                .sessionLookupFunction(session, StringViews.of(tmp, qualifiedName), found);
        if (status != 0) {
          if (IreeStatusCode.codeOf(status) == IreeStatusCode.NOT_FOUND.code()) {
            api.status().freeStatus(status);
            return Optional.empty();
          }
          throw api.status().failure(status, "looking up " + qualifiedName);
        }
        MemorySegment handle = arena.allocate(Layouts.VM_FUNCTION);
        handle.copyFrom(found);
        String cconv = StringViews.read(api.sessions().functionSignature(tmp, handle));
        Map<String, String> attributes =
            FunctionAttributes.read(api, tmp, handle, qualifiedName, modules());
        IreeFunction function =
            new IreeFunction(
                this,
                qualifiedName,
                handle,
                cconv,
                attributes,
                FunctionAttributes.bytecodeTypes(qualifiedName, modules()));
        functions.put(qualifiedName, function);
        return Optional.of(function);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The exported functions of the loaded modules ({@code module.function}, sorted), as iree-stubs'
   * reader lists them (modules it could not read contribute none, though their functions can still
   * be looked up by name).
   */
  @Override
  public List<String> functionNames() {
    return loader.functionNames();
  }

  // ----------------------------------------------------------------------------------------------
  // Calls

  VmList invoke(IreeFunction function, VmList arguments) {
    Objects.requireNonNull(arguments, "arguments");
    checkOpenToCall(function.qualifiedName());
    return invoke(function, arguments, System.nanoTime(), CallRecorder.begin());
  }

  /**
   * A synchronous call taken at {@code start} ({@link System#nanoTime()}; a pool's call before it
   * waited for this session), recorded with {@code event} ({@link CallRecorder#begin()}).
   */
  VmList invoke(IreeFunction function, VmList arguments, long start, Object event) {
    String name = function.qualifiedName();
    long bytesIn = 0;
    VmList results;
    try {
      checkOpenToCall(name);
      function.checkArguments(arguments);
      bytesIn = CallRecorder.bytes(arguments);
      results = calls.invoke(function, arguments);
    } catch (RuntimeException e) {
      recorder.failed(name, start, event, bytesIn, e, false);
      throw e;
    }
    recorder.succeeded(name, start, event, bytesIn, CallRecorder.bytes(results), false);
    return results;
  }

  AsyncCall invokeAsync(IreeFunction function, VmList arguments, Fence wait) {
    Objects.requireNonNull(arguments, "arguments");
    checkOpenToCall(function.qualifiedName());
    return invokeAsync(function, arguments, wait, System.nanoTime(), CallRecorder.begin());
  }

  /**
   * An asynchronous call taken at {@code start}: recorded when its signal fence is reached or
   * fails, or now when it is refused before anything is submitted.
   */
  AsyncCall invokeAsync(
      IreeFunction function, VmList arguments, Fence wait, long start, Object event) {
    try {
      checkOpenToCall(function.qualifiedName());
      return calls.invokeAsync(function, arguments, wait, recorder, start, event);
    } catch (RuntimeException e) {
      recorder.failed(function.qualifiedName(), start, event, 0, e, true);
      throw e;
    }
  }

  /** {@link #checkOpen} for calls, with the message built only when the session is closed. */
  void checkOpenToCall(String name) {
    if (closed) {
      checkOpen(name + " cannot be called");
    }
  }

  // ----------------------------------------------------------------------------------------------
  // A pool's members

  /** Appends a module a pool made once for all its sessions (see {@link SharedModule}). */
  void appendShared(SharedModule module) {
    lock.lock();
    try {
      checkOpen("load " + module.source());
      loader.appendShared(module, boundScopes);
    } finally {
      lock.unlock();
    }
  }

  /** Appends a parameters module a pool built once for all its sessions, serving {@code scopes}. */
  void bindShared(MemorySegment parametersModule, Set<String> scopes) {
    lock.lock();
    try {
      checkOpen("bind parameters");
      if (boundScopes.isPresent()) {
        throw new IllegalStateException("this session already binds parameter scopes");
      }
      api.status()
          .check(
              api.parameters().sessionAppendModule(session, parametersModule),
              "iree_runtime_session_append_module (io_parameters)");
      boundScopes = Optional.of(Set.copyOf(scopes));
    } finally {
      lock.unlock();
    }
  }

  /** The scopes bound, or empty before any (under the lock). */
  Optional<Set<String>> boundScopes() {
    lock.lock();
    try {
      return boundScopes;
    } finally {
      lock.unlock();
    }
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
    return recorder.statistics();
  }

  /** The session's native state, held by its fence waiter while the device runs its calls. */
  Retention retention() {
    return retention;
  }

  /** The name the statistics are registered under, or null (tests). */
  String objectName() {
    return recorder.objectName();
  }

  /**
   * The device the session runs on.
   *
   * @return the device given when the session was created
   */
  public Device device() {
    return device;
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
    return closed;
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
    Objects.requireNonNull(timeout, "timeout");
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true; // no new calls
    } finally {
      lock.unlock();
    }
    int onDevice = calls.shutdown(Math.max(0, timeout.toMillis()));
    functions.clear();
    if (onDevice > 0) {
      System.getLogger(IreeSession.class.getName())
          .log(
              System.Logger.Level.INFO,
              "iree-stubs: closed "
                  + this
                  + " while the device still ran "
                  + onDevice
                  + " of its calls (their futures failed); its native state is released when the"
                  + " device has finished them");
    }
    if (ownsRecorder) {
      recorder.unregister();
    }
    runtime.forget(this);
    retention.release(); // the owner's hold: released now, or by the waiter when the device is done
    if (ownsRuntime) {
      runtime.close();
    }
  }

  /**
   * Releases IREE's session and what it kept: on the thread that dropped the last hold.
   *
   * <p>The context's modules are kept past the session and released in the context's order, the HAL
   * module first: IREE aborts the process when it destroys a module whose constant buffers
   * something still uses (device work the device has not retired: on local-task a failed fence is
   * failed before the work's resources are freed, and a fence failed by a caller does not stop the
   * work), while destroying the device, which the HAL module holds, first waits until its queues
   * are idle. So the modules go after the device's last work.
   */
  private void release() {
    lock.lock();
    try {
      marshaller.close();
      MemorySegment[] modules = api.sessions().retainModules(session);
      api.sessions().sessionRelease(session);
      for (MemorySegment module : modules) {
        api.parameters().vmModuleRelease(module); // the HAL module first: see above
      }
      loader.close(); // after the modules: they referenced these bytes
      arena.close();
    } finally {
      lock.unlock();
    }
    parent.release();
  }

  private void checkOpen(String action) {
    if (closed) {
      throw new IllegalStateException(
          "the IREE session (" + device.driverName() + ") is closed: " + action);
    }
  }

  @Override
  public String toString() {
    return "IreeSession "
        + device.driverName()
        + " "
        + loader.sources()
        + (closed ? " (closed)" : "");
  }

  // Package-private accessors for the marshaller and the call path.

  /** The session's lock: every call, lookup and load is made under it. */
  ReentrantLock lock() {
    return lock;
  }

  /** {@code iree_runtime_session_t*}. */
  MemorySegment handle() {
    return session;
  }

  /** The call path (tests). */
  CallPath calls() {
    return calls;
  }

  Native api() {
    return api;
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
}
