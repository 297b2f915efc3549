package dev.ireestubs.iree;

import static dev.ireestubs.iree.NativeSymbols.rethrow;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls that serve external parameters ({@code iree/io/file_handle.h}, {@code
 * parameter_index.h}, {@code parameter_index_provider.h}, {@code formats/parser_registry.h}, {@code
 * modules/io/parameters/module.h}) and append the parameters module to a session.
 */
final class ParameterCalls {

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

  ParameterCalls(NativeSymbols symbols) {
    // Parameters
    instanceVmInstance =
        symbols.bind("iree_runtime_instance_vm_instance", FunctionDescriptor.of(ADDRESS, ADDRESS));
    sessionAppendModule =
        symbols.bind(
            "iree_runtime_session_append_module",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS));
    vmModuleRelease = symbols.bind("iree_vm_module_release", FunctionDescriptor.ofVoid(ADDRESS));
    fileHandleOpen =
        symbols.bind(
            "iree_io_file_handle_open",
            FunctionDescriptor.of(
                JAVA_LONG, JAVA_LONG, Layouts.STRING_VIEW, Layouts.ALLOCATOR, ADDRESS));
    fileHandleRelease =
        symbols.bind("iree_io_file_handle_release", FunctionDescriptor.ofVoid(ADDRESS));
    parameterIndexCreate =
        symbols.bind(
            "iree_io_parameter_index_create",
            FunctionDescriptor.of(JAVA_LONG, Layouts.ALLOCATOR, ADDRESS));
    parameterIndexRelease =
        symbols.bind("iree_io_parameter_index_release", FunctionDescriptor.ofVoid(ADDRESS));
    parseFileIndex =
        symbols.bind(
            "iree_io_parse_file_index",
            FunctionDescriptor.of(
                JAVA_LONG, Layouts.STRING_VIEW, ADDRESS, ADDRESS, Layouts.ALLOCATOR));
    parameterIndexProviderCreate =
        symbols.bind(
            "iree_io_parameter_index_provider_create",
            FunctionDescriptor.of(
                JAVA_LONG, Layouts.STRING_VIEW, ADDRESS, JAVA_LONG, Layouts.ALLOCATOR, ADDRESS));
    parameterProviderRelease =
        symbols.bind("iree_io_parameter_provider_release", FunctionDescriptor.ofVoid(ADDRESS));
    parametersModuleCreate =
        symbols.bind(
            "iree_io_parameters_module_create",
            FunctionDescriptor.of(
                JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, Layouts.ALLOCATOR, ADDRESS));
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
}
