package dev.ireestubs.abi;

import java.util.Objects;
import java.util.Optional;

/**
 * What a function's bytecode says of its types, the reflection source {@link
 * ReflectionFormat#BYTECODE}: the signature its body implies (the element type and dims it asserts
 * of each argument, those of the buffer view it creates for each result, and which refs are
 * fences), or why the body could not be read, or nothing beyond the calling convention.
 *
 * <p>{@link dev.ireestubs.vmfb.VmfbReader} finds these in every module it reads ({@link
 * dev.ireestubs.vmfb.VmfbExport#bytecodeTypes()}); {@link Reflection#resolve(java.util.Map, String,
 * BytecodeTypes)} ranks them after {@code iree.abi.declaration} (and V0 {@code f}) and before the
 * calling convention.
 *
 * @param signature the typed signature, in format {@link ReflectionFormat#BYTECODE}; empty when the
 *     bytecode was not read or types nothing
 * @param problem why the bytecode could not be read, one sentence; empty when it was read or not
 *     tried
 */
public record BytecodeTypes(Optional<FunctionSignature> signature, Optional<String> problem) {

  private static final BytecodeTypes NONE = new BytecodeTypes(Optional.empty(), Optional.empty());

  /**
   * Refuses nulls, a signature of another format, and a signature together with a problem.
   *
   * @param signature the typed signature, in format {@link ReflectionFormat#BYTECODE}; empty when
   *     the bytecode was not read or types nothing
   * @param problem why the bytecode could not be read, one sentence; empty when it was read or not
   *     tried
   */
  public BytecodeTypes {
    Objects.requireNonNull(signature, "signature");
    Objects.requireNonNull(problem, "problem");
    if (signature.isPresent() && signature.get().format() != ReflectionFormat.BYTECODE) {
      throw new IllegalArgumentException(
          "a bytecode signature has format "
              + ReflectionFormat.BYTECODE
              + ", not "
              + signature.get().format());
    }
    if (signature.isPresent() && problem.isPresent()) {
      throw new IllegalArgumentException(
          "a bytecode signature is typed or has a problem, not both");
    }
  }

  /**
   * Nothing beyond the calling convention: the bytecode was not read (no refs to type, or no
   * bytecode at all) or types no argument or result.
   *
   * @return the empty instance
   */
  public static BytecodeTypes none() {
    return NONE;
  }

  /**
   * The types the bytecode gives.
   *
   * @param signature a signature of format {@link ReflectionFormat#BYTECODE}
   * @return the bytecode types holding it
   */
  public static BytecodeTypes typed(FunctionSignature signature) {
    return new BytecodeTypes(Optional.of(signature), Optional.empty());
  }

  /**
   * A body that could not be read for types (an unknown opcode, a bytecode version whose encoding
   * is not known, a malformed body, too much work).
   *
   * @param problem what went wrong, one sentence without a final period
   * @return the bytecode types holding the reason
   */
  public static BytecodeTypes unreadable(String problem) {
    return new BytecodeTypes(Optional.empty(), Optional.of(problem));
  }
}
