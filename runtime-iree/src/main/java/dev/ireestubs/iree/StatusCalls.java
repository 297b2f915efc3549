package dev.ireestubs.iree;

import static dev.ireestubs.iree.NativeSymbols.rethrow;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.ireestubs.invoke.IreeInvocationException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * IREE's statuses ({@code iree/base/status.h}): their text, freeing them, and the exceptions that
 * carry them. An {@code iree_status_t} travels as a {@code long}; 0 is OK.
 */
final class StatusCalls {

  // iree/base/status.h
  private final MethodHandle statusFormat;
  private final MethodHandle statusFree;

  StatusCalls(NativeSymbols symbols) {
    // iree/base/status.h
    statusFormat =
        symbols.bind(
            "iree_status_format",
            FunctionDescriptor.of(JAVA_BOOLEAN, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
    statusFree = symbols.bind("iree_status_free", FunctionDescriptor.ofVoid(JAVA_LONG));
  }

  // ----------------------------------------------------------------------------------------------
  // Status

  /**
   * IREE's text for a non-OK status, e.g. {@code "<vm>:0: FAILED_PRECONDITION; smoke failure"},
   * formatted with {@code iree_status_format}; then frees the status. Never throws: a status that
   * does not format is described by its code.
   */
  String consumeStatus(long status) {
    int code = IreeStatusCode.codeOf(status);
    String text = null;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment length = arena.allocate(JAVA_LONG);
      boolean ignored = (boolean) statusFormat.invokeExact(status, 0L, MemorySegment.NULL, length);
      long needed = length.get(JAVA_LONG, 0);
      if (needed > 0 && needed < (1 << 24)) {
        MemorySegment buffer = arena.allocate(needed + 1);
        boolean ok = (boolean) statusFormat.invokeExact(status, needed + 1, buffer, length);
        long written = Math.min(length.get(JAVA_LONG, 0), needed);
        if (ok || written > 0) {
          text = new String(buffer.asSlice(0, written).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
        }
      }
    } catch (Throwable t) {
      text = null;
    } finally {
      try {
        statusFree.invokeExact(status);
      } catch (Throwable t) {
        // Nothing more can be done about a status that cannot be freed.
      }
    }
    return text == null || text.isBlank() ? IreeStatusCode.describe(code) : text;
  }

  /** Frees a status without formatting it. */
  void freeStatus(long status) {
    try {
      statusFree.invokeExact(status);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * Throws an {@link IreeInvocationException} carrying the status's code and IREE's text when
   * {@code status} is not OK, freeing it.
   *
   * @param what what failed, e.g. {@code "iree_vm_list_create"}; the message starts with it
   */
  void check(long status, String what) {
    if (status != 0) {
      throw failure(status, what);
    }
  }

  /**
   * {@link #check(long, String)} with the description {@code function: path: operation}, built only
   * when the status is not OK (the success path allocates nothing).
   */
  void check(long status, String function, String path, String operation) {
    if (status != 0) {
      throw failure(status, function + ": " + path + ": " + operation);
    }
  }

  /** The exception for a non-OK status (freed here). */
  IreeInvocationException failure(long status, String what) {
    int code = IreeStatusCode.codeOf(status);
    String text = consumeStatus(status);
    return new IreeInvocationException(
        what + " failed (" + IreeStatusCode.describe(code) + "): " + text, code);
  }
}
