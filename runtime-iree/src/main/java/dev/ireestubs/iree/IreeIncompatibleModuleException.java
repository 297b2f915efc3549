package dev.ireestubs.iree;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vmfb.BytecodeVersion;
import dev.ireestubs.vmfb.RuntimeGeneration;
import java.util.Optional;

/**
 * IREE's runtime refused to load a module that was compiled for another IREE release or another
 * target: a bytecode version mismatch, a HAL module version or import signature mismatch, or
 * executables for a device or CPU this runtime does not have. A {@code .vmfb} runs only on a
 * runtime of the IREE release that compiled it, built for the target it was compiled for; the
 * message says so, quotes IREE's own text and gives the module's bytecode version.
 *
 * <p>A module and a runtime of different generations (IREE 3.11 and earlier against 3.12 and later,
 * whose HAL modules differ) are refused by iree-stubs itself before IREE sees the module ({@link
 * Reason#RUNTIME_GENERATION}), when the runtime's release is known: the message names both sides
 * and both fixes.
 */
public final class IreeIncompatibleModuleException extends IreeInvocationException {
  private static final long serialVersionUID = 1L;

  /** What kind of incompatibility IREE reported. */
  public enum Reason {
    /** {@code bytecode version mismatch}: the module's bytecode format is another release's. */
    BYTECODE_VERSION,
    /** {@code required module 'hal' version mismatch}: the module needs another HAL version. */
    DEPENDENCY_VERSION,
    /** {@code import function ... signature mismatch}: the runtime's HAL is another release's. */
    IMPORT_SIGNATURE,
    /** {@code HAL device ... not found or unavailable}: compiled for another device or CPU. */
    TARGET,
    /**
     * Refused by iree-stubs before IREE saw the module: it was compiled for the other runtime
     * generation (HAL 0.6, IREE 3.11 and earlier, against HAL 0.7, IREE 3.12 and later).
     */
    RUNTIME_GENERATION
  }

  /** What IREE reported. */
  private final Reason reason;

  /** The module's bytecode version, when it could be read; not serialized. */
  private final transient Optional<BytecodeVersion> bytecodeVersion;

  /** The generation the module was compiled for ({@code UNKNOWN} when not told). */
  private final RuntimeGeneration moduleGeneration;

  /** The generation of the runtime that refused it ({@code UNKNOWN} when not known). */
  private final RuntimeGeneration runtimeGeneration;

  IreeIncompatibleModuleException(
      String message, int statusCode, Reason reason, Optional<BytecodeVersion> bytecodeVersion) {
    this(
        message,
        statusCode,
        reason,
        bytecodeVersion,
        RuntimeGeneration.UNKNOWN,
        RuntimeGeneration.UNKNOWN);
  }

  IreeIncompatibleModuleException(
      String message,
      int statusCode,
      Reason reason,
      Optional<BytecodeVersion> bytecodeVersion,
      RuntimeGeneration moduleGeneration,
      RuntimeGeneration runtimeGeneration) {
    super(message, statusCode);
    this.reason = reason;
    this.bytecodeVersion = bytecodeVersion;
    this.moduleGeneration = moduleGeneration;
    this.runtimeGeneration = runtimeGeneration;
  }

  /**
   * The runtime generation the module was compiled for, as iree-stubs read it from the module.
   *
   * @return the module's generation; {@link RuntimeGeneration#UNKNOWN} unless the refusal is {@link
   *     Reason#RUNTIME_GENERATION}
   */
  public RuntimeGeneration moduleGeneration() {
    return moduleGeneration;
  }

  /**
   * The generation of the runtime library that refused the module.
   *
   * @return the runtime's generation; {@link RuntimeGeneration#UNKNOWN} unless the refusal is
   *     {@link Reason#RUNTIME_GENERATION}
   */
  public RuntimeGeneration runtimeGeneration() {
    return runtimeGeneration;
  }

  /**
   * What IREE reported.
   *
   * @return why IREE refused the module
   */
  public Reason reason() {
    return reason;
  }

  /**
   * The module's bytecode version, when it could be read from the module.
   *
   * @return the module's bytecode version, or empty when the module could not be read
   */
  public Optional<BytecodeVersion> bytecodeVersion() {
    return bytecodeVersion == null ? Optional.empty() : bytecodeVersion;
  }
}
