package dev.ireestubs.iree;

import static dev.ireestubs.iree.NativeSymbols.rethrow;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls for IREE's runtime instance, its devices, sessions and their functions ({@code
 * iree/runtime/instance.h}, {@code session.h}, {@code iree/vm/module.h}): one Java method per C
 * function, named as in C without the {@code iree_} prefix. Callers pass valid handles.
 */
final class SessionCalls {

  // iree/runtime/instance.h, session.h
  private final MethodHandle instanceOptionsInitialize;
  private final MethodHandle instanceOptionsUseAllAvailableDrivers;
  private final MethodHandle instanceCreate;
  private final MethodHandle instanceRelease;
  private final MethodHandle instanceHostAllocator;
  private final MethodHandle instanceTryCreateDefaultDevice;
  private final MethodHandle halDeviceRelease;
  private final MethodHandle halDeviceRetain;
  private final MethodHandle sessionOptionsInitialize;
  private final MethodHandle sessionCreateWithDevice;
  private final MethodHandle sessionRelease;
  private final MethodHandle sessionDevice;
  private final MethodHandle sessionDeviceAllocator;
  private final MethodHandle bytecodeModuleCreate;
  private final MethodHandle sessionLookupFunction;
  private final MethodHandle sessionCall;
  private final MethodHandle sessionContext;

  // iree/vm/context.h
  private final MethodHandle contextModuleCount;
  private final MethodHandle contextModuleAt;

  // iree/vm/module.h
  private final MethodHandle vmModuleRetain;
  private final MethodHandle functionSignature;
  private final MethodHandle functionGetAttr;

  SessionCalls(NativeSymbols symbols) {
    // iree/runtime/instance.h, session.h
    instanceOptionsInitialize =
        symbols.bind(
            "iree_runtime_instance_options_initialize", FunctionDescriptor.ofVoid(ADDRESS));
    instanceOptionsUseAllAvailableDrivers =
        symbols.bind(
            "iree_runtime_instance_options_use_all_available_drivers",
            FunctionDescriptor.ofVoid(ADDRESS));
    instanceCreate =
        symbols.bind(
            "iree_runtime_instance_create",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, Layouts.ALLOCATOR, ADDRESS));
    instanceRelease =
        symbols.bind("iree_runtime_instance_release", FunctionDescriptor.ofVoid(ADDRESS));
    instanceHostAllocator =
        symbols.bind(
            "iree_runtime_instance_host_allocator",
            FunctionDescriptor.of(Layouts.ALLOCATOR, ADDRESS));
    instanceTryCreateDefaultDevice =
        symbols.bind(
            "iree_runtime_instance_try_create_default_device",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, Layouts.STRING_VIEW, ADDRESS));
    halDeviceRelease =
        symbols.bind("iree_hal_device_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    halDeviceRetain = symbols.bind("iree_hal_device_retain", FunctionDescriptor.ofVoid(JAVA_LONG));
    sessionOptionsInitialize =
        symbols.bind("iree_runtime_session_options_initialize", FunctionDescriptor.ofVoid(ADDRESS));
    sessionCreateWithDevice =
        symbols.bind(
            "iree_runtime_session_create_with_device",
            FunctionDescriptor.of(
                JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, Layouts.ALLOCATOR, ADDRESS));
    sessionRelease =
        symbols.bind("iree_runtime_session_release", FunctionDescriptor.ofVoid(ADDRESS));
    sessionDevice =
        symbols.bind("iree_runtime_session_device", FunctionDescriptor.of(ADDRESS, ADDRESS));
    sessionContext =
        symbols.bind("iree_runtime_session_context", FunctionDescriptor.of(ADDRESS, ADDRESS));
    contextModuleCount =
        symbols.bind("iree_vm_context_module_count", FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    contextModuleAt =
        symbols.bind(
            "iree_vm_context_module_at", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG));
    vmModuleRetain = symbols.bind("iree_vm_module_retain", FunctionDescriptor.ofVoid(ADDRESS));
    sessionDeviceAllocator =
        symbols.bind(
            "iree_runtime_session_device_allocator", FunctionDescriptor.of(ADDRESS, ADDRESS));
    bytecodeModuleCreate =
        symbols.bind(
            "iree_vm_bytecode_module_create",
            FunctionDescriptor.of(
                JAVA_LONG,
                ADDRESS,
                JAVA_INT,
                Layouts.BYTE_SPAN,
                Layouts.ALLOCATOR,
                Layouts.ALLOCATOR,
                ADDRESS));
    sessionLookupFunction =
        symbols.bind(
            "iree_runtime_session_lookup_function",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, Layouts.STRING_VIEW, ADDRESS));
    sessionCall =
        symbols.bind(
            "iree_runtime_session_call",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG));

    // iree/vm/module.h
    functionSignature =
        symbols.bind(
            "iree_vm_function_signature",
            FunctionDescriptor.of(Layouts.VM_FUNCTION_SIGNATURE, ADDRESS));
    functionGetAttr =
        symbols.bind(
            "iree_vm_function_get_attr",
            FunctionDescriptor.of(JAVA_LONG, Layouts.VM_FUNCTION, JAVA_LONG, ADDRESS));
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

  void halDeviceRetain(long device) {
    try {
      halDeviceRetain.invokeExact(device);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Retains every module of {@code session}'s context ({@code iree_runtime_session_context}, {@code
   * iree_vm_context_module_at}, {@code iree_vm_module_retain}), in the context's order: the HAL
   * module first.
   *
   * @return the modules, each to release with {@code iree_vm_module_release}
   */
  MemorySegment[] retainModules(MemorySegment session) {
    try {
      MemorySegment context = (MemorySegment) sessionContext.invokeExact(session);
      long count = (long) contextModuleCount.invokeExact(context);
      MemorySegment[] modules = new MemorySegment[(int) count];
      for (int i = 0; i < modules.length; i++) {
        modules[i] = (MemorySegment) contextModuleAt.invokeExact(context, (long) i);
        vmModuleRetain.invokeExact(modules[i]);
      }
      return modules;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void halDeviceRelease(long device) {
    try {
      halDeviceRelease.invokeExact(device);
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

  /**
   * {@code iree_vm_bytecode_module_create}: a module over {@code archive} (kept, not copied; freed
   * with {@code archiveAllocator} when the module is destroyed), shareable by every context.
   */
  long bytecodeModuleCreate(
      MemorySegment vmInstance,
      int flags,
      MemorySegment archive,
      MemorySegment archiveAllocator,
      MemorySegment allocator,
      MemorySegment outModule) {
    try {
      return (long)
          bytecodeModuleCreate.invokeExact(
              vmInstance, flags, archive, archiveAllocator, allocator, outModule);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  long sessionLookupFunction(MemorySegment session, MemorySegment name, MemorySegment outFunction) {
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
}
