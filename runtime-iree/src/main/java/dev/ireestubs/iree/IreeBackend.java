package dev.ireestubs.iree;

import dev.ireestubs.invoke.ModuleBackend;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The short way to run a compiled module on IREE's runtime: {@link #open(Path)} loads the library,
 * creates a runtime and a session, loads the {@code .vmfb}, and returns the session, a {@link
 * dev.ireestubs.invoke.ModuleBackend} that a generated stub takes. Closing the session releases all
 * of it.
 *
 * <pre>{@code
 * // -Diree.runtime.library=/opt/iree/lib/libiree_runtime.so, JDK 22+,
 * // --enable-native-access=ALL-UNNAMED
 * try (IreeSession backend = IreeBackend.open(Path.of("model.vmfb"))) {
 *   Model model = new Iree_Model(backend);
 *   ...
 * }
 * }</pre>
 *
 * <p>A module that keeps its weights in parameter archives gets them through {@link
 * Options#withParameters}:
 *
 * <pre>{@code
 * Parameters weights = Parameters.builder().scope("model", Path.of("weights.irpa")).build();
 * try (IreeSession backend =
 *     IreeBackend.open(Path.of("model.vmfb"), Options.defaults().withParameters(weights))) {
 *   ...
 * }
 * }</pre>
 *
 * <p>For calls from many threads at once, {@link #openPool} loads the module into a pool of
 * sessions that share it ({@link IreeSessionPool}). For several modules in one session, or several
 * sessions on one runtime, use {@link IreeRuntime} and {@link IreeSession#load(Path)} directly.
 */
public final class IreeBackend {
  private IreeBackend() {}

  /**
   * How {@link IreeBackend#open(Path, Options)} sets things up. Immutable.
   *
   * @param library the runtime library file; empty: the system property {@value
   *     IreeLibrary#PROPERTY}, else the environment variable {@value
   *     IreeLibrary#ENVIRONMENT_VARIABLE}, else the native jar on the class path, else the
   *     conventional location ({@link IreeLibrary#load()})
   * @param device the device to run on
   * @param parameters the parameter archives of a module that loads external weights ({@link
   *     Parameters#none()} for others)
   */
  public record Options(Optional<Path> library, Device device, Parameters parameters) {
    /**
     * Checks that no component is null (an absent library is an empty {@code Optional}).
     *
     * @param library the runtime library file; empty for the one {@link IreeLibrary#load()} finds
     * @param device the device to run on
     * @param parameters the parameter archives bound before the module loads; {@link
     *     Parameters#none()} for a module without external weights
     */
    public Options {
      Objects.requireNonNull(library, "library");
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(parameters, "parameters");
    }

    /**
     * Options without parameters.
     *
     * @param library the runtime library file; empty for the one {@link IreeLibrary#load()} finds
     * @param device the device to run on
     */
    public Options(Optional<Path> library, Device device) {
      this(library, device, Parameters.none());
    }

    /**
     * The library from the property or environment, on {@link Device#LOCAL_SYNC}.
     *
     * @return the default options
     */
    public static Options defaults() {
      return new Options(Optional.empty(), Device.LOCAL_SYNC, Parameters.none());
    }

    /**
     * These options with the library file {@code file}.
     *
     * @param file the runtime library file ({@code libiree_runtime.so} or the platform's
     *     equivalent)
     * @return a copy of these options with only the library changed
     */
    public Options withLibrary(Path file) {
      return new Options(Optional.of(Objects.requireNonNull(file, "file")), device, parameters);
    }

    /**
     * These options on {@code newDevice}.
     *
     * @param newDevice the device to run on
     * @return a copy of these options with only the device changed
     */
    public Options withDevice(Device newDevice) {
      return new Options(library, newDevice, parameters);
    }

    /**
     * These options with the parameter archives {@code newParameters} bound at load.
     *
     * @param newParameters the parameter archives; {@link Parameters#none()} for none
     * @return a copy of these options with only the parameters changed
     */
    public Options withParameters(Parameters newParameters) {
      return new Options(library, device, newParameters);
    }
  }

  /**
   * A session on {@link Device#LOCAL_SYNC} with {@code vmfb} loaded, in the library {@link
   * IreeLibrary#load()} finds (system property, environment variable, class path, conventional
   * location).
   *
   * @param vmfb the compiled module file ({@code .vmfb})
   * @return a session holding the loaded module, owning a runtime of its own: close it to release
   *     both
   * @throws IOException when the file cannot be read
   * @throws IreeLibraryException when no usable runtime library is found
   * @throws IreeIncompatibleModuleException when the module was compiled by another IREE release or
   *     for another CPU
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE fails otherwise
   */
  public static IreeSession open(Path vmfb) throws IOException {
    return open(vmfb, Options.defaults());
  }

  /**
   * A session with {@code vmfb} loaded, set up as {@code options} say. The session owns its
   * runtime: closing it releases both.
   *
   * @param vmfb the compiled module file ({@code .vmfb})
   * @param options the library, device and parameter archives to use
   * @return a session holding the loaded module, owning a runtime of its own: close it to release
   *     both
   * @throws IOException when the file cannot be read
   * @throws IreeLibraryException when the runtime library cannot be used
   * @throws IreeIncompatibleModuleException when the module was compiled by another IREE release or
   *     for another CPU
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE fails otherwise
   */
  public static IreeSession open(Path vmfb, Options options) throws IOException {
    Objects.requireNonNull(vmfb, "vmfb");
    return session(options, engine -> engine.load(vmfb, options.parameters()));
  }

  /**
   * A session with the module at {@code module} loaded, set up as {@code options} say: a module
   * shipped inside the application's jar, {@code IreeBackend.open(App.class.getResource(
   * "/models/model.vmfb"), options)}. The module's bytes are read once into native memory the
   * session keeps (a {@code .vmfb} cannot be loaded from inside a jar as a file); its name in
   * messages is the URL's last path segment. The session owns its runtime: closing it releases
   * both.
   *
   * @param module where the compiled module is: a class-path resource's URL, or any URL Java reads
   * @param options the library, device and parameter archives to use
   * @return a session holding the loaded module, owning a runtime of its own
   * @throws IOException when the URL cannot be read
   * @throws IreeLibraryException when the runtime library cannot be used
   * @throws IreeIncompatibleModuleException when the module was compiled by another IREE release or
   *     for another CPU
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE fails otherwise
   */
  public static IreeSession open(URL module, Options options) throws IOException {
    return session(options, fromUrl(module, options));
  }

  /**
   * A pool of as many sessions as this machine has processors, on {@link Device#LOCAL_SYNC}, with
   * {@code vmfb} loaded once for all of them: for calls from many threads at once (see {@link
   * IreeSessionPool}). The library is found as {@link #open(Path)} finds it.
   *
   * @param vmfb the compiled module file ({@code .vmfb})
   * @return a pool holding the loaded module, owning a runtime of its own: close it to release both
   * @throws IOException when the file cannot be read
   * @throws IreeLibraryException when no usable runtime library is found
   * @throws IreeIncompatibleModuleException when the module was compiled by another IREE release or
   *     for another CPU
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE fails otherwise
   */
  public static IreeSessionPool openPool(Path vmfb) throws IOException {
    return openPool(
        vmfb, Options.defaults(), IreeSessionPool.defaultSize(Options.defaults().device()));
  }

  /**
   * A pool of {@code size} sessions with {@code vmfb} loaded once for all of them, set up as {@code
   * options} say (library, device, parameter archives); a call that finds every session busy waits
   * for one without bound ({@link IreeRuntime#newPool(Device, int, java.time.Duration)} bounds it).
   * The pool owns its runtime: closing it releases both.
   *
   * @param vmfb the compiled module file ({@code .vmfb})
   * @param options the library, device and parameter archives to use
   * @param size how many sessions: from 1 to {@value IreeSessionPool#MAX_SIZE} (to 32 on
   *     local-task)
   * @return a pool holding the loaded module
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException when {@code size} is out of range
   * @throws IreeLibraryException when the runtime library cannot be used
   * @throws IreeIncompatibleModuleException when the module was compiled by another IREE release or
   *     for another CPU
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE fails otherwise
   */
  public static IreeSessionPool openPool(Path vmfb, Options options, int size) throws IOException {
    Objects.requireNonNull(vmfb, "vmfb");
    return pool(options, size, engine -> engine.load(vmfb, options.parameters()));
  }

  /**
   * A pool of {@code size} sessions with the module at {@code module} loaded once for all of them,
   * as {@link #openPool(Path, Options, int)} makes it: a module shipped inside the application's
   * jar, read once as {@link #open(URL, Options)} reads it.
   *
   * @param module where the compiled module is: a class-path resource's URL, or any URL Java reads
   * @param options the library, device and parameter archives to use
   * @param size how many sessions: from 1 to {@value IreeSessionPool#MAX_SIZE} (to 32 on
   *     local-task)
   * @return a pool holding the loaded module, owning a runtime of its own
   * @throws IOException when the URL cannot be read
   * @throws IllegalArgumentException when {@code size} is out of range
   * @throws IreeLibraryException when the runtime library cannot be used
   * @throws IreeIncompatibleModuleException when the module was compiled by another IREE release or
   *     for another CPU
   * @throws dev.ireestubs.invoke.IreeInvocationException when IREE fails otherwise
   */
  public static IreeSessionPool openPool(URL module, Options options, int size) throws IOException {
    return pool(options, size, fromUrl(module, options));
  }

  /** What {@code open} loads into a new session's or pool's engine. */
  @FunctionalInterface
  private interface Loading {
    void into(EngineLoading engine) throws IOException;
  }

  /** A session owning a runtime of its own, {@code loading} done, or nothing left open. */
  private static IreeSession session(Options options, Loading loading) throws IOException {
    return open(
        options,
        runtime -> runtime.newSession(options.device(), true),
        IreeSession::engine,
        loading);
  }

  /** A pool owning a runtime of its own, {@code loading} done, or nothing left open. */
  private static IreeSessionPool pool(Options options, int size, Loading loading)
      throws IOException {
    return open(
        options,
        runtime -> runtime.newPool(options.device(), size, null, true),
        IreeSessionPool::engine,
        loading);
  }

  /**
   * A backend {@code make} creates on a new runtime it owns, with {@code loading} done into its
   * engine; on any failure whatever was made is closed (the runtime with it).
   */
  private static <B extends ModuleBackend> B open(
      Options options, Function<IreeRuntime, B> make, Function<B, Engine> engine, Loading loading)
      throws IOException {
    IreeRuntime runtime = runtime(options);
    B backend;
    try {
      backend = make.apply(runtime);
    } catch (RuntimeException | Error e) {
      runtime.close();
      throw e;
    }
    try {
      loading.into(engine.apply(backend).loading());
      return backend;
    } catch (IOException | RuntimeException | Error e) {
      backend.close();
      throw e;
    }
  }

  private static IreeRuntime runtime(Options options) {
    Objects.requireNonNull(options, "options");
    IreeLibrary library = options.library().map(IreeLibrary::load).orElseGet(IreeLibrary::load);
    return IreeRuntime.create(library);
  }

  /**
   * Loading the module at {@code module}: its bytes read now, bound parameters first when {@code
   * options} give some, named by the URL's last path segment.
   */
  private static Loading fromUrl(URL module, Options options) throws IOException {
    Objects.requireNonNull(module, "module");
    Objects.requireNonNull(options, "options");
    String path = module.getPath();
    String last = path.substring(path.lastIndexOf('/') + 1);
    String name = last.isEmpty() ? module.toString() : last;
    byte[] bytes;
    try (InputStream in = module.openStream()) {
      bytes = in.readAllBytes();
    }
    return engine -> {
      if (!options.parameters().isEmpty()) {
        engine.bindParameters(options.parameters());
      }
      engine.load(ByteBuffer.wrap(bytes), name);
    };
  }
}
