package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The few C library functions the loader calls itself: {@code dlopen}, {@code dlsym}, {@code
 * dlerror} and {@code dlclose} (so that the library is opened once, by this class, with every
 * symbol resolved), {@code open} and {@code close} (to hold the library file by a descriptor from
 * the moment it is checked until it is loaded), and {@code getuid} (whose directories to trust).
 *
 * <p>What a platform lacks is absent: Windows has none of them; {@link #openFlags(String, String)}
 * is known only for Linux on x86_64 and AArch64 (and RISC-V), where {@code /proc/self/fd} names an
 * open file. Stateless.
 */
@SuppressWarnings("restricted") // downcalls into the C library: what this class is for
final class Libc {
  private Libc() {}

  /** {@code RTLD_NOW} on Linux and macOS: resolve every symbol when the library is opened. */
  static final int RTLD_NOW = 2;

  private static final Linker LINKER = Linker.nativeLinker();
  private static final SymbolLookup C = LINKER.defaultLookup();
  private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO =
      CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

  private static final MethodHandle DLOPEN =
      handle("dlopen", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
  private static final MethodHandle DLERROR = handle("dlerror", FunctionDescriptor.of(ADDRESS));
  private static final MethodHandle DLSYM =
      handle("dlsym", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
  private static final MethodHandle DLCLOSE =
      handle("dlclose", FunctionDescriptor.of(JAVA_INT, ADDRESS));
  private static final MethodHandle GETUID = handle("getuid", FunctionDescriptor.of(JAVA_INT));
  private static final MethodHandle CLOSE =
      handle("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
  private static final MethodHandle STRERROR =
      handle("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
  private static final MethodHandle OPEN =
      C.find("open")
          .map(
              s ->
                  LINKER.downcallHandle(
                      s,
                      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                      Linker.Option.firstVariadicArg(2),
                      Linker.Option.captureCallState("errno")))
          .orElse(null);
  private static final int OPEN_FLAGS =
      openFlags(System.getProperty("os.name"), System.getProperty("os.arch"));

  private static MethodHandle handle(String name, FunctionDescriptor descriptor) {
    return C.find(name).map(s -> LINKER.downcallHandle(s, descriptor)).orElse(null);
  }

  /** Whether this platform's C library has {@code dlopen}, {@code dlsym} and {@code dlerror}. */
  static boolean hasDlopen() {
    return DLOPEN != null && DLERROR != null && DLSYM != null && DLCLOSE != null;
  }

  /**
   * Whether a library can be held by a descriptor and loaded through it: {@code open} with the
   * flags below is known here and {@code /proc/self/fd} names open files (Linux).
   */
  static boolean canLoadByDescriptor() {
    return hasDlopen()
        && OPEN != null
        && CLOSE != null
        && OPEN_FLAGS != 0
        && Files.isDirectory(Path.of("/proc/self/fd"));
  }

  /**
   * {@code O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC} for an OS and CPU whose values this
   * class knows (they differ between CPUs), else 0. {@code O_NONBLOCK}: opening a named pipe
   * returns at once instead of waiting for a writer; {@code O_NOFOLLOW}: a symbolic link is
   * refused.
   */
  static int openFlags(String osName, String osArch) {
    if (osName == null || !osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return 0;
    }
    int nonblock = 04000;
    int cloexec = 02000000;
    return switch (osArch == null ? "" : osArch) {
      case "amd64", "x86_64", "riscv64" -> nonblock | 0400000 | cloexec;
      case "aarch64", "arm64" -> nonblock | 0100000 | cloexec;
      default -> 0;
    };
  }

  /** The real user id of this process; empty where there is no {@code getuid} (Windows). */
  static Optional<Integer> uid() {
    if (GETUID == null) {
      return Optional.empty();
    }
    try {
      return Optional.of((int) GETUID.invokeExact());
    } catch (Throwable t) {
      throw NativeSymbols.rethrow(t);
    }
  }

  /**
   * Opens {@code file} for reading without following a symbolic link or waiting on a named pipe.
   *
   * @return the descriptor
   * @throws java.io.IOException naming the C library's reason when it cannot be opened
   */
  static int open(Path file) throws java.io.IOException {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CALL_STATE);
      int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(file.toString()), OPEN_FLAGS, 0);
      if (fd < 0) {
        int errno = (int) ERRNO.get(state, 0L);
        throw new java.io.IOException(file + ": " + strerror(errno) + " (errno " + errno + ")");
      }
      return fd;
    } catch (java.io.IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw NativeSymbols.rethrow(t);
    }
  }

  /** Closes a descriptor {@link #open} returned. */
  static void close(int fd) {
    try {
      int ignored = (int) CLOSE.invokeExact(fd);
    } catch (Throwable t) {
      throw NativeSymbols.rethrow(t);
    }
  }

  /**
   * {@code dlopen(path, RTLD_NOW)}: the handle, or 0 when it failed ({@link #dlerror} says why).
   */
  static MemorySegment dlopen(String path) {
    try (Arena arena = Arena.ofConfined()) {
      return (MemorySegment) DLOPEN.invokeExact(arena.allocateFrom(path), RTLD_NOW);
    } catch (Throwable t) {
      throw NativeSymbols.rethrow(t);
    }
  }

  /** The dynamic linker's last error on this thread. */
  static String dlerror() {
    try {
      MemorySegment text = (MemorySegment) DLERROR.invokeExact();
      return text.address() == 0
          ? "dlopen failed without saying why"
          : text.reinterpret(Integer.MAX_VALUE).getString(0);
    } catch (Throwable t) {
      throw NativeSymbols.rethrow(t);
    }
  }

  /** The symbol {@code name} of the library {@code handle}: empty when it has none. */
  static Optional<MemorySegment> dlsym(MemorySegment handle, String name) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment symbol = (MemorySegment) DLSYM.invokeExact(handle, arena.allocateFrom(name));
      return symbol.address() == 0 ? Optional.empty() : Optional.of(symbol);
    } catch (Throwable t) {
      throw NativeSymbols.rethrow(t);
    }
  }

  /** {@code dlclose(handle)}, for a library that was refused after it was opened. */
  static void dlclose(MemorySegment handle) {
    try {
      int ignored = (int) DLCLOSE.invokeExact(handle);
    } catch (Throwable t) {
      throw NativeSymbols.rethrow(t);
    }
  }

  private static String strerror(int errno) {
    if (STRERROR == null) {
      return "error";
    }
    try {
      MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
      return text.address() == 0 ? "error" : text.reinterpret(1024).getString(0);
    } catch (Throwable t) {
      throw NativeSymbols.rethrow(t);
    }
  }
}
