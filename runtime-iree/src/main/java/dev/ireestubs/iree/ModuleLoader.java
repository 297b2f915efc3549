package dev.ireestubs.iree;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vmfb.BytecodeVersion;
import dev.ireestubs.vmfb.HalRequirement;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbFormatException;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The modules loaded into an engine's sessions (one session's, or a pool's): what iree-stubs' own
 * reader saw in each, the checks made before IREE sees a module (a runtime generation other than
 * the library's, a duplicate name, parameters the sessions do not bind), and what IREE's refusal
 * means ({@link ModuleErrors}). The engine's {@link EngineLoading} makes each module once ({@link
 * SharedModule}) and each session appends it. Loads run under its loading lock; {@link #modules()}
 * and {@link #functionNames()} may be read at any time.
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
  private final String driverName;
  private final List<Loaded> modules = new CopyOnWriteArrayList<>();

  ModuleLoader(Native api, String driverName) {
    this.api = api;
    this.driverName = driverName;
  }

  /** Records a module every session appended. */
  void added(String source, Read read) {
    modules.add(new Loaded(source, read.module()));
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

  /** The checks made before IREE sees a module (see the class comment). */
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

  /** What IREE's refusal {@code status} (consumed) of a module means. */
  IreeInvocationException loadFailure(
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
