package dev.ireestubs.host;

import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.invoke.AbiValues;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeException;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
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
 * <p>Every call is checked both ways: the argument list against the declared arguments before
 * the function runs ({@link IreeValueException} of side ARGUMENT), and what the function returns against the
 * declared results after ({@link IreeValueException} of side RESULT, naming the result that is wrong), so a fake
 * cannot drift from the real module's signature unnoticed. An exception thrown by a function body
 * that is not an {@link IreeException} arrives as an {@link IreeInvocationException} with it as
 * the cause.
 *
 * <p><b>Memory.</b> Array arguments are lent for the call only: a function reads them during the
 * call and copies what it keeps (see {@link HostFunction} and {@link DynamicHostFunction} for what
 * happens to arguments kept anyway: a clear error or memory left to the garbage collector, never
 * freed memory read).
 *
 * <p><b>Thread safety.</b> A built module is immutable and may be called from any number of
 * threads at once; each function body must then be thread-safe itself. {@link #close()} makes
 * later lookups and calls fail with {@link IllegalStateException}.
 */
public final class HostModule implements ModuleBackend {

  private final String name;
  private final Map<String, Function> functions; // by qualified name, sorted
  private final AtomicBoolean closed = new AtomicBoolean();

  private HostModule(String name, List<Registration> registrations) {
    this.name = name;
    Map<String, Function> byName = new TreeMap<>();
    for (Registration r : registrations) {
      Function f = new Function(r);
      byName.put(f.qualifiedName, f);
    }
    this.functions = Collections.unmodifiableMap(byName);
  }

  /** A function as registered, before the module exists. */
  private record Registration(
      String localName,
      FunctionSignature signature,
      Map<String, String> reflection,
      BytecodeTypes bytecodeTypes,
      HostFunction body) {}

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
   *     are not in the fake
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
   * DynamicHostFunction)} take each function's signature and reflection from the module's export
   * of that name.
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
    return Optional.ofNullable(functions.get(qualifiedName));
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
    return Optional.ofNullable(functions.get(name + "." + function)).map(f -> f.signature);
  }

  @Override
  public void close() {
    closed.set(true);
  }

  @Override
  public String toString() {
    return "HostModule " + name + " " + functions.keySet();
  }

  /** Collects functions; not thread-safe, build once. */
  public static final class Builder {
    private final String name;
    private final Map<String, Registration> functions = new LinkedHashMap<>();
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
     * Registers {@code function} with its signature; its reflection attributes are the signature
     * as {@code iree.abi} JSON (when JSON can express it).
     *
     * @param function the function's name within the module, without the module prefix;
     *     registered at most once
     * @param signature the function's signature: what its arguments and results are checked
     *     against
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder function(String function, FunctionSignature signature, HostFunction body) {
      return add(function, signature, attributesOf(signature), body);
    }

    /**
     * Registers {@code function} with reflection text: {@code iree.abi} JSON when it starts with
     * <code>{</code>, else an {@code iree.abi.declaration}.
     *
     * @param function the function's name within the module, without the module prefix;
     *     registered at most once
     * @param reflection the reflection text or attributes; must parse, and give the signature
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     * @throws dev.ireestubs.abi.AbiParseException when the text does not parse
     */
    public Builder function(String function, String reflection, HostFunction body) {
      Map<String, String> attributes = Reflection.attributesOf(reflection);
      return add(function, Reflection.parse(reflection), attributes, body);
    }

    /**
     * Registers {@code function} with reflection attributes as a compiled module carries them
     * ({@code iree.abi}, {@code iree.abi.declaration}, V0 {@code f}, ...); the best one present
     * gives the signature.
     *
     * @param function the function's name within the module, without the module prefix;
     *     registered at most once
     * @param reflection the reflection text or attributes; must parse, and give the signature
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder function(String function, Map<String, String> reflection, HostFunction body) {
      return add(function, Reflection.resolve(reflection, null).signature(), reflection, body);
    }

    /**
     * Registers {@code function} with a body written with Java values; see {@link
     * DynamicHostFunction}.
     *
     * @param function the function's name within the module, without the module prefix;
     *     registered at most once
     * @param signature the function's signature: what its arguments and results are checked
     *     against
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder valueFunction(
        String function, FunctionSignature signature, DynamicHostFunction body) {
      return function(function, signature, adapt(function, signature, body));
    }

    /**
     * Registers {@code function}, described by reflection text, with a body of Java values.
     *
     * @param function the function's name within the module, without the module prefix;
     *     registered at most once
     * @param reflection the reflection text or attributes; must parse, and give the signature
     * @param body the Java code the function runs, with checked arguments
     * @return this builder
     */
    public Builder valueFunction(String function, String reflection, DynamicHostFunction body) {
      FunctionSignature signature = Reflection.parse(reflection);
      return add(
          function, signature, Reflection.attributesOf(reflection), adapt(function, signature, body));
    }

    /**
     * Registers the compiled module's export {@code function}, with the signature and reflection
     * the module gives it, and a body that receives and returns native-ABI lists. Only for a builder
     * made by {@link HostModule#builder(VmfbModule)}.
     *
     * @param function the export's name
     * @param body the function's body
     * @return this builder
     * @throws IllegalStateException when this builder does not fake a compiled module
     * @throws IllegalArgumentException when the module has no such export
     */
    public Builder function(String function, HostFunction body) {
      VmfbExport export = export(function);
      return add(
          function,
          export.signature().signature(),
          export.reflection().asMap(),
          export.bytecodeTypes(),
          body);
    }

    /**
     * Registers the compiled module's export {@code function}, as {@link #function(String,
     * HostFunction)} does, with a body written with Java values (see {@link DynamicHostFunction}).
     *
     * @param function the export's name
     * @param body the function's body
     * @return this builder
     * @throws IllegalStateException when this builder does not fake a compiled module
     * @throws IllegalArgumentException when the module has no such export
     */
    public Builder valueFunction(String function, DynamicHostFunction body) {
      VmfbExport export = export(function);
      FunctionSignature signature = export.signature().signature();
      return add(
          function,
          signature,
          export.reflection().asMap(),
          export.bytecodeTypes(),
          adapt(function, signature, body));
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

    private Builder add(
        String function,
        FunctionSignature signature,
        Map<String, String> reflection,
        HostFunction body) {
      return add(function, signature, reflection, BytecodeTypes.none(), body);
    }

    private Builder add(
        String function,
        FunctionSignature signature,
        Map<String, String> reflection,
        BytecodeTypes bytecodeTypes,
        HostFunction body) {
      Objects.requireNonNull(function, "function");
      Objects.requireNonNull(signature, "signature");
      Objects.requireNonNull(body, "body");
      if (functions.containsKey(function)) {
        throw new IllegalArgumentException(
            "function " + name + "." + function + " is registered twice");
      }
      functions.put(
          function, new Registration(function, signature, reflection, bytecodeTypes, body));
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

    private static HostFunction adapt(
        String function, FunctionSignature signature, DynamicHostFunction body) {
      // Each argument's path, built once here rather than on every call.
      List<AbiType> declared = signature.arguments();
      String[] paths = new String[declared.size()];
      for (int i = 0; i < paths.length; i++) {
        AbiType type = declared.get(i);
        String name = type instanceof AbiType.Named ? ((AbiType.Named) type).name() : "arg" + i;
        paths[i] = function + ": " + name;
      }
      return arguments -> {
        // The arguments were checked on the way in (checkArguments), so decoding cannot fail.
        List<Object> values = new ArrayList<>(arguments.size());
        for (int i = 0; i < arguments.size(); i++) {
          values.add(AbiValues.decode(declared.get(i), arguments.get(i), paths[i]));
        }
        Object result = body.call(Collections.unmodifiableList(values));
        VmList results = AbiValues.packResults(signature, result, function);
        if (CLOSES_ARGUMENTS) {
          closeArrays(values, 0);
        }
        return results;
      };
    }

    /**
     * True where the arrays a value function was given are closed when it returns (JDK 22+): their
     * memory is then arena memory, which fails cleanly (an {@link IllegalStateException}) if the
     * function kept and uses it. Below JDK 22 freed memory would be read unchecked, so the arrays
     * stay open and their lent memory is left to the garbage collector.
     */
    private static final boolean CLOSES_ARGUMENTS = Runtime.version().feature() >= 22;

    /**
     * Closes the arrays among decoded argument values (in lists and maps too) that borrow lent
     * memory: that releases their pins only, so a result that is such an argument stays valid
     * through its own view's lease. Arrays that copied heap data stay open (a result may be one).
     */
    private static void closeArrays(Object value, int depth) {
      if (value instanceof NdArray) {
        NdArray array = (NdArray) value;
        if (array.isBorrowed()) {
          array.close();
        }
      } else if (depth < 32 && value instanceof Collection) {
        for (Object element : (Collection<?>) value) {
          closeArrays(element, depth + 1);
        }
      } else if (depth < 32 && value instanceof Map) {
        for (Object element : ((Map<?, ?>) value).values()) {
          closeArrays(element, depth + 1);
        }
      }
    }

  }

  /** One registered function. */
  private final class Function implements BackendFunction {
    private final String qualifiedName;
    private final String localName;
    private final FunctionSignature signature;
    private final Map<String, String> reflection;
    private final BytecodeTypes bytecodeTypes;
    private final String callingConvention;
    private final HostFunction body;

    Function(Registration r) {
      this.qualifiedName = name + "." + r.localName();
      this.localName = r.localName();
      this.signature = r.signature();
      this.reflection = Collections.unmodifiableMap(new LinkedHashMap<>(r.reflection()));
      this.bytecodeTypes = r.bytecodeTypes();
      this.callingConvention =
          CallingConvention.expectedFor(signature).map(CallingConvention::toString).orElse("");
      this.body = r.body();
    }

    @Override
    public String qualifiedName() {
      return qualifiedName;
    }

    @Override
    public String callingConvention() {
      return callingConvention;
    }

    @Override
    public Map<String, String> reflection() {
      return reflection;
    }

    @Override
    public BytecodeTypes bytecodeTypes() {
      return bytecodeTypes;
    }

    @Override
    public VmList invoke(VmList arguments) {
      if (closed.get()) {
        throw new IllegalStateException(
            "host module " + name + " is closed; " + qualifiedName + " cannot be called");
      }
      AbiValues.checkArguments(signature, arguments, localName);
      VmList results;
      try {
        results = body.call(arguments);
      } catch (IreeException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new IreeInvocationException(
            "host function " + qualifiedName + " failed: " + e, e);
      }
      AbiValues.checkResults(signature, results, localName);
      return results;
    }

    @Override
    public String toString() {
      return qualifiedName + signature;
    }
  }
}
