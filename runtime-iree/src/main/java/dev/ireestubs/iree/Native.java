package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.util.List;

/**
 * The C API of one loaded IREE runtime library, bound once: the downcalls grouped by what they
 * touch, each group a class of one Java method per C function, named as in C without the {@code
 * iree_} prefix.
 *
 * <ul>
 *   <li>{@link #sessions()}: instance, devices, sessions, module loading, function lookup and call;
 *   <li>{@link #lists()}: VM lists and refs (arguments and results);
 *   <li>{@link #bufferViews()}: HAL buffer views (making them from host bytes, reading their
 *       shape);
 *   <li>{@link #buffers()}: HAL buffers (importing host memory, mapping and reading results);
 *   <li>{@link #parameters()}: external parameter archives;
 *   <li>{@link #fences()}: HAL semaphores and fences (asynchronous calls);
 *   <li>{@link #status()}: statuses, their text and the exceptions that carry them;
 * </ul>
 *
 * <p>plus the library's exported globals. Signatures follow iree-runtime-c-api.md section 1; an
 * {@code iree_status_t} (a pointer whose low 5 bits are the code) travels as a {@code long}, which
 * the LP64 calling conventions pass exactly as a pointer.
 *
 * <p>The functions whose C signature differs between IREE's API generations are bound through the
 * library's {@link CApi} generation, adapted to the same Java types: callers of these classes do
 * not know which generation they talk to.
 *
 * <p>The constructor resolves every symbol first and fails with the complete list of missing ones
 * ({@link NativeSymbols}). Methods do no checking of their own: callers pass valid handles.
 */
final class Native {

  /** The control function of IREE's system allocator, by allocator build. */
  static final List<String> ALLOCATOR_CTL_SYMBOLS =
      List.of("iree_allocator_libc_ctl", "iree_allocator_mimalloc_ctl");

  /** Exported globals holding the registered ref types; 0 until an instance/session exists. */
  static final String LIST_REGISTRATION = "iree_vm_list_registration";

  static final String BUFFER_VIEW_REGISTRATION = "iree_hal_buffer_view_registration";

  private final String libraryName;
  private final RuntimeRelease release;
  private final CApi generation;
  private final List<String> required;
  private final SessionCalls sessions;
  private final ListCalls lists;
  private final BufferViewCalls bufferViews;
  private final BufferCalls buffers;
  private final ParameterCalls parameters;
  private final FenceCalls fences;
  private final StatusCalls status;
  private final MemorySegment allocatorCtl;
  private final MemorySegment listRegistration;
  private final MemorySegment bufferViewRegistration;

  /**
   * Binds every symbol iree-stubs calls.
   *
   * @param release the library's IREE release, as far as known
   * @throws IreeLibraryException when the library lacks any, listing them, or its release and
   *     exports name different API generations
   */
  Native(SymbolLookup lookup, String libraryName, RuntimeRelease release) {
    this.libraryName = libraryName;
    this.release = release;
    this.generation = CApiGenerations.of(lookup, libraryName, release);
    NativeSymbols symbols = new NativeSymbols(lookup, libraryName);
    this.sessions = new SessionCalls(symbols);
    this.lists = new ListCalls(symbols);
    this.bufferViews = new BufferViewCalls(symbols);
    this.buffers = new BufferCalls(symbols);
    this.parameters = new ParameterCalls(symbols);
    this.fences = new FenceCalls(symbols, generation);
    this.status = new StatusCalls(symbols);
    this.allocatorCtl = symbols.findAny(ALLOCATOR_CTL_SYMBOLS);
    this.listRegistration = symbols.findData(LIST_REGISTRATION);
    this.bufferViewRegistration = symbols.findData(BUFFER_VIEW_REGISTRATION);
    symbols.failIfMissing();
    this.required = symbols.required();
  }

  /** The names of every C symbol iree-stubs resolves. */
  List<String> requiredSymbols() {
    return required;
  }

  /** The library file, for messages. */
  String libraryName() {
    return libraryName;
  }

  /** The IREE release of the library, as its {@code BUILD-INFO} says (or unknown). */
  RuntimeRelease release() {
    return release;
  }

  /**
   * The generation of IREE's C API this library speaks, e.g. {@code IREE 3.12 and later (hal 0.7)}:
   * picked from its release and checked against its exports ({@link CApiGenerations#of}).
   */
  String apiGeneration() {
    return generation.describe();
  }

  /** Instance, device, session, module and function downcalls. */
  SessionCalls sessions() {
    return sessions;
  }

  /** VM list and ref downcalls. */
  ListCalls lists() {
    return lists;
  }

  /** HAL buffer view downcalls. */
  BufferViewCalls bufferViews() {
    return bufferViews;
  }

  /** HAL buffer downcalls: import, map, read, transfer. */
  BufferCalls buffers() {
    return buffers;
  }

  /** External parameter downcalls. */
  ParameterCalls parameters() {
    return parameters;
  }

  /** HAL semaphore and fence downcalls: what asynchronous calls are built on. */
  FenceCalls fences() {
    return fences;
  }

  /** Status text, freeing and checking. */
  StatusCalls status() {
    return status;
  }

  // ----------------------------------------------------------------------------------------------
  // Globals

  /** The control function of IREE's system allocator ({@code iree_allocator_system()}'s ctl). */
  MemorySegment allocatorCtl() {
    return allocatorCtl;
  }

  /** {@code iree_vm_list_registration}: the vm.list ref type; valid once an instance exists. */
  long listRefType() {
    return listRegistration.get(JAVA_LONG, 0);
  }

  /** {@code iree_hal_buffer_view_registration}: valid once a session exists. */
  long bufferViewRefType() {
    return bufferViewRegistration.get(JAVA_LONG, 0);
  }
}
