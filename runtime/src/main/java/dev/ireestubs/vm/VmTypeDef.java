package dev.ireestubs.vm;

import java.util.Objects;
import java.util.Optional;

/**
 * The element type a {@link VmList} is bound to, as IREE's {@code iree_vm_type_def_t}: the variant
 * type ({@code ?}: any value, any ref, or an empty slot), one {@link VmValueType}, or one ref type
 * named as IREE names it ({@code hal.buffer_view}, {@code vm.list}, {@code hal.fence}). Immutable
 * and thread-safe; compare with {@link #equals}.
 *
 * <p>A native backend builds the C word from it: 0 for the variant type, {@link VmValueType#code()}
 * for a value type, and the registered ref type id (with its low 3 bits cleared) for a ref type,
 * looked up by {@link #refTypeName()}.
 */
@SuppressWarnings("EnumOrdinal") // tables indexed by the ordinal, filled from values() here
public final class VmTypeDef {

  /** The variant type {@code ?}: elements of any type, and empty slots. */
  public static final VmTypeDef VARIANT = new VmTypeDef(null, null);

  private static final VmTypeDef[] VALUE_TYPES = new VmTypeDef[VmValueType.values().length];

  static {
    for (VmValueType t : VmValueType.values()) {
      VALUE_TYPES[t.ordinal()] = new VmTypeDef(t, null);
    }
  }

  private final VmValueType valueType;
  private final String refTypeName;

  private VmTypeDef(VmValueType valueType, String refTypeName) {
    this.valueType = valueType;
    this.refTypeName = refTypeName;
  }

  /**
   * The variant type; the same as {@link #VARIANT}.
   *
   * @return the type of a list that holds anything
   */
  public static VmTypeDef variant() {
    return VARIANT;
  }

  /**
   * The type of values of {@code type}.
   *
   * @param type the value type
   * @return the type of a list of those values
   */
  public static VmTypeDef value(VmValueType type) {
    return VALUE_TYPES[Objects.requireNonNull(type, "type").ordinal()];
  }

  /**
   * The type of refs named {@code refTypeName}, e.g. {@code hal.buffer_view}.
   *
   * @param refTypeName the VM type name of the refs
   * @return the type of a list of those refs
   * @throws IllegalArgumentException when the name is empty or contains whitespace
   */
  public static VmTypeDef ref(String refTypeName) {
    return new VmTypeDef(null, checkRefTypeName(refTypeName));
  }

  static String checkRefTypeName(String name) {
    Objects.requireNonNull(name, "refTypeName");
    if (name.isEmpty() || name.startsWith("!")) {
      throw new IllegalArgumentException(
          "a ref type name is non-empty and has no leading '!' (e.g. hal.buffer_view); got '"
              + name
              + "'");
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isWhitespace(name.charAt(i))) {
        throw new IllegalArgumentException("a ref type name has no whitespace; got '" + name + "'");
      }
    }
    return name;
  }

  /**
   * True for the variant type {@code ?}.
   *
   * @return true only for the variant type
   */
  public boolean isVariant() {
    return valueType == null && refTypeName == null;
  }

  /**
   * True for a value type.
   *
   * @return true when this names a {@link VmValueType}
   */
  public boolean isValue() {
    return valueType != null;
  }

  /**
   * True for a ref type.
   *
   * @return true when this names a ref type
   */
  public boolean isRef() {
    return refTypeName != null;
  }

  /**
   * The value type, for a value type.
   *
   * @return the value type, or empty for a ref or the variant type
   */
  public Optional<VmValueType> valueType() {
    return Optional.ofNullable(valueType);
  }

  /**
   * The ref type name, for a ref type.
   *
   * @return the ref type name, or empty for a value or the variant type
   */
  public Optional<String> refTypeName() {
    return Optional.ofNullable(refTypeName);
  }

  /** True for the same variant, value or ref type. */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof VmTypeDef that)) {
      return false;
    }

    return valueType == that.valueType && Objects.equals(refTypeName, that.refTypeName);
  }

  @Override
  public int hashCode() {
    return Objects.hash(valueType, refTypeName);
  }

  /** The MLIR spelling: {@code ?}, {@code i32}, {@code !hal.buffer_view}. */
  @Override
  public String toString() {
    if (valueType != null) {
      return valueType.mlirName();
    }
    return refTypeName == null ? "?" : "!" + refTypeName;
  }
}
