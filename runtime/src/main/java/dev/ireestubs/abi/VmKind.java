package dev.ireestubs.abi;

import java.util.Optional;

/**
 * How one argument or result travels in the IREE VM's calling convention: a character of the cconv
 * string such as {@code 0rr_r}.
 */
@SuppressWarnings("EnumOrdinal") // tables indexed by the ordinal, filled from values() here
public enum VmKind {
  /** {@code i}: a 32-bit integer (also every integer width below 64). */
  I32('i'),
  /** {@code I}: a 64-bit integer. */
  I64('I'),
  /** {@code f}: a 32-bit float. */
  F32('f'),
  /** {@code F}: a 64-bit float. */
  F64('F'),
  /** {@code r}: a ref (buffer view, list, fence, any other VM object). */
  REF('r');

  private final char code;

  VmKind(char code) {
    this.code = code;
  }

  /**
   * The cconv character.
   *
   * @return the character the calling convention writes for this kind
   */
  public char code() {
    return code;
  }

  /**
   * The kind a cconv character names; empty for any other character.
   *
   * @param c a calling-convention character
   * @return the kind, or empty when {@code c} names none
   */
  public static Optional<VmKind> fromCode(char c) {
    // Parsers ask this once per character: answer without allocating.
    for (int i = 0; i < BY_CODE.length; i++) {
      if (BY_CODE[i].get().code == c) {
        return BY_CODE[i];
      }
    }
    return Optional.empty();
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // no generic arrays: made raw, read typed
  private static final Optional<VmKind>[] BY_CODE = new Optional[values().length];

  static {
    for (VmKind k : values()) {
      BY_CODE[k.ordinal()] = Optional.of(k);
    }
  }

  /**
   * True for the value kinds ({@code i I f F}), false for refs.
   *
   * @return true for {@code i}, {@code I}, {@code f} and {@code F}
   */
  public boolean isValue() {
    return this != REF;
  }
}
