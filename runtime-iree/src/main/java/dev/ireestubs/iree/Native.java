package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.ireestubs.invoke.IreeInvocationException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Downcalls into one loaded IREE runtime library: one Java method per C function, named as in C
 * without the {@code iree_} prefix. Signatures follow iree-runtime-c-api.md section 1; an {@code
 * iree_status_t} (a pointer whose low 5 bits are the code) travels as a {@code long}, which the
 * LP64 calling conventions pass exactly as a pointer.
 *
 * <p>The constructor resolves every symbol first and fails with the complete list of missing ones.
 * Methods do no checking of their own: callers pass valid handles.
 */
@SuppressWarnings("restricted") // downcalls and reinterpret: what this class is for
final class Native {

  private static final Linker LINKER = Linker.nativeLinker();
  private static final int MAX_MISSING_LISTED = 12;

  /** The control function of IREE's system allocator, by allocator build. */
  static final List<String> ALLOCATOR_CTL_SYMBOLS =
      List.of("iree_allocator_libc_ctl", "iree_allocator_mimalloc_ctl");

  /** Exported globals holding the registered ref types; 0 until an instance/session exists. */
  static final String LIST_REGISTRATION = "iree_vm_list_registration";

  static final String BUFFER_VIEW_REGISTRATION = "iree_hal_buffer_view_registration";

  private final String libraryName;
  private final SymbolLookup lookup;
  private final List<String> missing = new ArrayList<>();
  private final List<String> required = new ArrayList<>();


  // iree/runtime/instance.h, session.h
  private final MethodHandle instanceOptionsInitialize;
  private final MethodHandle instanceOptionsUseAllAvailableDrivers;
  private final MethodHandle instanceCreate;
  private final MethodHandle instanceRelease;
  private final MethodHandle instanceHostAllocator;
  private final MethodHandle instanceTryCreateDefaultDevice;
  private final MethodHandle halDeviceRelease;
  private final MethodHandle halDeviceRetain;
  private final MethodHandle halDeviceReleaseAddress;
  private final MethodHandle sessionOptionsInitialize;
  private final MethodHandle sessionCreateWithDevice;
  private final MethodHandle sessionRelease;
  private final MethodHandle sessionDevice;
  private final MethodHandle sessionDeviceAllocator;
  private final MethodHandle sessionAppendModuleFromFile;
  private final MethodHandle sessionAppendModuleFromMemory;
  private final MethodHandle sessionLookupFunction;
  private final MethodHandle sessionCall;

  // iree/vm/module.h
  private final MethodHandle functionSignature;
  private final MethodHandle functionGetAttr;

  // iree/vm/list.h, ref.h
  private final MethodHandle listCreate;
  private final MethodHandle listRelease;
  private final MethodHandle listSize;
  private final MethodHandle listResize;
  private final MethodHandle listElementType;
  private final MethodHandle listPushValue;
  private final MethodHandle listGetValue;
  private final MethodHandle listPushRefMove;
  private final MethodHandle listPushRefRetain;
  private final MethodHandle listGetVariantAssign;
  private final MethodHandle refRelease;
  private final MethodHandle refRetain;
  private final MethodHandle refTypeName;

  // iree/hal/buffer_view.h, buffer_view_util.h, buffer_transfer.h
  private final MethodHandle bufferViewAllocateBufferCopy;
  private final MethodHandle bufferViewRelease;
  private final MethodHandle bufferViewRetain;
  private final MethodHandle bufferViewBuffer;
  private final MethodHandle bufferViewShapeRank;
  private final MethodHandle bufferViewShapeDim;
  private final MethodHandle bufferViewElementType;
  private final MethodHandle bufferViewEncodingType;
  private final MethodHandle bufferViewByteLength;
  private final MethodHandle deviceTransferD2h;
  private final MethodHandle bufferRelease;
  private final MethodHandle allocatorImportBuffer;
  private final MethodHandle bufferViewCreate;
  private final MethodHandle bufferMapRange;
  private final MethodHandle bufferUnmapRange;
  private final MethodHandle bufferMapRead;

  // Parameters: iree/io/file_handle.h, parameter_index.h, parameter_index_provider.h,
  // formats/parser_registry.h, modules/io/parameters/module.h
  private final MethodHandle instanceVmInstance;
  private final MethodHandle sessionAppendModule;
  private final MethodHandle vmModuleRelease;
  private final MethodHandle fileHandleOpen;
  private final MethodHandle fileHandleRelease;
  private final MethodHandle parameterIndexCreate;
  private final MethodHandle parameterIndexRelease;
  private final MethodHandle parseFileIndex;
  private final MethodHandle parameterIndexProviderCreate;
  private final MethodHandle parameterProviderRelease;
  private final MethodHandle parametersModuleCreate;

  // iree/base/status.h
  private final MethodHandle statusFormat;
  private final MethodHandle statusFree;

  // Globals
  private final MemorySegment allocatorCtl;
  private final MemorySegment listRegistration;
  private final MemorySegment bufferViewRegistration;

  Native(SymbolLookup lookup, String libraryName) {
    this.lookup = lookup;
    this.libraryName = libraryName;

    // iree/runtime/instance.h, session.h
    instanceOptionsInitialize =
        bind("iree_runtime_instance_options_initialize", FunctionDescriptor.ofVoid(ADDRESS));
    instanceOptionsUseAllAvailableDrivers =
        bind(
            "iree_runtime_instance_options_use_all_available_drivers",
            FunctionDescriptor.ofVoid(ADDRESS));
    instanceCreate =
        bind(
            "iree_runtime_instance_create",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, Layouts.ALLOCATOR, ADDRESS));
    instanceRelease =
        bind("iree_runtime_instance_release", FunctionDescriptor.ofVoid(ADDRESS));
    instanceHostAllocator =
        bind(
            "iree_runtime_instance_host_allocator",
            FunctionDescriptor.of(Layouts.ALLOCATOR, ADDRESS));
    instanceTryCreateDefaultDevice =
        bind(
            "iree_runtime_instance_try_create_default_device",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, Layouts.STRING_VIEW, ADDRESS));
    halDeviceRelease =
        bind("iree_hal_device_release", FunctionDescriptor.ofVoid(ADDRESS));
    halDeviceRetain = bind("iree_hal_device_retain", FunctionDescriptor.ofVoid(JAVA_LONG));
    halDeviceReleaseAddress =
        bind("iree_hal_device_release", FunctionDescriptor.ofVoid(JAVA_LONG), false);
    sessionOptionsInitialize =
        bind("iree_runtime_session_options_initialize", FunctionDescriptor.ofVoid(ADDRESS));
    sessionCreateWithDevice =
        bind(
            "iree_runtime_session_create_with_device",
            FunctionDescriptor.of(
                JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, Layouts.ALLOCATOR, ADDRESS));
    sessionRelease =
        bind("iree_runtime_session_release", FunctionDescriptor.ofVoid(ADDRESS));
    sessionDevice =
        bind("iree_runtime_session_device", FunctionDescriptor.of(ADDRESS, ADDRESS));
    sessionDeviceAllocator =
        bind("iree_runtime_session_device_allocator", FunctionDescriptor.of(ADDRESS, ADDRESS));
    sessionAppendModuleFromFile =
        bind(
            "iree_runtime_session_append_bytecode_module_from_file",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
    sessionAppendModuleFromMemory =
        bind(
            "iree_runtime_session_append_bytecode_module_from_memory",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, Layouts.BYTE_SPAN, Layouts.ALLOCATOR));
    sessionLookupFunction =
        bind(
            "iree_runtime_session_lookup_function",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, Layouts.STRING_VIEW, ADDRESS));
    sessionCall =
        bind(
            "iree_runtime_session_call",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG));

    // iree/vm/module.h
    functionSignature =
        bind(
            "iree_vm_function_signature",
            FunctionDescriptor.of(Layouts.VM_FUNCTION_SIGNATURE, ADDRESS));
    functionGetAttr =
        bind(
            "iree_vm_function_get_attr",
            FunctionDescriptor.of(JAVA_LONG, Layouts.VM_FUNCTION, JAVA_LONG, ADDRESS));

    // iree/vm/list.h, ref.h
    listCreate =
        bind(
            "iree_vm_list_create",
            FunctionDescriptor.of(
                JAVA_LONG, Layouts.VM_TYPE_DEF, JAVA_LONG, Layouts.ALLOCATOR, ADDRESS));
    listRelease = bind("iree_vm_list_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    listSize = bindCritical("iree_vm_list_size", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    listResize =
        bind("iree_vm_list_resize", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    listElementType =
        bindCritical(
            "iree_vm_list_element_type",
            // A struct of one uintptr_t comes back in a register, exactly like a long.
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    listPushValue =
        bind("iree_vm_list_push_value", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
    listGetValue =
        bindCritical(
            "iree_vm_list_get_value",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    listPushRefMove =
        bind("iree_vm_list_push_ref_move", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
    listPushRefRetain =
        bind("iree_vm_list_push_ref_retain", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
    listGetVariantAssign =
        bindCritical(
            "iree_vm_list_get_variant_assign",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    refRelease = bind("iree_vm_ref_release", FunctionDescriptor.ofVoid(ADDRESS));
    refRetain = bind("iree_vm_ref_retain", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    refTypeName =
        bind("iree_vm_ref_type_name", FunctionDescriptor.of(Layouts.STRING_VIEW, JAVA_LONG));

    // iree/hal/buffer_view.h, buffer_view_util.h, buffer_transfer.h
    bufferViewAllocateBufferCopy =
        bind(
            "iree_hal_buffer_view_allocate_buffer_copy",
            FunctionDescriptor.of(
                JAVA_LONG,
                ADDRESS,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                JAVA_INT,
                JAVA_INT,
                Layouts.BUFFER_PARAMS,
                Layouts.BYTE_SPAN,
                ADDRESS));
    bufferViewRelease =
        bind("iree_hal_buffer_view_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    bufferViewRetain =
        bindCritical("iree_hal_buffer_view_retain", FunctionDescriptor.ofVoid(JAVA_LONG));
    bufferViewBuffer =
        bindCritical("iree_hal_buffer_view_buffer", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    bufferViewShapeRank =
        bindCritical(
            "iree_hal_buffer_view_shape_rank", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    bufferViewShapeDim =
        bindCritical(
            "iree_hal_buffer_view_shape_dim",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    bufferViewElementType =
        bindCritical(
            "iree_hal_buffer_view_element_type", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    bufferViewEncodingType =
        bindCritical(
            "iree_hal_buffer_view_encoding_type", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    bufferViewByteLength =
        bindCritical(
            "iree_hal_buffer_view_byte_length", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    deviceTransferD2h =
        bind(
            "iree_hal_device_transfer_d2h",
            FunctionDescriptor.of(
                JAVA_LONG,
                ADDRESS,
                ADDRESS,
                JAVA_LONG,
                ADDRESS,
                JAVA_LONG,
                JAVA_INT,
                Layouts.TIMEOUT));

    // Zero-copy import and mapped results (iree/hal/allocator.h, buffer.h)
    bufferRelease = bind("iree_hal_buffer_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    allocatorImportBuffer =
        bind(
            "iree_hal_allocator_import_buffer",
            FunctionDescriptor.of(
                JAVA_LONG,
                ADDRESS,
                Layouts.BUFFER_PARAMS,
                ADDRESS,
                Layouts.RELEASE_CALLBACK,
                ADDRESS));
    bufferViewCreate =
        bind(
            "iree_hal_buffer_view_create",
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, Layouts.ALLOCATOR,
                ADDRESS));
    bufferMapRange =
        bind(
            "iree_hal_buffer_map_range",
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_SHORT, JAVA_LONG, JAVA_LONG, ADDRESS));
    bufferMapRead =
        bind(
            "iree_hal_buffer_map_read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    bufferUnmapRange =
        bind("iree_hal_buffer_unmap_range", FunctionDescriptor.of(JAVA_LONG, ADDRESS));

    // Parameters
    instanceVmInstance =
        bind("iree_runtime_instance_vm_instance", FunctionDescriptor.of(ADDRESS, ADDRESS));
    sessionAppendModule =
        bind(
            "iree_runtime_session_append_module",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
    vmModuleRelease = bind("iree_vm_module_release", FunctionDescriptor.ofVoid(ADDRESS));
    fileHandleOpen =
        bind(
            "iree_io_file_handle_open",
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, Layouts.STRING_VIEW, Layouts.ALLOCATOR, ADDRESS));
    fileHandleRelease = bind("iree_io_file_handle_release", FunctionDescriptor.ofVoid(ADDRESS));
    parameterIndexCreate =
        bind(
            "iree_io_parameter_index_create",
            FunctionDescriptor.of(JAVA_LONG, Layouts.ALLOCATOR, ADDRESS));
    parameterIndexRelease =
        bind("iree_io_parameter_index_release", FunctionDescriptor.ofVoid(ADDRESS));
    parseFileIndex =
        bind(
            "iree_io_parse_file_index",
            FunctionDescriptor.of(
                JAVA_LONG, Layouts.STRING_VIEW, ADDRESS, ADDRESS, Layouts.ALLOCATOR));
    parameterIndexProviderCreate =
        bind(
            "iree_io_parameter_index_provider_create",
            FunctionDescriptor.of(
                JAVA_LONG,
                Layouts.STRING_VIEW,
                ADDRESS,
                JAVA_LONG,
                Layouts.ALLOCATOR,
                ADDRESS));
    parameterProviderRelease =
        bind("iree_io_parameter_provider_release", FunctionDescriptor.ofVoid(ADDRESS));
    parametersModuleCreate =
        bind(
            "iree_io_parameters_module_create",
            FunctionDescriptor.of(
                JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, Layouts.ALLOCATOR, ADDRESS));

    // iree/base/status.h
    statusFormat =
        bind(
            "iree_status_format",
            FunctionDescriptor.of(JAVA_BOOLEAN, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
    statusFree = bind("iree_status_free", FunctionDescriptor.ofVoid(JAVA_LONG));

    // Globals
    allocatorCtl = findAny(ALLOCATOR_CTL_SYMBOLS);
    listRegistration = findData(LIST_REGISTRATION);
    bufferViewRegistration = findData(BUFFER_VIEW_REGISTRATION);

    if (!missing.isEmpty()) {
      List<String> listed = missing.subList(0, Math.min(missing.size(), MAX_MISSING_LISTED));
      throw new IreeLibraryException(
          "the IREE runtime library " + libraryName + " lacks " + missing.size() + " of the "
            + required.size() + " symbols iree-stubs calls: " + String.join(", ", listed)
            + (missing.size() > listed.size()
                ? " and " + (missing.size() - listed.size()) + " more"
                : "")
            + ". Use a shared build of IREE's runtime that exports its C API (iree_runtime_*,"
            + " iree_vm_*, iree_hal_*, iree_status_*), of the IREE release that compiled your"
            + " modules");
    }
  }

  /** The names of every C symbol iree-stubs resolves. */
  List<String> requiredSymbols() {
    return List.copyOf(required);
  }

  /** The library file, for messages. */
  String libraryName() {
    return libraryName;
  }

  private MethodHandle bind(String name, FunctionDescriptor descriptor) {
    return bind(name, descriptor, true);
  }

  /**
   * {@link #bind} for a function that only reads or writes memory it is given, briefly, and can
   * neither block nor call back into Java: a critical downcall, without the thread-state
   * transitions of an ordinary one (a per-call saving that matters for the getters a call runs
   * a dozen of).
   */
  private MethodHandle bindCritical(String name, FunctionDescriptor descriptor) {
    required.add(name);
    Optional<MemorySegment> symbol = lookup.find(name);
    if (symbol.isEmpty()) {
      missing.add(name);
      return null;
    }
    return LINKER.downcallHandle(symbol.get(), descriptor, Linker.Option.critical(false));
  }

  /** A handle for {@code name}; {@code listed}: false for a second form of a listed symbol. */
  private MethodHandle bind(String name, FunctionDescriptor descriptor, boolean listed) {
    if (listed) {
      required.add(name);
    }
    Optional<MemorySegment> symbol = lookup.find(name);
    if (symbol.isEmpty()) {
      if (listed) {
        missing.add(name);
      }
      return null;
    }
    return LINKER.downcallHandle(symbol.get(), descriptor);
  }

  private MemorySegment findData(String name) {
    required.add(name);
    Optional<MemorySegment> symbol = lookup.find(name);
    if (symbol.isEmpty()) {
      missing.add(name);
      return null;
    }
    return symbol.get().reinterpret(8);
  }

  private MemorySegment findAny(List<String> names) {
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

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException("unexpected checked exception from a downcall", t);
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

  // ----------------------------------------------------------------------------------------------
  // Instance and session

  void instanceOptionsInitialize(MemorySegment options) {
    try {
      instanceOptionsInitialize.invokeExact(options);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void instanceOptionsUseAllAvailableDrivers(MemorySegment options) {
    try {
      instanceOptionsUseAllAvailableDrivers.invokeExact(options);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long instanceCreate(MemorySegment options, MemorySegment allocator, MemorySegment outInstance) {
    try {
      return (long) instanceCreate.invokeExact(options, allocator, outInstance);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void instanceRelease(MemorySegment instance) {
    try {
      instanceRelease.invokeExact(instance);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  MemorySegment instanceHostAllocator(SegmentAllocator into, MemorySegment instance) {
    try {
      return (MemorySegment) instanceHostAllocator.invokeExact(into, instance);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long instanceTryCreateDefaultDevice(
      MemorySegment instance, MemorySegment driverName, MemorySegment outDevice) {
    try {
      return (long) instanceTryCreateDefaultDevice.invokeExact(instance, driverName, outDevice);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void halDeviceRelease(MemorySegment device) {
    try {
      halDeviceRelease.invokeExact(device);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void halDeviceRetain(long device) {
    try {
      halDeviceRetain.invokeExact(device);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void halDeviceRelease(long device) {
    try {
      halDeviceReleaseAddress.invokeExact(device);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void sessionOptionsInitialize(MemorySegment options) {
    try {
      sessionOptionsInitialize.invokeExact(options);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long sessionCreateWithDevice(
      MemorySegment instance,
      MemorySegment options,
      MemorySegment device,
      MemorySegment allocator,
      MemorySegment outSession) {
    try {
      return (long)
          sessionCreateWithDevice.invokeExact(instance, options, device, allocator, outSession);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void sessionRelease(MemorySegment session) {
    try {
      sessionRelease.invokeExact(session);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  MemorySegment sessionDevice(MemorySegment session) {
    try {
      return (MemorySegment) sessionDevice.invokeExact(session);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  MemorySegment sessionDeviceAllocator(MemorySegment session) {
    try {
      return (MemorySegment) sessionDeviceAllocator.invokeExact(session);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long sessionAppendModuleFromFile(MemorySegment session, MemorySegment path) {
    try {
      return (long) sessionAppendModuleFromFile.invokeExact(session, path);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long sessionAppendModuleFromMemory(
      MemorySegment session, MemorySegment byteSpan, MemorySegment allocator) {
    try {
      return (long) sessionAppendModuleFromMemory.invokeExact(session, byteSpan, allocator);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long sessionLookupFunction(
      MemorySegment session, MemorySegment name, MemorySegment outFunction) {
    try {
      return (long) sessionLookupFunction.invokeExact(session, name, outFunction);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long sessionCall(MemorySegment session, MemorySegment function, long inputs, long outputs) {
    try {
      return (long) sessionCall.invokeExact(session, function, inputs, outputs);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Functions

  MemorySegment functionSignature(SegmentAllocator into, MemorySegment function) {
    try {
      return (MemorySegment) functionSignature.invokeExact(into, function);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long functionGetAttr(MemorySegment function, long index, MemorySegment outPair) {
    try {
      return (long) functionGetAttr.invokeExact(function, index, outPair);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Lists and refs

  long listCreate(
      MemorySegment typeDef, long capacity, MemorySegment allocator, MemorySegment outList) {
    try {
      return (long) listCreate.invokeExact(typeDef, capacity, allocator, outList);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void listRelease(long list) {
    try {
      listRelease.invokeExact(list);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long listSize(long list) {
    try {
      return (long) listSize.invokeExact(list);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long listResize(long list, long newSize) {
    try {
      return (long) listResize.invokeExact(list, newSize);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** The element type's {@code iree_vm_type_def_t} word. */
  long listElementType(long list) {
    try {
      return (long) listElementType.invokeExact(list);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long listPushValue(long list, MemorySegment value) {
    try {
      return (long) listPushValue.invokeExact(list, value);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long listGetValue(long list, long index, MemorySegment outValue) {
    try {
      return (long) listGetValue.invokeExact(list, index, outValue);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long listPushRefMove(long list, MemorySegment ref) {
    try {
      return (long) listPushRefMove.invokeExact(list, ref);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long listPushRefRetain(long list, MemorySegment ref) {
    try {
      return (long) listPushRefRetain.invokeExact(list, ref);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long listGetVariantAssign(long list, long index, MemorySegment outVariant) {
    try {
      return (long) listGetVariantAssign.invokeExact(list, index, outVariant);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void refRelease(MemorySegment ref) {
    try {
      refRelease.invokeExact(ref);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void refRetain(MemorySegment ref, MemorySegment outRef) {
    try {
      refRetain.invokeExact(ref, outRef);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  MemorySegment refTypeName(SegmentAllocator into, long refType) {
    try {
      return (MemorySegment) refTypeName.invokeExact(into, refType);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Buffer views

  long bufferViewAllocateBufferCopy(
      MemorySegment device,
      MemorySegment deviceAllocator,
      long rank,
      MemorySegment shape,
      int elementType,
      int encodingType,
      MemorySegment bufferParams,
      MemorySegment initialData,
      MemorySegment outBufferView) {
    try {
      return (long)
          bufferViewAllocateBufferCopy.invokeExact(
              device,
              deviceAllocator,
              rank,
              shape,
              elementType,
              encodingType,
              bufferParams,
              initialData,
              outBufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void bufferViewRelease(long bufferView) {
    try {
      bufferViewRelease.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void bufferViewRetain(long bufferView) {
    try {
      bufferViewRetain.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }


  long bufferViewBuffer(long bufferView) {
    try {
      return (long) bufferViewBuffer.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewShapeRank(long bufferView) {
    try {
      return (long) bufferViewShapeRank.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewShapeDim(long bufferView, long index) {
    try {
      return (long) bufferViewShapeDim.invokeExact(bufferView, index);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int bufferViewElementType(long bufferView) {
    try {
      return (int) bufferViewElementType.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  int bufferViewEncodingType(long bufferView) {
    try {
      return (int) bufferViewEncodingType.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewByteLength(long bufferView) {
    try {
      return (long) bufferViewByteLength.invokeExact(bufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long deviceTransferD2h(
      MemorySegment device,
      MemorySegment buffer,
      long sourceOffset,
      MemorySegment target,
      long length,
      int flags,
      MemorySegment timeout) {
    try {
      return (long)
          deviceTransferD2h.invokeExact(
              device, buffer, sourceOffset, target, length, flags, timeout);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void bufferRelease(long buffer) {
    try {
      bufferRelease.invokeExact(buffer);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long allocatorImportBuffer(
      MemorySegment allocator,
      MemorySegment params,
      MemorySegment externalBuffer,
      MemorySegment releaseCallback,
      MemorySegment outBuffer) {
    try {
      return (long)
          allocatorImportBuffer.invokeExact(
              allocator, params, externalBuffer, releaseCallback, outBuffer);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferViewCreate(
      long buffer,
      long rank,
      MemorySegment shape,
      int elementType,
      int encodingType,
      MemorySegment hostAllocator,
      MemorySegment outBufferView) {
    try {
      return (long)
          bufferViewCreate.invokeExact(
              buffer, rank, shape, elementType, encodingType, hostAllocator, outBufferView);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferMapRange(
      long buffer,
      int mappingMode,
      short access,
      long offset,
      long length,
      MemorySegment outMapping) {
    try {
      return (long)
          bufferMapRange.invokeExact(buffer, mappingMode, access, offset, length, outMapping);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@code iree_hal_buffer_map_read}: {@code length} bytes to host memory at {@code target}. */
  long bufferMapRead(long buffer, long offset, long target, long length) {
    try {
      return (long) bufferMapRead.invokeExact(buffer, offset, target, length);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long bufferUnmapRange(MemorySegment mapping) {
    try {
      return (long) bufferUnmapRange.invokeExact(mapping);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Parameters

  MemorySegment instanceVmInstance(MemorySegment instance) {
    try {
      return (MemorySegment) instanceVmInstance.invokeExact(instance);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long sessionAppendModule(MemorySegment session, MemorySegment module) {
    try {
      return (long) sessionAppendModule.invokeExact(session, module);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void vmModuleRelease(MemorySegment module) {
    try {
      vmModuleRelease.invokeExact(module);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long fileHandleOpen(
      long mode, MemorySegment path, MemorySegment allocator, MemorySegment outHandle) {
    try {
      return (long) fileHandleOpen.invokeExact(mode, path, allocator, outHandle);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void fileHandleRelease(MemorySegment handle) {
    try {
      fileHandleRelease.invokeExact(handle);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long parameterIndexCreate(MemorySegment allocator, MemorySegment outIndex) {
    try {
      return (long) parameterIndexCreate.invokeExact(allocator, outIndex);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void parameterIndexRelease(MemorySegment index) {
    try {
      parameterIndexRelease.invokeExact(index);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long parseFileIndex(
      MemorySegment path, MemorySegment handle, MemorySegment index, MemorySegment allocator) {
    try {
      return (long) parseFileIndex.invokeExact(path, handle, index, allocator);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long parameterIndexProviderCreate(
      MemorySegment scope,
      MemorySegment index,
      long maxConcurrentOperations,
      MemorySegment allocator,
      MemorySegment outProvider) {
    try {
      return (long)
          parameterIndexProviderCreate.invokeExact(
              scope, index, maxConcurrentOperations, allocator, outProvider);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void parameterProviderRelease(MemorySegment provider) {
    try {
      parameterProviderRelease.invokeExact(provider);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long parametersModuleCreate(
      MemorySegment vmInstance,
      long providerCount,
      MemorySegment providers,
      MemorySegment allocator,
      MemorySegment outModule) {
    try {
      return (long)
          parametersModuleCreate.invokeExact(
              vmInstance, providerCount, providers, allocator, outModule);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Status

  /**
   * IREE's text for a non-OK status, e.g. {@code "<vm>:0: FAILED_PRECONDITION; smoke failure"},
   * formatted with {@code iree_status_format}; then frees the status. Never throws: a status that
   * does not format is described by its code.
   */
  String consumeStatus(long status) {
    int code = IreeStatusCode.codeOf(status);
    String text = null;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment length = arena.allocate(JAVA_LONG);
      boolean ignored = (boolean) statusFormat.invokeExact(status, 0L, MemorySegment.NULL, length);
      long needed = length.get(JAVA_LONG, 0);
      if (needed > 0 && needed < (1 << 24)) {
        MemorySegment buffer = arena.allocate(needed + 1);
        boolean ok = (boolean) statusFormat.invokeExact(status, needed + 1, buffer, length);
        long written = Math.min(length.get(JAVA_LONG, 0), needed);
        if (ok || written > 0) {
          text = new String(buffer.asSlice(0, written).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
        }
      }
    } catch (Throwable t) {
      text = null;
    } finally {
      try {
        statusFree.invokeExact(status);
      } catch (Throwable t) {
        // Nothing more can be done about a status that cannot be freed.
      }
    }
    return text == null || text.isBlank() ? IreeStatusCode.describe(code) : text;
  }

  /** Frees a status without formatting it. */
  void freeStatus(long status) {
    try {
      statusFree.invokeExact(status);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Throws an {@link IreeInvocationException} carrying the status's code and IREE's text when
   * {@code status} is not OK, freeing it.
   *
   * @param what what failed, e.g. {@code "iree_vm_list_create"}; the message starts with it
   */
  void check(long status, String what) {
    if (status != 0) {
      throw failure(status, what);
    }
  }

  /**
   * {@link #check(long, String)} with the description {@code function: path: operation}, built
   * only when the status is not OK (the success path allocates nothing).
   */
  void check(long status, String function, String path, String operation) {
    if (status != 0) {
      throw failure(status, function + ": " + path + ": " + operation);
    }
  }

  /** The exception for a non-OK status (freed here). */
  IreeInvocationException failure(long status, String what) {
    int code = IreeStatusCode.codeOf(status);
    String text = consumeStatus(status);
    return new IreeInvocationException(
        what + " failed (" + IreeStatusCode.describe(code) + "): " + text, code);
  }

  // ----------------------------------------------------------------------------------------------
  // Strings

  /** A string view's bytes as UTF-8 (malformed bytes replaced); "" for an empty or null view. */
  static String readStringView(MemorySegment view) {
    MemorySegment data = view.get(ADDRESS, Layouts.STRING_VIEW_DATA);
    long size = view.get(JAVA_LONG, Layouts.STRING_VIEW_SIZE);
    if (size <= 0 || data.address() == 0) {
      return "";
    }
    if (size > Integer.MAX_VALUE - 8) {
      return "<a string of " + size + " bytes>";
    }
    byte[] bytes = data.reinterpret(size).toArray(JAVA_BYTE);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** A string view of {@code s}'s UTF-8 bytes (not NUL-terminated), allocated in {@code arena}. */
  static MemorySegment stringView(SegmentAllocator arena, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    MemorySegment view = arena.allocate(Layouts.STRING_VIEW);
    MemorySegment data =
        bytes.length == 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, bytes);
    view.set(ADDRESS, Layouts.STRING_VIEW_DATA, data);
    view.set(JAVA_LONG, Layouts.STRING_VIEW_SIZE, bytes.length);
    return view;
  }
}
