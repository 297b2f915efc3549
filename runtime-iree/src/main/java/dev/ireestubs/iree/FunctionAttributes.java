package dev.ireestubs.iree;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a looked-up function's reflection attributes, from IREE or from iree-stubs' reader, and the
 * types its bytecode states, from iree-stubs' reader.
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
    int dot = qualifiedName.indexOf('.');
    for (VmfbModule m : modules) {
      if (m.name().equals(qualifiedName.substring(0, dot))) {
        Optional<VmfbExport> export = m.export(qualifiedName.substring(dot + 1));
        if (export.isPresent()) {
          return export.get().bytecodeTypes();
        }
      }
    }
    return BytecodeTypes.none();
  }

  private static Optional<Map<String, String>> fromReader(
      String qualifiedName, List<VmfbModule> modules) {
    int dot = qualifiedName.indexOf('.');
    String moduleName = qualifiedName.substring(0, dot);
    String exportName = qualifiedName.substring(dot + 1);
    for (VmfbModule m : modules) {
      if (m.name().equals(moduleName)) {
        Optional<VmfbExport> export = m.export(exportName);
        if (export.isPresent()) {
          return Optional.of(export.get().reflection().asMap());
        }
      }
    }
    return Optional.empty();
  }
}
