package dev.ireestubs.iree;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * How an {@link Engine} loads modules and binds parameters into all its sessions: it reads and
 * checks a {@code .vmfb} (a file, mapped for the load, or a buffer's bytes), makes one IREE module
 * of it ({@link SharedModule}) and appends that to every session ({@link NativeSession#append}); it
 * builds IREE's parameters module once and binds it in every session; and it keeps the modules it
 * made until the engine's shared state is released ({@link #release}). What the modules are and
 * what IREE's refusal of one means are the {@link ModuleLoader}'s (and {@link ModuleErrors}').
 *
 * <p>It touches the engine's sessions (their loading steps, each under its session's lock), the
 * runtime's instance and allocator, and its own state under its loading lock: the modules made and
 * the parameter scopes bound. It does not name the engine: what it needs of it, the open check and
 * the close after a step failed on some sessions only, it is given at construction.
 */
final class EngineLoading {

  private final RuntimeNatives runtime;
  private final String driverName;
  private final List<NativeSession> sessions;
  private final ModuleLoader loader;

  /** "session" or "pool", for messages. */
  private final String noun;

  /** Throws when the engine is closed, naming the action refused. */
  private final Consumer<String> checkOpen;

  /** Closes the engine at once: after a step failed on some of its sessions, they differ. */
  private final Runnable closeNow;

  private final ReentrantLock loading = new ReentrantLock();
  private final List<SharedModule> modules = new ArrayList<>(); // guarded by loading

  /** The scopes bound by {@link #bindParameters}, once; empty before (guarded by loading). */
  private Optional<Set<String>> boundScopes = Optional.empty();

  /**
   * The loading of {@code sessions} (on a device of {@code driverName}), recording what they load
   * in {@code loader}.
   *
   * @param noun how messages name the engine's face: "session" or "pool"
   * @param checkOpen throws when the engine is closed, naming the action refused
   * @param closeNow closes the engine at once (when a step failed on a later session)
   */
  EngineLoading(
      RuntimeNatives runtime,
      String driverName,
      List<NativeSession> sessions,
      ModuleLoader loader,
      String noun,
      Consumer<String> checkOpen,
      Runnable closeNow) {
    this.runtime = runtime;
    this.driverName = driverName;
    this.sessions = List.copyOf(sessions);
    this.loader = loader;
    this.noun = noun;
    this.checkOpen = checkOpen;
    this.closeNow = closeNow;
  }

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
      checkOpen.accept("load " + source);
      loader.check(source, read, boundScopes);
      Optional<Set<String>> scopes = boundScopes;
      SharedModule module = SharedModule.create(runtime, driverName, bytes, source, read, scopes);
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
      checkOpen.accept("bind parameters " + ParameterBinder.quoted(parameters));
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
          closeNow.run();
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

  /**
   * Frees the modules made, and their bytes, once the sessions are released (after the device: see
   * {@link Engine}'s release). Under the loading lock, so after any load that was under way.
   */
  void release() {
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
  }
}
