package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vmfb.BytecodeVersion;
import dev.ireestubs.vmfb.HalRequirement;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The modules loaded into one session: what iree-stubs' own reader saw in each, the checks made
 * before IREE sees a module (a runtime generation other than the library's, a duplicate name,
 * parameters the session does not bind), appending it to the session from a file or from memory,
 * and what IREE's refusal means ({@link ModuleErrors}). Loads run under the session's lock; {@link
 * #modules()} and {@link #functionNames()} may be read at any time.
 */
final class ModuleLoader {

  /** What iree-stubs' reader made of a module: its contents, or why it could not read them. */
  record Read(Optional<VmfbModule> module, String unreadable) {

    static Read of(Path vmfb) throws IOException {
      try {
        return new Read(Optional.of(VmfbReader.read(vmfb)), null);
      } catch (VmfbFormatException e) {
        return new Read(Optional.empty(), e.getMessage());
      }
    }

    static Read of(ByteBuffer bytes, String name) {
      try {
        return new Read(Optional.of(VmfbReader.read(bytes, name)), null);
      } catch (VmfbFormatException e) {
        return new Read(Optional.empty(), e.getMessage());
      }
    }
  }

  /** A module as loaded, with what iree-stubs' own reader saw in it (when it could read it). */
  private record Loaded(String source, Optional<VmfbModule> module) {}

  private final Native api;
  private final MemorySegment session;
  private final String driverName;
  private final MemorySegment nullAllocator;
  private final List<Arena> moduleMemory = new ArrayList<>();
  private final List<Loaded> modules = new CopyOnWriteArrayList<>();

  /**
   * @param nullAllocator an {@code iree_allocator_t} of {@code {NULL, NULL}}: IREE frees nothing
   */
  ModuleLoader(Native api, MemorySegment session, String driverName, MemorySegment nullAllocator) {
    this.api = api;
    this.session = session;
    this.driverName = driverName;
    this.nullAllocator = nullAllocator;
  }

  /** Appends the module file {@code vmfb} (IREE reads it whole, now). */
  void appendFile(Path vmfb, Read read, Optional<Set<String>> boundScopes) {
    String source = vmfb.toString();
    check(source, read, boundScopes);
    try (Arena tmp = Arena.ofConfined()) {
      long status =
          api.sessions()
              .sessionAppendModuleFromFile(
                  session, tmp.allocateFrom(vmfb.toAbsolutePath().toString()));
      if (status != 0) {
        throw loadFailure(status, source, read, boundScopes);
      }
    }
    modules.add(new Loaded(source, read.module()));
  }

  /**
   * Appends the module in {@code bytes} (all of them, not empty), copied into 64-byte-aligned
   * native memory kept until {@link #close()}.
   */
  void appendBytes(ByteBuffer bytes, String name, Read read, Optional<Set<String>> boundScopes) {
    check(name, read, boundScopes);
    int length = bytes.remaining();
    Arena memory = Arena.ofShared();
    try (Arena tmp = Arena.ofConfined()) {
      MemorySegment copy = memory.allocate(length, 64); // IREE_VM_ARCHIVE_SEGMENT_ALIGNMENT
      MemorySegment.copy(MemorySegment.ofBuffer(bytes), 0, copy, 0, length);
      MemorySegment span = tmp.allocate(Layouts.BYTE_SPAN);
      span.set(ADDRESS, Layouts.BYTE_SPAN_DATA, copy);
      span.set(JAVA_LONG, Layouts.BYTE_SPAN_LENGTH, length);
      long status = api.sessions().sessionAppendModuleFromMemory(session, span, nullAllocator);
      if (status != 0) {
        throw loadFailure(status, name, read, boundScopes);
      }
    } catch (RuntimeException | Error e) {
      memory.close(); // IREE holds no reference to bytes it refused
      throw e;
    }
    moduleMemory.add(memory);
    modules.add(new Loaded(name, read.module()));
  }

  /**
   * Appends a module made once for several sessions ({@link SharedModule}, a pool's): the session's
   * context retains it and runs its initialiser in this context.
   */
  void appendShared(SharedModule module, Optional<Set<String>> boundScopes) {
    check(module.source(), module.read(), boundScopes);
    long status = api.parameters().sessionAppendModule(session, module.handle());
    if (status != 0) {
      throw loadFailure(status, module.source(), module.read(), boundScopes);
    }
    modules.add(new Loaded(module.source(), module.read().module()));
  }

  /**
   * The names of the loaded modules, in load order (the source of one the reader could not read).
   */
  List<String> moduleNames() {
    List<String> names = new ArrayList<>();
    for (Loaded l : modules) {
      names.add(l.module().map(VmfbModule::name).orElse(l.source()));
    }
    return names;
  }

  /** What iree-stubs' reader saw in each loaded module, in load order (modules it could read). */
  List<VmfbModule> modules() {
    List<VmfbModule> out = new ArrayList<>();
    for (Loaded l : modules) {
      l.module().ifPresent(out::add);
    }
    return List.copyOf(out);
  }

  /** The exported functions of the modules the reader could read, {@code module.function}. */
  List<String> functionNames() {
    TreeSet<String> names = new TreeSet<>();
    for (Loaded l : modules) {
      l.module()
          .ifPresent(
              m -> {
                for (VmfbExport e : m.exports()) {
                  names.add(m.name() + "." + e.name());
                }
              });
    }
    return List.copyOf(names);
  }

  /** Where each module came from (a file, or the name given), in load order. */
  List<String> sources() {
    List<String> names = new ArrayList<>();
    for (Loaded l : modules) {
      names.add(l.source());
    }
    return names;
  }

  /** Frees the memory of modules loaded from bytes: after the session is released. */
  void close() {
    for (Arena memory : moduleMemory) {
      memory.close(); // after the session: its modules referenced these bytes
    }
    moduleMemory.clear();
  }

  void check(String source, Read read, Optional<Set<String>> boundScopes) {
    checkGeneration(source, read.module(), api.release());
    checkName(source, read.module());
    checkParameters(source, read.module(), boundScopes);
  }

  /**
   * Refuses, before IREE resolves its imports, a module compiled for the other runtime generation
   * than {@code runtime}'s (modules the reader could not read, and runtimes of unknown release, are
   * left to IREE).
   */
  static void checkGeneration(String source, Optional<VmfbModule> info, RuntimeRelease runtime) {
    if (info.isEmpty()) {
      return;
    }
    HalRequirement requirement = info.get().halRequirement();
    if (!ModuleErrors.generationsMatch(requirement, runtime)) {
      throw ModuleErrors.wrongGeneration(
          source, requirement, runtime, info.get().bytecodeVersion());
    }
  }

  private IreeInvocationException loadFailure(
      long status, String source, Read read, Optional<Set<String>> boundScopes) {
    return loadFailure(api, driverName, status, source, read, boundScopes);
  }

  /** What IREE's refusal {@code status} (consumed) of a module means. */
  static IreeInvocationException loadFailure(
      Native api,
      String driverName,
      long status,
      String source,
      Read read,
      Optional<Set<String>> boundScopes) {
    int code = IreeStatusCode.codeOf(status);
    String text = api.status().consumeStatus(status);
    if (read.unreadable() != null) {
      text += " (iree-stubs' module reader could not read it either: " + read.unreadable() + ")";
    }
    Optional<BytecodeVersion> version = read.module().flatMap(VmfbModule::bytecodeVersion);
    return ModuleErrors.loadFailure(
        source,
        code,
        text,
        version,
        read.module().map(VmfbModule::schemaEra),
        driverName,
        boundScopes);
  }

  /**
   * Refuses a second module of a name already loaded: IREE resolves {@code name.function} to the
   * module appended last, so the first one's functions would be silently shadowed (modules the
   * reader could not read are not checked; IREE may still refuse them).
   */
  private void checkName(String source, Optional<VmfbModule> info) {
    if (info.isEmpty()) {
      return;
    }
    String name = info.get().name();
    for (Loaded l : modules) {
      if (l.module().isPresent() && l.module().get().name().equals(name)) {
        throw ModuleErrors.duplicateName(source, name, l.source());
      }
    }
  }

  /**
   * Refuses, before IREE runs its initialiser, a module that loads parameters from scopes this
   * session does not bind (modules the reader could not read are left to IREE).
   */
  private static void checkParameters(
      String source, Optional<VmfbModule> info, Optional<Set<String>> boundScopes) {
    if (info.isEmpty() || !info.get().needsParameters()) {
      return;
    }
    List<String> needed = info.get().parameterScopes();
    if (boundScopes.isEmpty() || !boundScopes.get().containsAll(needed)) {
      throw ModuleErrors.missingParameters(source, needed, boundScopes);
    }
  }
}
