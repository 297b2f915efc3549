package dev.ireestubs.abi;

import java.util.Objects;
import java.util.Optional;

/**
 * The element type of an array or a scalar, as every reflection format names it: a numerical kind
 * and a bit width, with the HAL element-type code IREE's runtime uses for buffer views.
 *
 * <p>Instances are immutable values; compare them with {@link #equals(Object)}. The constants cover
 * the common types; {@link #integer}, {@link #otherFloat} and the other factories make any other
 * (e.g. {@code i3}, {@code i128}).
 *
 * <p>Three spellings exist:
 *
 * <ul>
 *   <li>{@link #mlirName()}: how MLIR and {@code iree.abi.declaration} print it ({@code i32},
 *       {@code si8}, {@code ui16}, {@code f16}, {@code bf16}, {@code f8E4M3FN}, {@code
 *       complex<f32>}, {@code index});
 *   <li>{@link #abiJsonName()}: how the {@code iree.abi} JSON writes it, following the compiler's
 *       own mapping ({@code mapTypeToJsonTypeRecord}): signedness is dropped, {@code bf16} stays,
 *       every other float is {@code f<width>}, and anything else is {@code "unknown"};
 *   <li>{@link #halCode()}: {@code (numerical_type << 24) | bit_count}.
 * </ul>
 */
public final class ElementType {

  /** The numerical kind of an element type; the HAL numerical type where one exists. */
  public enum Kind {
    /** Signless integer ({@code i32}): HAL {@code INTEGER} (0x10). */
    SIGNLESS_INTEGER(0x10),
    /** Signed integer ({@code si32}): HAL {@code INTEGER_SIGNED} (0x11). */
    SIGNED_INTEGER(0x11),
    /** Unsigned integer ({@code ui32}): HAL {@code INTEGER_UNSIGNED} (0x12). */
    UNSIGNED_INTEGER(0x12),
    /** Boolean {@code i1}, stored as one byte: HAL {@code BOOLEAN} (0x13), {@code BOOL_8}. */
    BOOLEAN(0x13),
    /** IEEE 754 float ({@code f16}, {@code f32}, {@code f64}): HAL {@code FLOAT_IEEE} (0x21). */
    FLOAT(0x21),
    /** Brain float {@code bf16}: HAL {@code FLOAT_BRAIN} (0x22). */
    BFLOAT(0x22),
    /** Complex of two floats; the width is of the pair: HAL {@code FLOAT_COMPLEX} (0x23). */
    COMPLEX(0x23),
    /** {@code f8E5M2}: HAL {@code FLOAT_8_E5M2} (0x24). */
    FLOAT8_E5M2(0x24),
    /** {@code f8E4M3FN}: HAL {@code FLOAT_8_E4M3_FN} (0x25). */
    FLOAT8_E4M3FN(0x25),
    /** {@code f8E5M2FNUZ}: HAL {@code FLOAT_8_E5M2_FNUZ} (0x26). */
    FLOAT8_E5M2FNUZ(0x26),
    /** {@code f8E4M3FNUZ}: HAL {@code FLOAT_8_E4M3_FNUZ} (0x27). */
    FLOAT8_E4M3FNUZ(0x27),
    /** {@code f8E8M0FNU}: HAL {@code FLOAT_8_E8M0_FNU} (0x28). */
    FLOAT8_E8M0FNU(0x28),
    /**
     * Another MLIR float with no HAL numerical type of its own ({@code f8E4M3}, {@code f8E3M4},
     * {@code f6E2M3FN}, {@code f4E2M1FN}, {@code tf32}...): HAL opaque of its width.
     */
    OTHER_FLOAT(0x00),
    /** MLIR {@code index}: a 64-bit integer in the VM (cconv {@code I}); HAL signless 64-bit. */
    INDEX(0x10),
    /** Not known: JSON {@code "unknown"} or {@code null} as an ndarray element. No HAL code. */
    UNKNOWN(0x00);

    private final int halNumericalType;

    Kind(int halNumericalType) {
      this.halNumericalType = halNumericalType;
    }

    /**
     * The HAL numerical type (the top byte of a HAL element type).
     *
     * @return the byte IREE uses for this kind, such as {@code 0x21} for IEEE floats
     */
    public int halNumericalType() {
      return halNumericalType;
    }
  }

  /** The signless integers of widths 2..64, made once (parsers meet them constantly). */
  private static final ElementType[] SMALL_INTEGERS = new ElementType[65];

  static {
    for (int bits = 2; bits < SMALL_INTEGERS.length; bits++) {
      SMALL_INTEGERS[bits] = new ElementType(Kind.SIGNLESS_INTEGER, bits, "i" + bits);
    }
  }

  /** The 1-bit boolean {@code i1}. */
  public static final ElementType I1 = new ElementType(Kind.BOOLEAN, 1, "i1");

  /** The signless 8-bit integer {@code i8}. */
  public static final ElementType I8 = integer(8);

  /** The signless 16-bit integer {@code i16}. */
  public static final ElementType I16 = integer(16);

  /** The signless 32-bit integer {@code i32}. */
  public static final ElementType I32 = integer(32);

  /** The signless 64-bit integer {@code i64}. */
  public static final ElementType I64 = integer(64);

  /** The signed 8-bit integer {@code si8}. */
  public static final ElementType SI8 = new ElementType(Kind.SIGNED_INTEGER, 8, "si8");

  /** The signed 16-bit integer {@code si16}. */
  public static final ElementType SI16 = new ElementType(Kind.SIGNED_INTEGER, 16, "si16");

  /** The signed 32-bit integer {@code si32}. */
  public static final ElementType SI32 = new ElementType(Kind.SIGNED_INTEGER, 32, "si32");

  /** The signed 64-bit integer {@code si64}. */
  public static final ElementType SI64 = new ElementType(Kind.SIGNED_INTEGER, 64, "si64");

  /** The unsigned 8-bit integer {@code ui8}. */
  public static final ElementType UI8 = new ElementType(Kind.UNSIGNED_INTEGER, 8, "ui8");

  /** The unsigned 16-bit integer {@code ui16}. */
  public static final ElementType UI16 = new ElementType(Kind.UNSIGNED_INTEGER, 16, "ui16");

  /** The unsigned 32-bit integer {@code ui32}. */
  public static final ElementType UI32 = new ElementType(Kind.UNSIGNED_INTEGER, 32, "ui32");

  /** The unsigned 64-bit integer {@code ui64}. */
  public static final ElementType UI64 = new ElementType(Kind.UNSIGNED_INTEGER, 64, "ui64");

  /** The IEEE half-precision float {@code f16}. */
  public static final ElementType F16 = new ElementType(Kind.FLOAT, 16, "f16");

  /** The IEEE single-precision float {@code f32}. */
  public static final ElementType F32 = new ElementType(Kind.FLOAT, 32, "f32");

  /** The IEEE double-precision float {@code f64}. */
  public static final ElementType F64 = new ElementType(Kind.FLOAT, 64, "f64");

  /** The brain float {@code bf16}: 8 exponent bits, 7 mantissa bits. */
  public static final ElementType BF16 = new ElementType(Kind.BFLOAT, 16, "bf16");

  /** A complex number of two {@code f32} parts. */
  public static final ElementType COMPLEX64 = new ElementType(Kind.COMPLEX, 64, "complex<f32>");

  /** A complex number of two {@code f64} parts. */
  public static final ElementType COMPLEX128 = new ElementType(Kind.COMPLEX, 128, "complex<f64>");

  /** The 8-bit float with 5 exponent and 2 mantissa bits, with infinities. */
  public static final ElementType F8E5M2 = new ElementType(Kind.FLOAT8_E5M2, 8, "f8E5M2");

  /** The 8-bit float with 4 exponent and 3 mantissa bits, finite only (NaN but no infinity). */
  public static final ElementType F8E4M3FN = new ElementType(Kind.FLOAT8_E4M3FN, 8, "f8E4M3FN");

  /** The 8-bit float with 5 exponent and 2 mantissa bits, finite, unsigned zero (one NaN). */
  public static final ElementType F8E5M2FNUZ =
      new ElementType(Kind.FLOAT8_E5M2FNUZ, 8, "f8E5M2FNUZ");

  /** The 8-bit float with 4 exponent and 3 mantissa bits, finite, unsigned zero (one NaN). */
  public static final ElementType F8E4M3FNUZ =
      new ElementType(Kind.FLOAT8_E4M3FNUZ, 8, "f8E4M3FNUZ");

  /** The 8-bit float of exponent bits only, a power-of-two scale (no sign, no zero). */
  public static final ElementType F8E8M0FNU = new ElementType(Kind.FLOAT8_E8M0FNU, 8, "f8E8M0FNU");

  /** MLIR's {@code index}, 64 bits in IREE's VM. */
  public static final ElementType INDEX = new ElementType(Kind.INDEX, 64, "index");

  /** An element type the reflection does not state. */
  public static final ElementType UNKNOWN = new ElementType(Kind.UNKNOWN, 0, "unknown");

  /** Widest integer MLIR allows ({@code IntegerType::kMaxWidth}). */
  public static final int MAX_INTEGER_WIDTH = (1 << 24) - 1;

  private final Kind kind;
  private final int bits;
  private final String mlirName;

  private ElementType(Kind kind, int bits, String mlirName) {
    this.kind = kind;
    this.bits = bits;
    this.mlirName = mlirName;
  }

  /**
   * A signless integer of any width, e.g. {@code i3} (width 1 is the boolean {@link #I1}).
   *
   * @param bits the width, at least 1
   * @return the signless integer type of that width
   */
  public static ElementType integer(int bits) {
    checkWidth(bits);
    if (bits == 1) {
      return I1;
    }
    return bits < SMALL_INTEGERS.length
        ? SMALL_INTEGERS[bits]
        : new ElementType(Kind.SIGNLESS_INTEGER, bits, "i" + bits);
  }

  /**
   * A signed ({@code si}) integer of any width.
   *
   * @param bits the width, at least 1
   * @return the signed integer type of that width
   */
  public static ElementType signedInteger(int bits) {
    checkWidth(bits);
    ElementType constant = byWidth(bits, SI8, SI16, SI32, SI64);
    return constant != null ? constant : new ElementType(Kind.SIGNED_INTEGER, bits, "si" + bits);
  }

  /**
   * An unsigned ({@code ui}) integer of any width.
   *
   * @param bits the width, at least 1
   * @return the unsigned integer type of that width
   */
  public static ElementType unsignedInteger(int bits) {
    checkWidth(bits);
    ElementType constant = byWidth(bits, UI8, UI16, UI32, UI64);
    return constant != null ? constant : new ElementType(Kind.UNSIGNED_INTEGER, bits, "ui" + bits);
  }

  /** The constant of width 8, 16, 32 or 64 (null for others, or while the constants are made). */
  private static ElementType byWidth(
      int bits, ElementType w8, ElementType w16, ElementType w32, ElementType w64) {
    return switch (bits) {
      case 8 -> w8;
      case 16 -> w16;
      case 32 -> w32;
      case 64 -> w64;
      default -> null;
    };
  }

  /**
   * A float MLIR spells {@code name} that has no constant here, e.g. {@code f8E4M3} or {@code
   * tf32}; {@code bits} is its storage width.
   *
   * @param name the MLIR spelling
   * @param bits the storage width
   * @return a float type known by its name
   */
  public static ElementType otherFloat(String name, int bits) {
    Objects.requireNonNull(name, "name");
    if (bits <= 0 || bits > 128) {
      throw new IllegalArgumentException("float width out of range: " + bits);
    }
    return new ElementType(Kind.OTHER_FLOAT, bits, name);
  }

  /**
   * A complex type over {@code part}, one of {@link #F16}, {@link #BF16}, {@link #F32} or {@link
   * #F64}; the width is of the pair.
   *
   * @param part the type of the real and the imaginary part
   * @return the complex type
   */
  public static ElementType complex(ElementType part) {
    if (part.kind != Kind.FLOAT && part.kind != Kind.BFLOAT) {
      throw new IllegalArgumentException("complex parts must be float: " + part);
    }
    if (part.equals(F32)) {
      return COMPLEX64;
    }
    if (part.equals(F64)) {
      return COMPLEX128;
    }
    return new ElementType(Kind.COMPLEX, part.bits * 2, "complex<" + part.mlirName + ">");
  }

  private static void checkWidth(int bits) {
    if (bits <= 0 || bits > MAX_INTEGER_WIDTH) {
      throw new IllegalArgumentException(
          "integer width must be 1.." + MAX_INTEGER_WIDTH + ", got " + bits);
    }
  }

  /**
   * The numerical kind.
   *
   * @return what kind of number the type holds
   */
  public Kind kind() {
    return kind;
  }

  /**
   * The storage width in bits (0 for {@link #UNKNOWN}; 64 for {@link #INDEX}).
   *
   * @return the width in bits
   */
  public int bits() {
    return bits;
  }

  /**
   * The width of one element in bytes, rounded up; 0 for {@link #UNKNOWN}.
   *
   * @return the width in bytes
   */
  public int byteSize() {
    return (bits + 7) / 8;
  }

  /**
   * True for signless, signed and unsigned integers and {@code index}, not for {@code i1}.
   *
   * @return true for the integer kinds
   */
  public boolean isInteger() {
    return kind == Kind.SIGNLESS_INTEGER
        || kind == Kind.SIGNED_INTEGER
        || kind == Kind.UNSIGNED_INTEGER
        || kind == Kind.INDEX;
  }

  /**
   * True for every real float kind (IEEE, brain, the 8-bit and other floats), not complex.
   *
   * @return true for the real float kinds
   */
  public boolean isFloat() {
    return switch (kind) {
      case FLOAT,
          BFLOAT,
          FLOAT8_E5M2,
          FLOAT8_E4M3FN,
          FLOAT8_E5M2FNUZ,
          FLOAT8_E4M3FNUZ,
          FLOAT8_E8M0FNU,
          OTHER_FLOAT ->
          true;
      default -> false;
    };
  }

  /**
   * True when the type is known.
   *
   * @return false only for {@link #UNKNOWN}
   */
  public boolean isKnown() {
    return kind != Kind.UNKNOWN;
  }

  /**
   * True when an array (or buffer view) of element type {@code actual} may stand where this type is
   * declared, because both are stored alike and IREE's runtime accepts one for the other: the same
   * type; or integers of the same storage width where either side is signless ({@code i32} accepts
   * {@code si32} and {@code ui32}, since the {@code iree.abi} JSON drops signedness; {@code index}
   * counts as signless 64-bit); or {@code i1} and any 8-bit integer, since IREE stores {@code i1}
   * tensors in bytes and may hand back an {@code i1} result as an {@code i8}/{@code ui8} buffer
   * view; or anything where this type is unknown. Signed and unsigned integers never match each
   * other, and floats match only themselves.
   *
   * <p>This is the one rule for element types: marshalling in both directions, host modules' checks
   * and every array class's {@code fromBufferView} apply it.
   *
   * @param actual the element type of the array or buffer view given
   * @return true when an array of {@code actual} may be passed or returned where this type is
   *     declared
   */
  public boolean accepts(ElementType actual) {
    Objects.requireNonNull(actual, "actual");
    if (!isKnown() || equals(actual)) {
      return true;
    }
    if (integerLike(this) && integerLike(actual) && storedBits(this) == storedBits(actual)) {
      return signless(this) || signless(actual);
    }
    return false;
  }

  /** Integers, {@code index} and {@code i1}: the types whose storage is a plain integer. */
  private static boolean integerLike(ElementType t) {
    return t.isInteger() || t.kind == Kind.BOOLEAN;
  }

  /** The width an element occupies in a buffer: {@code i1} is stored in a byte. */
  private static int storedBits(ElementType t) {
    return t.kind == Kind.BOOLEAN ? 8 : t.bits;
  }

  /** Signless integers, {@code index} and {@code i1} (whose bytes IREE types as {@code i8}). */
  private static boolean signless(ElementType t) {
    return t.kind == Kind.SIGNLESS_INTEGER || t.kind == Kind.INDEX || t.kind == Kind.BOOLEAN;
  }

  /**
   * The MLIR spelling, as {@code iree.abi.declaration} prints it.
   *
   * @return the name MLIR gives the type, such as {@code si32} or {@code bf16}
   */
  public String mlirName() {
    return mlirName;
  }

  /**
   * The {@code iree.abi} JSON spelling, following the compiler's mapping: integers of every
   * signedness print as {@code i<width>} (as the compiler drops signedness), {@code i1} as {@code
   * i1}, {@code bf16} as {@code bf16}, other real floats as {@code f<width>}; complex, {@code
   * index} and unknown types as {@code unknown}.
   *
   * @return the name the {@code iree.abi} JSON gives the type
   */
  public String abiJsonName() {
    return switch (kind) {
      case BOOLEAN -> "i1";
      case SIGNLESS_INTEGER -> mlirName;
      case SIGNED_INTEGER, UNSIGNED_INTEGER -> "i" + bits;
      case BFLOAT -> "bf16";
      case FLOAT,
          FLOAT8_E5M2,
          FLOAT8_E4M3FN,
          FLOAT8_E5M2FNUZ,
          FLOAT8_E4M3FNUZ,
          FLOAT8_E8M0FNU,
          OTHER_FLOAT ->
          bits == 16 ? "f16" : bits == 32 ? "f32" : bits == 64 ? "f64" : "f" + bits;
      default -> "unknown";
    };
  }

  /**
   * The HAL element type, {@code (numerical_type << 24) | bit_count}, e.g. {@code 0x21000020} for
   * f32 and {@code 0x13000008} ({@code BOOL_8}) for i1; {@link Optional#empty()} for {@link
   * #UNKNOWN} and for widths a HAL element type cannot hold (over 255 bits).
   *
   * @return the HAL code, or empty when there is none
   */
  public Optional<Integer> halCode() {
    if (kind == Kind.UNKNOWN || bits > 0xFF) {
      return Optional.empty();
    }
    int storedBits = kind == Kind.BOOLEAN ? 8 : bits;
    return Optional.of((kind.halNumericalType() << 24) | storedBits);
  }

  /**
   * The element type a HAL element-type code names, e.g. {@code 0x11000020} is {@code si32}; empty
   * for opaque codes and codes of no known numerical type.
   *
   * @param code a HAL element type code
   * @return the element type, or empty when the code names none iree-stubs knows
   */
  public static Optional<ElementType> fromHalCode(int code) {
    // Buffer views ask this on every call: the common codes answer without allocating.
    for (int i = 0; i < COMMON_HAL_CODES.length; i++) {
      if (COMMON_HAL_CODES[i] == code) {
        return COMMON_BY_HAL_CODE[i];
      }
    }
    return decodeHalCode(code);
  }

  /** The element types of buffer views met on most calls, by HAL code. */
  private static final ElementType[] COMMON = {
    F32, I32, I64, I8, F64, F16, BF16, I16, I1, SI8, SI16, SI32, SI64, UI8, UI16, UI32, UI64
  };

  private static final int[] COMMON_HAL_CODES = new int[COMMON.length];

  @SuppressWarnings({"unchecked", "rawtypes"}) // no generic arrays: made raw, read typed
  private static final Optional<ElementType>[] COMMON_BY_HAL_CODE = new Optional[COMMON.length];

  static {
    for (int i = 0; i < COMMON.length; i++) {
      COMMON_HAL_CODES[i] = COMMON[i].halCode().orElseThrow();
      COMMON_BY_HAL_CODE[i] = Optional.of(COMMON[i]);
    }
  }

  private static Optional<ElementType> decodeHalCode(int code) {
    int numerical = code >>> 24;
    int bits = code & 0xFFFFFF;
    if (bits == 0 || bits > 0xFF) {
      return Optional.empty();
    }
    switch (numerical) {
      case 0x10 -> {
        return Optional.of(integer(bits));
      }
      case 0x11 -> {
        return Optional.of(signedInteger(bits));
      }
      case 0x12 -> {
        return Optional.of(unsignedInteger(bits));
      }
      case 0x13 -> {
        return bits == 8 ? Optional.of(I1) : Optional.empty();
      }
      case 0x21 -> {
        switch (bits) {
          case 16:
            return Optional.of(F16);
          case 32:
            return Optional.of(F32);
          case 64:
            return Optional.of(F64);
          default:
            return Optional.empty();
        }
      }
      case 0x22 -> {
        return bits == 16 ? Optional.of(BF16) : Optional.empty();
      }
      case 0x23 -> {
        switch (bits) {
          case 32:
            return Optional.of(complex(F16));
          case 64:
            return Optional.of(COMPLEX64);
          case 128:
            return Optional.of(COMPLEX128);
          default:
            return Optional.empty();
        }
      }
      case 0x24 -> {
        return bits == 8 ? Optional.of(F8E5M2) : Optional.empty();
      }
      case 0x25 -> {
        return bits == 8 ? Optional.of(F8E4M3FN) : Optional.empty();
      }
      case 0x26 -> {
        return bits == 8 ? Optional.of(F8E5M2FNUZ) : Optional.empty();
      }
      case 0x27 -> {
        return bits == 8 ? Optional.of(F8E4M3FNUZ) : Optional.empty();
      }
      case 0x28 -> {
        return bits == 8 ? Optional.of(F8E8M0FNU) : Optional.empty();
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ElementType that)) {
      return false;
    }

    return kind == that.kind && bits == that.bits && mlirName.equals(that.mlirName);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, bits, mlirName);
  }

  /** The MLIR spelling. */
  @Override
  public String toString() {
    return mlirName;
  }
}
