package dev.ireestubs.iree;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Resolves the C symbols of one IREE runtime library into downcall handles, recording every name
 * asked for and every one missing, so that {@link Native} can fail once with the complete list. A
 * missing symbol binds to {@code null}; {@link #failIfMissing()} then throws.
 */
@SuppressWarnings("restricted") // downcall handles and reinterpret: what this class is for
final class NativeSymbols {

  private static final Linker LINKER = Linker.nativeLinker();
  private static final int MAX_MISSING_LISTED = 12;

  private final SymbolLookup lookup;
  private final String libraryName;
  private final List<String> missing = new ArrayList<>();
  private final List<String> required = new ArrayList<>();

  NativeSymbols(SymbolLookup lookup, String libraryName) {
    this.lookup = lookup;
    this.libraryName = libraryName;
  }

  /** A handle for the function {@code name}; null (and recorded as missing) when absent. */
  MethodHandle bind(String name, FunctionDescriptor descriptor) {
    return downcall(name, descriptor);
  }

  /**
   * {@link #bind} for a function that only reads or writes memory it is given, briefly, and can
   * neither block nor call back into Java: a critical downcall, without the thread-state
   * transitions of an ordinary one (a per-call saving that matters for the getters a call runs a
   * dozen of).
   */
  MethodHandle bindCritical(String name, FunctionDescriptor descriptor) {
    return downcall(name, descriptor, Linker.Option.critical(false));
  }

  private MethodHandle downcall(
      String name, FunctionDescriptor descriptor, Linker.Option... options) {
    MemorySegment symbol = find(name);
    return symbol == null ? null : LINKER.downcallHandle(symbol, descriptor, options);
  }

  /** The symbol {@code name}, listed as required; null (and recorded as missing) when absent. */
  private MemorySegment find(String name) {
    required.add(name);
    Optional<MemorySegment> symbol = lookup.find(name);
    if (symbol.isEmpty()) {
      missing.add(name);
      return null;
    }
    return symbol.get();
  }

  /** The 8 bytes of the exported global {@code name}; null (and recorded) when absent. */
  MemorySegment findData(String name) {
    MemorySegment symbol = find(name);
    return symbol == null ? null : symbol.reinterpret(8);
  }

  /** The first of {@code names} the library exports; null (and recorded) when none is. */
  MemorySegment findAny(List<String> names) {
    String label = String.join(" or ", names);
    required.add(label);
    for (String name : names) {
      Optional<MemorySegment> symbol = lookup.find(name);
      if (symbol.isPresent()) {
        return symbol.get();
      }
    }
    missing.add(label);
    return null;
  }

  /** The names of every symbol asked for, in order. */
  List<String> required() {
    return List.copyOf(required);
  }

  /**
   * Throws {@link IreeLibraryException} listing the missing symbols (the first {@value
   * #MAX_MISSING_LISTED}) when any is missing.
   */
  void failIfMissing() {
    if (missing.isEmpty()) {
      return;
    }
    List<String> listed = missing.subList(0, Math.min(missing.size(), MAX_MISSING_LISTED));
    throw new IreeLibraryException(
        "the IREE runtime library "
            + libraryName
            + " lacks "
            + missing.size()
            + " of the "
            + required.size()
            + " symbols iree-stubs calls: "
            + String.join(", ", listed)
            + (missing.size() > listed.size()
                ? " and " + (missing.size() - listed.size()) + " more"
                : "")
            + ". Use a shared build of IREE's runtime that exports its C API (iree_runtime_*,"
            + " iree_vm_*, iree_hal_*, iree_status_*), of the IREE release that compiled your"
            + " modules");
  }

  /** What a downcall's {@code catch (Throwable t)} throws: unchecked exceptions as they are. */
  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException("unexpected checked exception from a downcall", t);
  }
}
