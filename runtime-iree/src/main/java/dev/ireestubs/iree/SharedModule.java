package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.Set;

/**
 * One compiled module made once ({@code iree_vm_bytecode_module_create}) from one native copy of
 * its bytes, to be appended to every session of an engine (a pool's sessions, or a session's one)
 * ({@code iree_runtime_session_append_module}). IREE's modules are thread-safe and keep per-context
 * state apart (allocated when a context appends the module): the bytes, the parsed FlatBuffer, the
 * function table and the rodata segments are shared. Each context runs the module's initialiser
 * ({@code __init}) itself, which for a compiled model (micro_speech's, for one) loads its
 * executables ({@code hal.executable.create}: the code is loaded and mapped per context) and makes
 * its constant buffers ({@code hal.allocator.import} of rodata, {@code hal.device.queue.read} from
 * the module's bytes and dispatches that pack the weights: buffers of that context).
 *
 * <p>The engine owns this and keeps its reference until its native state is released (after every
 * session's, and after the engine's device): {@link #close()} drops it, and IREE destroys the
 * module then; the bytes are freed right after ({@link #freeBytes()}).
 */
final class SharedModule {

  private final Native api;
  private final String source;
  private final ModuleLoader.Read read;
  private final Arena bytes;
  private long handle;

  private SharedModule(
      Native api, String source, ModuleLoader.Read read, Arena bytes, long handle) {
    this.api = api;
    this.source = source;
    this.read = read;
    this.bytes = bytes;
    this.handle = handle;
  }

  /**
   * Copies {@code module} (a whole {@code .vmfb}, not empty) into 64-byte-aligned native memory and
   * makes a bytecode module over it.
   *
   * @throws IreeIncompatibleModuleException or {@link dev.ireestubs.invoke.IreeInvocationException}
   *     when IREE refuses the module, as a session's load says
   */
  static SharedModule create(
      RuntimeNatives runtime,
      String driverName,
      MemorySegment module,
      String source,
      ModuleLoader.Read read,
      Optional<Set<String>> boundScopes) {
    Native api = runtime.api();
    long length = module.byteSize();
    Arena memory = Arena.ofShared();
    try (Arena tmp = Arena.ofConfined()) {
      MemorySegment copy = memory.allocate(length, 64); // IREE_VM_ARCHIVE_SEGMENT_ALIGNMENT
      MemorySegment.copy(module, 0, copy, 0, length);
      MemorySegment span = tmp.allocate(Layouts.BYTE_SPAN);
      span.set(ADDRESS, Layouts.BYTE_SPAN_DATA, copy);
      span.set(JAVA_LONG, Layouts.BYTE_SPAN_LENGTH, length);
      MemorySegment none = tmp.allocate(Layouts.ALLOCATOR); // {NULL, NULL}: IREE frees nothing
      MemorySegment out = tmp.allocate(ADDRESS);
      long status =
          api.sessions()
              .bytecodeModuleCreate(
                  runtime.vmInstance(),
                  0, // IREE_VM_BYTECODE_MODULE_FLAG_NONE
                  span,
                  none,
                  runtime.hostAllocator(),
                  out);
      if (status != 0) {
        throw ModuleLoader.loadFailure(api, driverName, status, source, read, boundScopes);
      }
      return new SharedModule(api, source, read, memory, out.get(ADDRESS, 0).address());
    } catch (RuntimeException | Error e) {
      memory.close(); // no module refers to the bytes
      throw e;
    }
  }

  String source() {
    return source;
  }

  ModuleLoader.Read read() {
    return read;
  }

  /** {@code iree_vm_module_t*}: the engine's reference; 0 once closed. */
  MemorySegment handle() {
    return MemorySegment.ofAddress(handle);
  }

  /** Drops the engine's reference (contexts that appended the module keep theirs). Once. */
  void close() {
    if (handle != 0) {
      api.parameters().vmModuleRelease(MemorySegment.ofAddress(handle));
      handle = 0;
    }
  }

  /** Frees the bytes: only once no session that appended the module is left. */
  void freeBytes() {
    bytes.close();
  }
}
