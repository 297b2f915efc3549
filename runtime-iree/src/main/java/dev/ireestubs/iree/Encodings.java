package dev.ireestubs.iree;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmTypeDef;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The bytes IREE's C API exchanges for values and element types, built and read without the library
 * (IREE's helpers for them are inline functions and macros, not exported symbols).
 */
final class Encodings {
  private Encodings() {}

  /** {@code iree_vm_value_type_t} NONE: an empty value. */
  static final int VALUE_TYPE_NONE = 0;

  /** The tag bits of a ref type ({@code IREE_VM_REF_TYPE_TAG_BITS}). */
  static final long REF_TYPE_TAG_MASK = 7L;

  /** {@code IREE_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR}. */
  static final int ENCODING_DENSE_ROW_MAJOR = 1;

  /** {@code IREE_HAL_ENCODING_TYPE_OPAQUE}. */
  static final int ENCODING_OPAQUE = 0;

  /** {@code IREE_HAL_MEMORY_TYPE_DEVICE_LOCAL}. */
  static final int MEMORY_TYPE_DEVICE_LOCAL = 0x30;

  /** {@code IREE_HAL_MEMORY_ACCESS_ALL}. */
  static final short MEMORY_ACCESS_ALL = 7;

  /** {@code IREE_HAL_BUFFER_USAGE_DEFAULT}: transfer and dispatch storage. */
  static final int BUFFER_USAGE_DEFAULT = 0xC03;

  /** {@code IREE_HAL_MEMORY_ACCESS_READ}. */
  static final short MEMORY_ACCESS_READ = 1;

  /** {@code IREE_HAL_MEMORY_ACCESS_READ | IREE_HAL_MEMORY_ACCESS_WRITE}. */
  static final short MEMORY_ACCESS_READ_WRITE = 3;

  /** {@code IREE_HAL_MAPPING_MODE_SCOPED}: the mapping retains the buffer until unmapped. */
  static final int MAPPING_MODE_SCOPED = 1;

  /** {@code IREE_HAL_EXTERNAL_BUFFER_TYPE_HOST_ALLOCATION}. */
  static final int EXTERNAL_BUFFER_HOST_ALLOCATION = 1;

  /**
   * {@code IREE_HAL_HEAP_BUFFER_ALIGNMENT}: host memory IREE's heap allocator imports without a
   * copy must start at a multiple of this.
   */
  static final int HEAP_BUFFER_ALIGNMENT = 64;

  /** {@code IREE_HAL_QUEUE_AFFINITY_ANY}. */
  static final long QUEUE_AFFINITY_ANY = -1L;

  /** {@code iree_timeout_t} type ABSOLUTE; with {@link Long#MAX_VALUE} nanos, infinite. */
  static final int TIMEOUT_ABSOLUTE = 0;

  /**
   * {@code IREE_HAL_WAIT_MODE_ANY} (3.11), {@code IREE_ASYNC_WAIT_MODE_ANY} (3.12 line): a
   * multi-wait returns when one semaphore is reached.
   */
  static final int WAIT_MODE_ANY = 1;

  /** {@code IREE_HAL_WAIT_FLAG_DEFAULT} (3.11), {@code IREE_ASYNC_WAIT_FLAG_NONE} (3.12 line). */
  static final long WAIT_FLAG_DEFAULT = 0;

  /**
   * {@code IREE_HAL_SEMAPHORE_MAX_VALUE}: the largest payload a semaphore may be signalled to (2^31
   * - 2; larger values are failures).
   */
  static final long SEMAPHORE_MAX_VALUE = 2147483647L - 1;

  // ----------------------------------------------------------------------------------------------
  // iree_vm_value_t

  /**
   * Writes {@code value} as an {@code iree_vm_value_t} (16 bytes): the type code at 0, the value in
   * the union at 8 with exactly its width (the rest of the union zero).
   */
  static void writeValue(MemorySegment out, VmValue value) {
    out.asSlice(0, Layouts.VM_VALUE.byteSize()).fill((byte) 0);
    out.set(JAVA_INT, Layouts.VM_VALUE_TYPE, value.type().code());
    writeUnion(out, Layouts.VM_VALUE_UNION, value);
  }

  private static void writeUnion(MemorySegment out, long offset, VmValue value) {
    long bits = value.rawBits();
    switch (value.type().byteSize()) {
      case 1 -> out.set(JAVA_BYTE, offset, (byte) bits);
      case 2 -> out.set(JAVA_SHORT, offset, (short) bits);
      case 4 -> out.set(JAVA_INT, offset, (int) bits);
      default -> out.set(JAVA_LONG, offset, bits);
    }
  }

  /**
   * Reads an {@code iree_vm_value_t}: empty for type NONE.
   *
   * @throws IllegalArgumentException for a type code IREE does not define (the message gives it)
   */
  static Optional<VmValue> readValue(MemorySegment in) {
    int code = in.get(JAVA_INT, Layouts.VM_VALUE_TYPE);
    if (code == VALUE_TYPE_NONE) {
      return Optional.empty();
    }
    return Optional.of(readUnion(in, Layouts.VM_VALUE_UNION, code));
  }

  /** The value of type {@code code} in the 8-byte union at {@code offset}. */
  static VmValue readUnion(MemorySegment in, long offset, int code) {
    VmValueType type =
        VmValueType.fromCode(code)
            .orElseThrow(
                () -> new IllegalArgumentException("unknown iree_vm_value_type_t " + code));

    long bits =
        switch (type.byteSize()) {
          case 1 -> in.get(JAVA_BYTE, offset);
          case 2 -> in.get(JAVA_SHORT, offset);
          case 4 -> in.get(JAVA_INT, offset);
          default -> in.get(JAVA_LONG, offset);
        };
    return VmValue.fromBits(type, bits);
  }

  // ----------------------------------------------------------------------------------------------
  // iree_vm_type_def_t

  /**
   * The ref types registered in a runtime: {@code iree_vm_list_registration} and {@code
   * iree_hal_buffer_view_registration}, read once a session exists.
   */
  record RefTypes(long list, long bufferView) {
    /** The registered type id for a ref type name, without its tag bits, if known. */
    Optional<Long> typeDefWordOf(String refTypeName) {
      if (VmList.REF_TYPE.equals(refTypeName)) {
        return Optional.of(list & ~REF_TYPE_TAG_MASK);
      }
      if (BufferView.REF_TYPE.equals(refTypeName)) {
        return Optional.of(bufferView & ~REF_TYPE_TAG_MASK);
      }
      return Optional.empty();
    }

    boolean isList(long refType) {
      return (refType & ~REF_TYPE_TAG_MASK) == (list & ~REF_TYPE_TAG_MASK);
    }

    boolean isBufferView(long refType) {
      return (refType & ~REF_TYPE_TAG_MASK) == (bufferView & ~REF_TYPE_TAG_MASK);
    }
  }

  /**
   * The {@code iree_vm_type_def_t} word for a list element type: 0 for the variant type, the value
   * type code for a value type, the ref type with its tag bits cleared for a ref type.
   *
   * @return empty for a ref type this backend cannot name to IREE (neither {@code vm.list} nor
   *     {@code hal.buffer_view})
   */
  static Optional<Long> typeDefWord(VmTypeDef type, RefTypes refTypes) {
    if (type.isVariant()) {
      return Optional.of(0L);
    }
    if (type.isValue()) {
      return Optional.of((long) type.valueType().get().code());
    }
    return refTypes.typeDefWordOf(type.refTypeName().get());
  }

  /** The kind of element type a type-def word names. */
  enum TypeDefKind {
    VARIANT,
    VALUE,
    REF
  }

  /** Which kind of type a type-def word is: variant (0), value (low 3 bits), ref (the rest). */
  static TypeDefKind kindOf(long word) {
    if (word == 0) {
      return TypeDefKind.VARIANT;
    }
    return (word & REF_TYPE_TAG_MASK) != 0 ? TypeDefKind.VALUE : TypeDefKind.REF;
  }

  /** The value type code in a type-def word's low 3 bits. */
  static int valueTypeCode(long word) {
    return (int) (word & REF_TYPE_TAG_MASK);
  }
}
