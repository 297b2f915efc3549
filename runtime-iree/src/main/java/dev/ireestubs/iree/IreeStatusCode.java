package dev.ireestubs.iree;

import java.util.Optional;

/**
 * IREE's status codes ({@code iree_status_code_t}): what {@link
 * dev.ireestubs.invoke.IreeInvocationException#statusCode()} carries when a call into IREE's
 * runtime fails. {@code IreeStatusCode.fromCode(e.statusCode())} names it.
 */
public enum IreeStatusCode {
  /** 0: not an error. */
  OK(0),
  /** 1. */
  CANCELLED(1),
  /** 2. */
  UNKNOWN(2),
  /** 3: e.g. a bytecode version mismatch, or a wrong argument. */
  INVALID_ARGUMENT(3),
  /** 4. */
  DEADLINE_EXCEEDED(4),
  /** 5: e.g. a function name that is not exported. */
  NOT_FOUND(5),
  /** 6. */
  ALREADY_EXISTS(6),
  /** 7. */
  PERMISSION_DENIED(7),
  /** 8. */
  RESOURCE_EXHAUSTED(8),
  /** 9: e.g. an argument of the wrong shape. */
  FAILED_PRECONDITION(9),
  /** 10. */
  ABORTED(10),
  /** 11: e.g. past the last attribute of a function. */
  OUT_OF_RANGE(11),
  /** 12. */
  UNIMPLEMENTED(12),
  /** 13: e.g. an import signature mismatch between a module and the runtime. */
  INTERNAL(13),
  /** 14. */
  UNAVAILABLE(14),
  /** 15. */
  DATA_LOSS(15),
  /** 16. */
  UNAUTHENTICATED(16),
  /** 17. */
  DEFERRED(17),
  /** 18: e.g. a module compiled for a device or CPU this runtime does not have. */
  INCOMPATIBLE(18);

  private final int code;

  IreeStatusCode(int code) {
    this.code = code;
  }

  /**
   * The numeric code.
   *
   * @return the code's number, as IREE's C API defines it
   */
  public int code() {
    return code;
  }

  /**
   * The code's constant, if IREE defines one with that number.
   *
   * @param code a status code number, 0 to 31
   * @return the constant, or empty for a number IREE does not define
   */
  public static Optional<IreeStatusCode> fromCode(int code) {
    for (IreeStatusCode c : values()) {
      if (c.code == code) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /**
   * The code of an {@code iree_status_t} value: its low 5 bits (IREE's {@code iree_status_code}
   * macro). 0 is OK; any other value points to heap memory the status owns.
   *
   * @param status an {@code iree_status_t} value as a Java {@code long}
   * @return the status code number, 0 for OK
   */
  public static int codeOf(long status) {
    return (int) (status & 0x1F);
  }

  /** The name for messages: {@code INVALID_ARGUMENT}, or {@code status 25} for unknown codes. */
  static String describe(int code) {
    return fromCode(code).map(Enum::name).orElse("status " + code);
  }
}
