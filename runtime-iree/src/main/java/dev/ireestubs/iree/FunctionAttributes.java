package dev.ireestubs.iree;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.YieldReach;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a looked-up function's reflection attributes, from IREE or from iree-stubs' reader, and,
 * from iree-stubs' reader, the types its bytecode states and whether its calls reach a {@code
 * vm.yield}.
 */
final class FunctionAttributes {
  private FunctionAttributes() {}

  /**
   * The function's reflection attributes from {@code iree_vm_function_get_attr}, in the module's
   * order; when the runtime cannot list them, those iree-stubs' reader found in {@code modules}.
   */
  static Map<String, String> read(
      Native api, Arena tmp, MemorySegment handle, String qualifiedName, List<VmfbModule> modules) {
    Map<String, String> out = new LinkedHashMap<>();
    MemorySegment pair = tmp.allocate(Layouts.STRING_PAIR);
    for (long i = 0; ; i++) {
      long status = api.sessions().functionGetAttr(handle, i, pair);
      if (status != 0) {
        int code = IreeStatusCode.codeOf(status);
        api.status().freeStatus(status);
        if (code == IreeStatusCode.OUT_OF_RANGE.code()) {
          return out; // past the last attribute
        }
        return fromReader(qualifiedName, modules).orElse(out);
      }
      String key = StringViews.read(pair.asSlice(Layouts.STRING_PAIR_KEY, 16));
      String value = StringViews.read(pair.asSlice(Layouts.STRING_PAIR_VALUE, 16));
      out.putIfAbsent(key, value);
    }
  }

  /**
   * The types the function's bytecode states, as iree-stubs' reader found them in {@code modules}
   * ({@link VmfbExport#bytecodeTypes()}); none when the function is not among them.
   */
  static BytecodeTypes bytecodeTypes(String qualifiedName, List<VmfbModule> modules) {
    return export(qualifiedName, modules)
        .map(VmfbExport::bytecodeTypes)
        .orElse(BytecodeTypes.none());
  }

  /**
   * The modules of IREE's own a session registers ({@code hal}, and {@code io_parameters} when it
   * binds parameters), whose functions suspend a call only to wait. In IREE 3.11 and 3.12 the one
   * native function that returns {@code IREE_STATUS_DEFERRED} is {@code hal.fence.await}, and it
   * enters a wait frame first ({@code iree_hal_module_fence_await_begin} in {@code
   * runtime/src/iree/modules/hal/module.c}: {@code iree_vm_stack_wait_enter}, then {@code
   * DEFERRED}), on which {@code iree_vm_invoke} waits and then resumes the call ({@code
   * runtime/src/iree/vm/invocation.c}). A call of theirs never spins.
   */
  static final Set<String> NATIVE_MODULES = Set.of("hal", "io_parameters");

  /**
   * Why a call of the function would never return in IREE's runtime: the calls it makes reach a
   * {@code vm.yield}, in its own module or, through an import, in another loaded module ({@link
   * VmfbExport#yieldReach()}); empty when they reach none, or when the reader could not tell
   * (bodies it could not read are not refused).
   */
  static Optional<String> yieldReason(String qualifiedName, List<VmfbModule> modules) {
    return yieldReason(qualifiedName, modules, new HashSet<>());
  }

  private static Optional<String> yieldReason(
      String qualifiedName, List<VmfbModule> modules, Set<String> seen) {
    Optional<VmfbExport> export = export(qualifiedName, modules);
    if (export.isEmpty() || !seen.add(qualifiedName)) {
      return Optional.empty();
    }
    YieldReach reach = export.get().yieldReach();
    if (reach.yields()) {
      String module = qualifiedName.substring(0, qualifiedName.indexOf('.'));
      return Optional.of("in module " + module + ", " + reach.yieldAt().get());
    }
    for (String imported : reach.imports()) {
      int dot = imported.indexOf('.');
      if (dot <= 0 || NATIVE_MODULES.contains(imported.substring(0, dot))) {
        continue;
      }
      Optional<String> inner = yieldReason(imported, modules, seen);
      if (inner.isPresent()) {
        return Optional.of("it calls the import " + imported + ": " + inner.get());
      }
    }
    return Optional.empty();
  }

  /** The export {@code module.function} of the modules the reader read, if there is one. */
  private static Optional<VmfbExport> export(String qualifiedName, List<VmfbModule> modules) {
    int dot = qualifiedName.indexOf('.');
    if (dot <= 0) {
      return Optional.empty();
    }
    String moduleName = qualifiedName.substring(0, dot);
    String exportName = qualifiedName.substring(dot + 1);
    for (VmfbModule m : modules) {
      if (m.name().equals(moduleName)) {
        Optional<VmfbExport> export = m.export(exportName);
        if (export.isPresent()) {
          return export;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<Map<String, String>> fromReader(
      String qualifiedName, List<VmfbModule> modules) {
    return export(qualifiedName, modules).map(e -> e.reflection().asMap());
  }
}
