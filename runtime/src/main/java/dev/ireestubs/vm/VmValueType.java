package dev.ireestubs.vm;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.VmKind;
import java.util.Optional;

/**
 * The IREE VM's value types, as {@code iree_vm_value_type_t}: the primitive values a {@link
 * VmValue} holds and a typed value list ({@code !vm.list<i32>}) is bound to.
 *
 * <p>The C enum also has {@code NONE = 0}; here an absent value is a {@code null} element, so there
 * is no constant for it.
 */
public enum VmValueType {
  /** {@code i8}: travels as a cconv {@code i} (32-bit) slot. C code 1. */
  I8(1, 8, VmKind.I32),
  /** {@code i16}: travels as a cconv {@code i} (32-bit) slot. C code 2. */
  I16(2, 16, VmKind.I32),
  /** {@code i32}: cconv {@code i}. C code 3. */
  I32(3, 32, VmKind.I32),
  /** {@code i64}: cconv {@code I}. C code 4. */
  I64(4, 64, VmKind.I64),
  /** {@code f32}: cconv {@code f}. C code 5. */
  F32(5, 32, VmKind.F32),
  /** {@code f64}: cconv {@code F}. C code 6. */
  F64(6, 64, VmKind.F64);

  private final int code;
  private final int bits;
  private final VmKind cconvKind;

  VmValueType(int code, int bits, VmKind cconvKind) {
    this.code = code;
    this.bits = bits;
    this.cconvKind = cconvKind;
  }

  /**
   * The {@code iree_vm_value_type_t} code: I8=1, I16=2, I32=3, I64=4, F32=5, F64=6. It is also the
   * whole {@code iree_vm_type_def_t} word of a typed value list.
   *
   * @return the numeric code the C API uses
   */
  public int code() {
    return code;
  }

  /**
   * The value type an {@code iree_vm_value_type_t} code names; empty for 0 (NONE) and others.
   *
   * @param code an {@code iree_vm_value_type_t} value
   * @return the value type, or empty when the code names none
   */
  public static Optional<VmValueType> fromCode(int code) {
    for (VmValueType t : values()) {
      if (t.code == code) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /**
   * The width in bits: 8, 16, 32 or 64.
   *
   * @return the number of bits a value of this type has
   */
  public int bitWidth() {
    return bits;
  }

  /**
   * The width in bytes: 1, 2, 4 or 8.
   *
   * @return the number of bytes a value of this type has
   */
  public int byteSize() {
    return bits / 8;
  }

  /**
   * True for {@link #I8}, {@link #I16}, {@link #I32} and {@link #I64}.
   *
   * @return true for the integer types
   */
  public boolean isInteger() {
    return this != F32 && this != F64;
  }

  /**
   * True for {@link #F32} and {@link #F64}.
   *
   * @return true for the float types
   */
  public boolean isFloat() {
    return !isInteger();
  }

  /**
   * The calling-convention kind a value of this type is marshalled into: {@code i8}, {@code i16}
   * and {@code i32} travel as {@code i}, {@code i64} as {@code I}, {@code f32} as {@code f}, {@code
   * f64} as {@code F}.
   *
   * @return the slot kind a value of this type travels in
   */
  public VmKind cconvKind() {
    return cconvKind;
  }

  /**
   * The value type the VM produces for a calling-convention result slot: {@code i} is {@link #I32},
   * {@code I} is {@link #I64}, {@code f} is {@link #F32}, {@code F} is {@link #F64}.
   *
   * @param kind a value kind of the calling convention
   * @return the type of the value the VM writes into such a slot
   * @throws IllegalArgumentException for {@link VmKind#REF}, which carries a ref, not a value
   */
  public static VmValueType forCconvKind(VmKind kind) {
    return switch (kind) {
      case I32 -> I32;
      case I64 -> I64;
      case F32 -> F32;
      case F64 -> F64;
      default ->
          throw new IllegalArgumentException(
              "cconv kind " + kind.code() + " is a ref, not a value");
    };
  }

  /**
   * The signless element type of the same width: {@code i8}..{@code i64}, {@code f32}, {@code f64}.
   *
   * @return the element type of the same width and kind
   */
  public ElementType elementType() {
    return switch (this) {
      case I8 -> ElementType.I8;
      case I16 -> ElementType.I16;
      case I32 -> ElementType.I32;
      case I64 -> ElementType.I64;
      case F32 -> ElementType.F32;
      default -> ElementType.F64;
    };
  }

  /**
   * The MLIR and IREE spelling: {@code i8}, {@code i16}, {@code i32}, {@code i64}, {@code f32},
   * {@code f64}.
   *
   * @return the type's name as MLIR writes it
   */
  public String mlirName() {
    return (isInteger() ? "i" : "f") + bits;
  }

  /** The MLIR spelling, e.g. {@code i32}. */
  @Override
  public String toString() {
    return mlirName();
  }
}
