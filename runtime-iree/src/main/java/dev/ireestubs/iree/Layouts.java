package dev.ireestubs.iree;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;

/**
 * The C structs of IREE's runtime API that cross the boundary, as {@link MemoryLayout}s (x86-64 and
 * AArch64 LP64: 8-byte pointers and {@code size_t}), with the field offsets the code uses. Every
 * size and offset is the one measured against IREE's headers (iree-runtime-c-api.md, table 1.1);
 * {@code LayoutsTest} checks them.
 */
final class Layouts {
  private Layouts() {}

  /** {@code iree_string_view_t}: {@code {const char* data; size_t size}}; not NUL-terminated. */
  static final StructLayout STRING_VIEW =
      MemoryLayout.structLayout(ADDRESS.withName("data"), JAVA_LONG.withName("size"))
          .withName("iree_string_view_t");

  /** {@code iree_const_byte_span_t}: {@code {const uint8_t* data; size_t data_length}}. */
  static final StructLayout BYTE_SPAN =
      MemoryLayout.structLayout(ADDRESS.withName("data"), JAVA_LONG.withName("data_length"))
          .withName("iree_const_byte_span_t");

  /** {@code iree_allocator_t}: {@code {void* self; iree_allocator_ctl_fn_t ctl}}. */
  static final StructLayout ALLOCATOR =
      MemoryLayout.structLayout(ADDRESS.withName("self"), ADDRESS.withName("ctl"))
          .withName("iree_allocator_t");

  /** {@code iree_string_pair_t}: a key and a value string view. */
  static final StructLayout STRING_PAIR =
      MemoryLayout.structLayout(STRING_VIEW.withName("key"), STRING_VIEW.withName("value"))
          .withName("iree_string_pair_t");

  /** {@code iree_timeout_t}: {@code {int32 type; int64 nanos}}; type ABSOLUTE = 0. */
  static final StructLayout TIMEOUT =
      MemoryLayout.structLayout(
              JAVA_INT.withName("type"), MemoryLayout.paddingLayout(4), JAVA_LONG.withName("nanos"))
          .withName("iree_timeout_t");

  /** The 8-byte union of a value: {@code i8, i16, i32, i64, f32, f64, uint8[8]}. */
  static final UnionLayout VALUE_UNION =
      MemoryLayout.unionLayout(
          JAVA_BYTE.withName("i8"),
          JAVA_SHORT.withName("i16"),
          JAVA_INT.withName("i32"),
          JAVA_LONG.withName("i64"),
          JAVA_FLOAT.withName("f32"),
          JAVA_DOUBLE.withName("f64"),
          MemoryLayout.sequenceLayout(8, JAVA_BYTE).withName("value_storage"));

  /** {@code iree_vm_value_t}: {@code {int32 type; union {...}}}. */
  static final StructLayout VM_VALUE =
      MemoryLayout.structLayout(
              JAVA_INT.withName("type"), MemoryLayout.paddingLayout(4), VALUE_UNION.withName("v"))
          .withName("iree_vm_value_t");

  /**
   * {@code iree_vm_type_def_t}: one {@code uintptr_t} of bitfields (low 3 bits the value type, the
   * rest the ref type without its tag bits). Passed and returned by value.
   */
  static final StructLayout VM_TYPE_DEF =
      MemoryLayout.structLayout(JAVA_LONG.withName("bits")).withName("iree_vm_type_def_t");

  /** {@code iree_vm_ref_t}: {@code {void* ptr; iree_vm_ref_type_t type}}. */
  static final StructLayout VM_REF =
      MemoryLayout.structLayout(ADDRESS.withName("ptr"), JAVA_LONG.withName("type"))
          .withName("iree_vm_ref_t");

  /** {@code iree_vm_variant_t}: a type def, then a union of the values and an iree_vm_ref_t. */
  static final StructLayout VM_VARIANT =
      MemoryLayout.structLayout(
              VM_TYPE_DEF.withName("type"),
              MemoryLayout.unionLayout(VALUE_UNION.withName("value"), VM_REF.withName("ref"))
                  .withName("u"))
          .withName("iree_vm_variant_t");

  /** {@code iree_vm_function_t}: {@code {module*; uint16 linkage; uint16 ordinal}}, 16 bytes. */
  static final StructLayout VM_FUNCTION =
      MemoryLayout.structLayout(
              ADDRESS.withName("module"),
              JAVA_SHORT.withName("linkage"),
              JAVA_SHORT.withName("ordinal"),
              MemoryLayout.paddingLayout(4))
          .withName("iree_vm_function_t");

  /** {@code iree_vm_function_signature_t}: {@code {iree_string_view_t calling_convention}}. */
  static final StructLayout VM_FUNCTION_SIGNATURE =
      MemoryLayout.structLayout(STRING_VIEW.withName("calling_convention"))
          .withName("iree_vm_function_signature_t");

  /** {@code iree_runtime_instance_options_t}: {@code {iree_hal_driver_registry_t*}}. */
  static final StructLayout INSTANCE_OPTIONS =
      MemoryLayout.structLayout(ADDRESS.withName("driver_registry"))
          .withName("iree_runtime_instance_options_t");

  /** {@code iree_runtime_session_options_t}: uint32 context_flags, uint64 builtin_modules. */
  static final StructLayout SESSION_OPTIONS =
      MemoryLayout.structLayout(
              JAVA_INT.withName("context_flags"),
              MemoryLayout.paddingLayout(4),
              JAVA_LONG.withName("builtin_modules"))
          .withName("iree_runtime_session_options_t");

  /** {@code iree_hal_buffer_params_t}, 32 bytes, passed by value. */
  static final StructLayout BUFFER_PARAMS =
      MemoryLayout.structLayout(
              JAVA_INT.withName("usage"),
              JAVA_SHORT.withName("access"),
              MemoryLayout.paddingLayout(2),
              JAVA_INT.withName("type"),
              MemoryLayout.paddingLayout(4),
              JAVA_LONG.withName("queue_affinity"),
              JAVA_LONG.withName("min_alignment"))
          .withName("iree_hal_buffer_params_t");

  /**
   * {@code iree_hal_external_buffer_t}, 24 bytes: type, flags, size, then the handle union whose
   * {@code host_allocation.ptr} is all iree-stubs fills.
   */
  static final StructLayout EXTERNAL_BUFFER =
      MemoryLayout.structLayout(
              JAVA_INT.withName("type"),
              JAVA_INT.withName("flags"),
              JAVA_LONG.withName("size"),
              ADDRESS.withName("ptr"))
          .withName("iree_hal_external_buffer_t");

  /** {@code iree_hal_buffer_release_callback_t}, 16 bytes, passed by value. */
  static final StructLayout RELEASE_CALLBACK =
      MemoryLayout.structLayout(ADDRESS.withName("fn"), ADDRESS.withName("user_data"))
          .withName("iree_hal_buffer_release_callback_t");

  /**
   * {@code iree_hal_buffer_mapping_t}, 48 bytes: the mapped span, the buffer, and IREE's private
   * bookkeeping, which must stay in place until the mapping is unmapped.
   */
  static final StructLayout BUFFER_MAPPING =
      MemoryLayout.structLayout(
              BYTE_SPAN.withName("contents"),
              ADDRESS.withName("buffer"),
              MemoryLayout.sequenceLayout(3, JAVA_LONG).withName("impl"))
          .withName("iree_hal_buffer_mapping_t");

  /**
   * {@code iree_hal_semaphore_list_t}, 24 bytes, passed by value: {@code {size_t count;
   * iree_hal_semaphore_t** semaphores; uint64_t* payload_values}}.
   */
  static final StructLayout SEMAPHORE_LIST =
      MemoryLayout.structLayout(
              JAVA_LONG.withName("count"),
              ADDRESS.withName("semaphores"),
              ADDRESS.withName("payload_values"))
          .withName("iree_hal_semaphore_list_t");

  // Offsets the code reads and writes, computed from the layouts.

  static final long STRING_VIEW_DATA = offset(STRING_VIEW, "data");
  static final long STRING_VIEW_SIZE = offset(STRING_VIEW, "size");
  static final long STRING_PAIR_KEY = offset(STRING_PAIR, "key");
  static final long STRING_PAIR_VALUE = offset(STRING_PAIR, "value");
  static final long VM_VALUE_TYPE = offset(VM_VALUE, "type");
  static final long VM_VALUE_UNION = offset(VM_VALUE, "v");
  static final long VM_REF_PTR = offset(VM_REF, "ptr");
  static final long VM_REF_TYPE = offset(VM_REF, "type");
  static final long VM_VARIANT_TYPE = offset(VM_VARIANT, "type");
  static final long VM_VARIANT_VALUE =
      VM_VARIANT.byteOffset(groupElement("u"), groupElement("value"));
  static final long VM_VARIANT_REF_PTR =
      VM_VARIANT.byteOffset(groupElement("u"), groupElement("ref"), groupElement("ptr"));
  static final long VM_VARIANT_REF_TYPE =
      VM_VARIANT.byteOffset(groupElement("u"), groupElement("ref"), groupElement("type"));
  static final long TIMEOUT_TYPE = offset(TIMEOUT, "type");
  static final long TIMEOUT_NANOS = offset(TIMEOUT, "nanos");
  static final long BUFFER_PARAMS_USAGE = offset(BUFFER_PARAMS, "usage");
  static final long BUFFER_PARAMS_ACCESS = offset(BUFFER_PARAMS, "access");
  static final long BUFFER_PARAMS_TYPE = offset(BUFFER_PARAMS, "type");
  static final long BUFFER_PARAMS_QUEUE_AFFINITY = offset(BUFFER_PARAMS, "queue_affinity");
  static final long BUFFER_PARAMS_MIN_ALIGNMENT = offset(BUFFER_PARAMS, "min_alignment");
  static final long BYTE_SPAN_DATA = offset(BYTE_SPAN, "data");
  static final long BYTE_SPAN_LENGTH = offset(BYTE_SPAN, "data_length");
  static final long ALLOCATOR_SELF = offset(ALLOCATOR, "self");
  static final long ALLOCATOR_CTL = offset(ALLOCATOR, "ctl");
  static final long EXTERNAL_BUFFER_TYPE = offset(EXTERNAL_BUFFER, "type");
  static final long EXTERNAL_BUFFER_SIZE = offset(EXTERNAL_BUFFER, "size");
  static final long EXTERNAL_BUFFER_PTR = offset(EXTERNAL_BUFFER, "ptr");
  static final long RELEASE_CALLBACK_FN = offset(RELEASE_CALLBACK, "fn");
  static final long RELEASE_CALLBACK_USER_DATA = offset(RELEASE_CALLBACK, "user_data");
  static final long BUFFER_MAPPING_DATA = offset(BUFFER_MAPPING, "contents");
  static final long SEMAPHORE_LIST_COUNT = offset(SEMAPHORE_LIST, "count");
  static final long SEMAPHORE_LIST_SEMAPHORES = offset(SEMAPHORE_LIST, "semaphores");
  static final long SEMAPHORE_LIST_VALUES = offset(SEMAPHORE_LIST, "payload_values");

  private static long offset(GroupLayout layout, String field) {
    return layout.byteOffset(groupElement(field));
  }
}
