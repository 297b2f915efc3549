package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Asks the system's dynamic linker whether a shared library can be loaded with every symbol it uses
 * resolved, before the JVM loads it for real.
 *
 * <p>The JVM opens libraries with lazy binding: a library that calls a function no loaded library
 * defines (IREE's unified runtime archive linked without flatcc, say) loads fine, and the first
 * call that reaches the missing function makes the dynamic linker print {@code symbol lookup error}
 * and end the whole process with exit code 127, with no exception and no crash file. Opening it
 * first with {@code dlopen(path, RTLD_NOW)} makes the dynamic linker resolve every symbol at once
 * and report the first missing one through {@code dlerror()} instead; the handle is closed again at
 * once.
 *
 * <p>Where the C library has no {@code dlopen} (Windows, whose loader resolves every import when a
 * DLL loads anyway) nothing is checked.
 */
@SuppressWarnings("restricted") // a downcall into the C library's dynamic linker
final class LinkCheck {
  private LinkCheck() {}

  /** {@code RTLD_NOW} on Linux and macOS: resolve every symbol when the library is opened. */
  private static final int RTLD_NOW = 2;

  private static final Handles HANDLES = Handles.find();

  private record Handles(MethodHandle dlopen, MethodHandle dlerror, MethodHandle dlclose) {
    static Handles find() {
      Linker linker = Linker.nativeLinker();
      SymbolLookup libc = linker.defaultLookup();
      Optional<MemorySegment> open = libc.find("dlopen");
      Optional<MemorySegment> error = libc.find("dlerror");
      Optional<MemorySegment> close = libc.find("dlclose");
      if (open.isEmpty() || error.isEmpty() || close.isEmpty()) {
        return null;
      }
      return new Handles(
          linker.downcallHandle(open.get(), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT)),
          linker.downcallHandle(error.get(), FunctionDescriptor.of(ADDRESS)),
          linker.downcallHandle(close.get(), FunctionDescriptor.of(JAVA_INT, ADDRESS)));
    }
  }

  /** Whether this platform can be checked (it has {@code dlopen}). */
  static boolean available() {
    return HANDLES != null;
  }

  /**
   * The dynamic linker's complaint about {@code library} when it cannot be opened with every symbol
   * resolved (e.g. {@code ".../libiree_runtime.so: undefined symbol:
   * flatcc_verify_table_as_root"}), or about a file that is no loadable library; empty when it
   * opens, or when this platform cannot check.
   */
  static Optional<String> problem(Path library) {
    if (HANDLES == null) {
      return Optional.empty();
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment handle =
          (MemorySegment)
              HANDLES.dlopen().invokeExact(arena.allocateFrom(library.toString()), RTLD_NOW);
      if (handle.address() != 0) {
        int ignored = (int) HANDLES.dlclose().invokeExact(handle);
        return Optional.empty();
      }
      MemorySegment text = (MemorySegment) HANDLES.dlerror().invokeExact();
      return Optional.of(
          text.address() == 0
              ? "dlopen failed without saying why"
              : text.reinterpret(Integer.MAX_VALUE).getString(0));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("calling the dynamic linker failed: " + t, t);
    }
  }

  /** Whether a {@link #problem} text reports an unresolved symbol (rather than a bad file). */
  static boolean isUnresolvedSymbol(String problem) {
    return problem.contains("undefined symbol") || problem.contains("symbol not found");
  }
}
