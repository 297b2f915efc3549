package dev.ireestubs.host;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.CoarseFences;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.CallStatistics;
import dev.ireestubs.invoke.IreeException;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A module implemented in Java: the embedded default backend. Register functions under a module
 * name, each with its reflection (in any format iree-stubs reads), and call them through generated
 * stubs or {@link dev.ireestubs.invoke.DynamicFunction} exactly as if IREE ran them: the same
 * native-ABI lists go in and come out. It serves tests, the example app, functions the host
 * provides, and fakes for users' own tests (as an in-process server does for RPC stubs).
 *
 * <pre>{@code
 * HostModule module = HostModule.builder("module")
 *     .function("add", "{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"]}",
 *         args -> VmList.of(VmValue.i32(args.getValue(0).asI32() + args.getValue(1).asI32())))
 *     .build();
 * }</pre>
 *
 * <p>Every call is checked both ways: the argument list against the declared arguments before the
 * function runs ({@link IreeValueException} of side ARGUMENT), and what the function returns
 * against the declared results after ({@link IreeValueException} of side RESULT, naming the result
 * that is wrong), so a fake cannot drift from the real module's signature unnoticed. An exception
 * thrown by a function body that is not an {@link IreeException} arrives as an {@link
 * IreeInvocationException} with it as the cause.
 *
 * <p><b>Asynchronous functions.</b> A function of the coarse-fences model (an {@code f$async}
 * export of a faked {@code .vmfb}, or one registered with {@link Builder#asyncFunction} or {@link
 * Builder#asyncValueFunction}) has a body that returns a {@link
 * java.util.concurrent.CompletionStage} of its results: a stub's {@code CompletableFuture} method,
 * or {@link dev.ireestubs.invoke.DynamicFunction#callAsync}, returns at once, the call's signal
 * fence is reached when the stage completes, and a call waiting on a fence starts the body once
 * that fence is reached. So the same stub runs against a fake of an asynchronous model without
 * IREE.
 *
 * <p><b>Memory.</b> Array arguments are lent for the call only: a function reads them during the
 * call and copies what it keeps (see {@link HostFunction} and {@link DynamicHostFunction} for what
 * happens to arguments kept anyway: a clear error or memory left to the garbage collector, never
 * freed memory read). The arrays a value function returns pass to the caller with their memory,
 * which the caller's close of the result frees: return a new array on each call (see {@link
 * DynamicHostFunction}).
 *
 * <p><b>Thread safety.</b> A built module is immutable and may be called from any number of threads
 * at once; each function body must then be thread-safe itself. {@link #close()} makes later lookups
 * and calls fail with {@link IllegalStateException}.
 *
 * <p><b>Observability.</b> Each call is reported as IREE's backend reports it: a JFR event {@code
 * dev.ireestubs.Call} (backend {@code host}, device {@code java}) while a recording takes it, and
 * the module's {@link #statistics()}, an MXBean while the module is open.
 */
public final class HostModule implements ModuleBackend {

  private final String name;
  private final Map<String, RegisteredFunction> functions; // by qualified name, sorted
  private final AtomicBoolean closed = new AtomicBoolean();
  private final CallRecorder recorder;

  private HostModule(String name, List<RegisteredFunction.Registration> registrations) {
    this.name = name;
    List<String> modules = List.of(name);
    this.recorder = CallRecorder.create("host", "java", () -> modules).register(this);
    Map<String, RegisteredFunction> byName = new TreeMap<>();
    for (RegisteredFunction.Registration r : registrations) {
      RegisteredFunction f = new RegisteredFunction(name, closed, recorder, r);
      byName.put(f.qualifiedName(), f);
    }
    this.functions = Collections.unmodifiableMap(byName);
  }

  /**
   * A fake of the compiled module {@code vmfb} in one call: named as the module, with one function
   * per entry of {@code bodies}, each taking its signature and reflection from the module's own
   * export of that name. A stub compiled against the {@code .vmfb} binds to it as it would to the
   * module on IREE's runtime, and every call is checked against the module's signatures.
   *
   * <pre>{@code
   * HostModule fake = HostModule.fake(Path.of("models/add.vmfb"), Map.of(
   *     "add", args -> add((FloatArray) args.get(0), (FloatArray) args.get(1))));
   * Adder adder = new Iree_Adder(fake);
   * }</pre>
   *
   * @param vmfb a compiled module
   * @param bodies function bodies written with Java values, by export name; exports without a body
   *     are not in the fake. The body of an asynchronous export ({@code f$async}: see {@link
   *     dev.ireestubs.abi.CoarseFences}) may return a {@link java.util.concurrent.CompletionStage}
   *     of its value, which completes the call when it completes
   * @return the fake module
   * @throws IOException when the file cannot be read
   * @throws dev.ireestubs.vmfb.VmfbFormatException when it is not a readable module
   * @throws IllegalArgumentException when the module has no export named by a key of {@code bodies}
   * @see #builder(VmfbModule) to register functions with native-ABI lists, or one by one
   */
  public static HostModule fake(Path vmfb, Map<String, DynamicHostFunction> bodies)
      throws IOException {
    Objects.requireNonNull(bodies, "bodies");
    Builder builder = builder(VmfbReader.read(vmfb));
    new TreeMap<>(bodies).forEach(builder::valueFunction);
    return builder.build();
  }

  /**
   * A builder for a fake of a compiled module: named as the module, and its {@link
   * Builder#function(String, HostFunction)} and {@link Builder#valueFunction(String,
   * DynamicHostFunction)} take each function's signature and reflection from the module's export of
   * that name.
   *
   * @param compiled a module read by {@link VmfbReader}
   * @return a builder with no functions yet
   */
  public static Builder builder(VmfbModule compiled) {
    Objects.requireNonNull(compiled, "compiled");
    return new Builder(compiled.name(), compiled);
  }

  /**
   * A builder for a module called {@code name} ({@code module} for most compiled models).
   *
   * @param name the module's name, which prefixes its functions' qualified names ({@code
   *     module.predict})
   * @return a new, empty builder
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * The module's name.
   *
   * @return the name given to {@link #builder}
   */
  public String name() {
    return name;
  }

  @Override
  public Optional<BackendFunction> lookup(String qualifiedName) {
    if (closed.get()) {
      throw new IllegalStateException(
          "host module " + name + " is closed; " + qualifiedName + " cannot be looked up");
    }
    return Optional.ofNullable(
        functions.get(ModuleBackend.qualify(qualifiedName, functions.keySet())));
  }

  @Override
  public List<String> functionNames() {
    return List.copyOf(functions.keySet());
  }

  /**
   * The signature {@code function} (module-local name) was registered with.
   *
   * @param function the function's name within the module, without the module prefix
   * @return the signature, or empty when no such function is registered
   */
  public Optional<FunctionSignature> signature(String function) {
    return Optional.ofNullable(functions.get(name + "." + function))
        .map(RegisteredFunction::registeredSignature);
  }

  /**
   * What this module's calls cost so far: how many, failures, time, bytes (see {@link
   * CallStatistics}); also registered as an MXBean under {@code
   * dev.ireestubs:type=CallStatistics,backend=host,id=<n>} until the module is closed.
   *
   * @return the module's statistics, live
   */
  public CallStatistics statistics() {
    return recorder.statistics();
  }

  /** The name the statistics are registered under, or null (tests). */
  String objectName() {
    return recorder.objectName();
  }

  /** Refuses later lookups and calls, and unregisters the statistics' MXBean. */
  @Override
  public void close() {
    closed.set(true);
    recorder.unregister();
  }

  @Override
  public String toString() {
    return "HostModule " + name + " " + functions.keySet();
  }

  /** Collects functions; not thread-safe, build once. */
  public static final class Builder {
    private final String name;
    private final Map<String, RegisteredFunction.Registration> functions = new LinkedHashMap<>();
    private final VmfbModule compiled; // null unless the builder fakes a compiled module

    private Builder(String name) {
      this(name, null);
    }

    private Builder(String name, VmfbModule compiled) {
      this.compiled = compiled;
      Objects.requireNonNull(name, "name");
      if (name.isEmpty() || name.contains(".")) {
        throw new IllegalArgumentException(
            "a module name is a non-empty identifier without '.', got '" + name + "'");
      }
      this.name = name;
    }

    /**
     * Registers {@code function} with its signature; its reflection attributes are the signature as
     * {@code iree.abi} JSON (when JSON can express it).
     *
     * @param function the function's name within the module, without the module prefix; registered
     *     at most once
     * @param signature the function's signature: what its arguments and results are checked against
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder function(String function, FunctionSignature signature, HostFunction body) {
      return add(function, signature, attributesOf(signature), body, null);
    }

    /**
     * Registers {@code function} with reflection text: {@code iree.abi} JSON when it starts with
     * <code>{</code>, else an {@code iree.abi.declaration}.
     *
     * @param function the function's name within the module, without the module prefix; registered
     *     at most once
     * @param reflection the reflection text or attributes; must parse, and give the signature
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     * @throws dev.ireestubs.abi.AbiParseException when the text does not parse
     */
    public Builder function(String function, String reflection, HostFunction body) {
      Map<String, String> attributes = Reflection.attributesOf(reflection);
      return add(function, Reflection.parse(reflection), attributes, body, null);
    }

    /**
     * Registers {@code function} with reflection attributes as a compiled module carries them
     * ({@code iree.abi}, {@code iree.abi.declaration}, V0 {@code f}, ...); the best one present
     * gives the signature.
     *
     * @param function the function's name within the module, without the module prefix; registered
     *     at most once
     * @param reflection the reflection text or attributes; must parse, and give the signature
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder function(String function, Map<String, String> reflection, HostFunction body) {
      return add(
          function, Reflection.resolve(reflection, null).signature(), reflection, body, null);
    }

    /**
     * Registers {@code function} with a body written with Java values; see {@link
     * DynamicHostFunction}. Under the coarse-fences model (a signature of that model, an {@code
     * async} declaration, a compiled {@code f$async}) the function is asynchronous: its body may
     * return a {@link java.util.concurrent.CompletionStage} of the value (this holds for every
     * {@code valueFunction}). The arrays the body returns pass to the caller, closed for the body:
     * return a new array or a copy on each call (see {@link DynamicHostFunction}).
     *
     * @param function the function's name within the module, without the module prefix; registered
     *     at most once
     * @param signature the function's signature: what its arguments and results are checked against
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder valueFunction(
        String function, FunctionSignature signature, DynamicHostFunction body) {
      return addValue(function, signature, attributesOf(signature), body);
    }

    /**
     * Registers {@code function}, described by reflection text, with a body of Java values; the
     * arrays it returns pass to the caller (see {@link DynamicHostFunction}).
     *
     * @param function the function's name within the module, without the module prefix; registered
     *     at most once
     * @param reflection the reflection text or attributes; must parse, and give the signature
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder valueFunction(String function, String reflection, DynamicHostFunction body) {
      return addValue(
          function, Reflection.parse(reflection), Reflection.attributesOf(reflection), body);
    }

    /**
     * Registers the compiled module's export {@code function}, with the signature and reflection
     * the module gives it, and a body that receives and returns native-ABI lists. Only for a
     * builder made by {@link HostModule#builder(VmfbModule)}.
     *
     * @param function the export's name
     * @param body the function's body
     * @return this builder
     * @throws IllegalStateException when this builder does not fake a compiled module
     * @throws IllegalArgumentException when the module has no such export
     */
    public Builder function(String function, HostFunction body) {
      VmfbExport export = export(function);
      return add(function, export.signature().signature(), export.reflection().asMap(), body, null);
    }

    /**
     * Registers the compiled module's export {@code function}, as {@link #function(String,
     * HostFunction)} does, with a body written with Java values (see {@link DynamicHostFunction},
     * also for the arrays it returns, which pass to the caller).
     *
     * @param function the export's name
     * @param body the function's body
     * @return this builder
     * @throws IllegalStateException when this builder does not fake a compiled module
     * @throws IllegalArgumentException when the module has no such export
     */
    public Builder valueFunction(String function, DynamicHostFunction body) {
      VmfbExport export = export(function);
      return addValue(function, export.signature().signature(), export.reflection().asMap(), body);
    }

    /**
     * Registers {@code function}, an asynchronous function of the coarse-fences model (an {@code
     * f$async} twin), with a body that returns a stage of its results: its calls return at once and
     * complete when the stage does (see {@link AsyncHostFunction}). Its reflection says {@code
     * iree.abi.model = coarse-fences}, and its calling convention has the two fence refs after the
     * arguments, as IREE's export has.
     *
     * @param function the function's name within the module, e.g. {@code predict$async}
     * @param signature its arguments and results, fences excluded; registered under the
     *     coarse-fences model whatever its own
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder asyncFunction(
        String function, FunctionSignature signature, AsyncHostFunction body) {
      FunctionSignature fenced =
          Objects.requireNonNull(signature, "signature")
              .withModel(FunctionSignature.CallingModel.COARSE_FENCES);
      return add(function, fenced, attributesOf(fenced), null, body);
    }

    /**
     * Registers {@code function}, a value function of the coarse-fences model: as {@link
     * #asyncFunction(String, FunctionSignature, AsyncHostFunction)} with a body written with Java
     * values, which returns a {@link java.util.concurrent.CompletionStage} of the result value (or
     * the value itself, to complete the call at once). The arrays of that value pass to the caller
     * as a synchronous body's do (see {@link DynamicHostFunction}).
     *
     * @param function the function's name within the module, e.g. {@code predict$async}
     * @param signature its arguments and results, fences excluded
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder asyncValueFunction(
        String function, FunctionSignature signature, DynamicHostFunction body) {
      FunctionSignature fenced =
          Objects.requireNonNull(signature, "signature")
              .withModel(FunctionSignature.CallingModel.COARSE_FENCES);
      return addValue(function, fenced, attributesOf(fenced), body);
    }

    /**
     * Registers the compiled module's asynchronous export {@code function} (an {@code f$async} of
     * the coarse-fences model: see {@link dev.ireestubs.abi.CoarseFences}) with a body that returns
     * a stage of its results. Only for a builder made by {@link HostModule#builder(VmfbModule)}.
     *
     * @param function the export's name, e.g. {@code tf2onnx$async}
     * @param body the function's body
     * @return this builder
     * @throws IllegalStateException when this builder does not fake a compiled module
     * @throws IllegalArgumentException when the module has no such export, or it takes no fences
     */
    public Builder asyncFunction(String function, AsyncHostFunction body) {
      VmfbExport export = export(function);
      FunctionSignature signature = export.signature().signature();
      if (signature.model() != FunctionSignature.CallingModel.COARSE_FENCES) {
        throw new IllegalArgumentException(
            compiled.sourceName()
                + ": export '"
                + function
                + "' is synchronous (calling convention "
                + export.callingConvention().orElse("unknown")
                + ", no wait and signal fences); register it with function(...) or"
                + " valueFunction(...)"
                + (compiled.export(CoarseFences.asyncName(function)).isPresent()
                    ? ", or fake its asynchronous twin " + CoarseFences.asyncName(function)
                    : ""));
      }
      return add(function, signature, export.reflection().asMap(), null, body);
    }

    private VmfbExport export(String function) {
      Objects.requireNonNull(function, "function");
      if (compiled == null) {
        throw new IllegalStateException(
            "module "
                + name
                + " is not built from a compiled module, so "
                + function
                + " needs its signature: use HostModule.builder(VmfbModule), or pass the"
                + " signature or reflection text");
      }
      return compiled
          .export(function)
          .orElseThrow(
              () ->
                  new IllegalArgumentException(
                      compiled.sourceName()
                          + " has no export '"
                          + function
                          + "'; its exports: "
                          + String.join(", ", compiled.exportNames())));
    }

    /**
     * The module; later changes to this builder do not affect it.
     *
     * @return a new module of the functions registered so far
     */
    public HostModule build() {
      return new HostModule(name, List.copyOf(functions.values()));
    }

    /**
     * Registers a value function: asynchronous under the coarse-fences model (its body may return a
     * stage of the value), else synchronous.
     */
    private Builder addValue(
        String function,
        FunctionSignature signature,
        Map<String, String> reflection,
        DynamicHostFunction body) {
      Objects.requireNonNull(function, "function");
      Objects.requireNonNull(body, "body");
      if (signature.model() == FunctionSignature.CallingModel.COARSE_FENCES) {
        return add(
            function, signature, reflection, null, ValueBodies.async(function, signature, body));
      }
      return add(
          function, signature, reflection, ValueBodies.sync(function, signature, body), null);
    }

    /** Registers one function; exactly one of {@code body} and {@code asyncBody} is given. */
    private Builder add(
        String function,
        FunctionSignature signature,
        Map<String, String> reflection,
        HostFunction body,
        AsyncHostFunction asyncBody) {
      Objects.requireNonNull(function, "function");
      Objects.requireNonNull(signature, "signature");
      if (body == null && asyncBody == null) {
        throw new NullPointerException("body");
      }
      if (functions.containsKey(function)) {
        throw new IllegalArgumentException(
            "function " + name + "." + function + " is registered twice");
      }
      // A function of the compiled module carries what its bytecode states, as IREE's backend's do.
      BytecodeTypes bytecode =
          compiled == null
              ? BytecodeTypes.none()
              : compiled
                  .export(function)
                  .map(VmfbExport::bytecodeTypes)
                  .orElse(BytecodeTypes.none());
      functions.put(
          function,
          new RegisteredFunction.Registration(
              function, signature, reflection, bytecode, body, asyncBody));
      return this;
    }

    private static Map<String, String> attributesOf(FunctionSignature signature) {
      Map<String, String> attributes = new LinkedHashMap<>();
      try {
        attributes.put(Reflection.IREE_ABI, AbiJson.print(signature));
      } catch (RuntimeException e) {
        // a signature JSON cannot express: the calling convention still describes it
      }
      if (signature.model() == FunctionSignature.CallingModel.COARSE_FENCES) {
        attributes.put(Reflection.MODEL, Reflection.COARSE_FENCES);
      }
      return attributes;
    }
  }
}
