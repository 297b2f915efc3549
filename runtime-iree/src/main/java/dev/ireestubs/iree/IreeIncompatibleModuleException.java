package dev.ireestubs.iree;

import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vmfb.BytecodeVersion;
import java.util.Optional;

/**
 * IREE's runtime refused to load a module that was compiled for another IREE release or another
 * target: a bytecode version mismatch, a HAL module version or import signature mismatch, or
 * executables for a device or CPU this runtime does not have. A {@code .vmfb} runs only on a
 * runtime of the IREE release that compiled it, built for the target it was compiled for; the
 * message says so, quotes IREE's own text and gives the module's bytecode version.
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
    TARGET
  }

  /** What IREE reported. */
  private final Reason reason;

  /** The module's bytecode version, when it could be read; not serialized. */
  private final transient Optional<BytecodeVersion> bytecodeVersion;

  IreeIncompatibleModuleException(
      String message, int statusCode, Reason reason, Optional<BytecodeVersion> bytecodeVersion) {
    super(message, statusCode);
    this.reason = reason;
    this.bytecodeVersion = bytecodeVersion;
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
