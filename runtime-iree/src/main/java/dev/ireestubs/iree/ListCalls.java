package dev.ireestubs.iree;

import static dev.ireestubs.iree.NativeSymbols.rethrow;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.invoke.MethodHandle;

/**
 * Downcalls for IREE's VM lists and refs ({@code iree/vm/list.h}, {@code ref.h}): what the
 * marshaller builds arguments and reads results with. Callers pass valid handles.
 */
final class ListCalls {

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

  ListCalls(NativeSymbols symbols) {
    // iree/vm/list.h, ref.h
    listCreate =
        symbols.bind(
            "iree_vm_list_create",
            FunctionDescriptor.of(
                JAVA_LONG, Layouts.VM_TYPE_DEF, JAVA_LONG, Layouts.ALLOCATOR, ADDRESS));
    listRelease = symbols.bind("iree_vm_list_release", FunctionDescriptor.ofVoid(JAVA_LONG));
    listSize =
        symbols.bindCritical("iree_vm_list_size", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    listResize =
        symbols.bind("iree_vm_list_resize", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));
    listElementType =
        symbols.bindCritical(
            "iree_vm_list_element_type",
            // A struct of one uintptr_t comes back in a register, exactly like a long.
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    listPushValue =
        symbols.bind(
            "iree_vm_list_push_value", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
    listGetValue =
        symbols.bindCritical(
            "iree_vm_list_get_value",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    listPushRefMove =
        symbols.bind(
            "iree_vm_list_push_ref_move", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
    listPushRefRetain =
        symbols.bind(
            "iree_vm_list_push_ref_retain", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS));
    listGetVariantAssign =
        symbols.bindCritical(
            "iree_vm_list_get_variant_assign",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS));
    refRelease = symbols.bind("iree_vm_ref_release", FunctionDescriptor.ofVoid(ADDRESS));
    refRetain = symbols.bind("iree_vm_ref_retain", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
    refTypeName =
        symbols.bind(
            "iree_vm_ref_type_name", FunctionDescriptor.of(Layouts.STRING_VIEW, JAVA_LONG));
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
}
