package dev.ireestubs.fuzz;

import dev.ireestubs.abi.AbiParseException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What every fuzz target checks besides "no crash": the cost of one input, and which exceptions may
 * leave a parser.
 *
 * <p><b>Cost.</b> {@link #bounded} runs a step and measures what the current thread allocated
 * ({@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}) and the CPU time it
 * used. A step may allocate at most {@value #BYTES_PER_INPUT_BYTE} bytes per input byte plus
 * {@value #FIXED_BYTES} bytes, and use at most {@value #CPU_NANOS_PER_INPUT_BYTE} ns of CPU per
 * input byte plus {@value #FIXED_CPU_MILLIS} ms. The bounds are generous for linear work and far
 * below what quadratic work costs on inputs of a few kilobytes (1,000 items under a 2,000-character
 * key cost megabytes when each builds its path). A step over a bound is run once more before it
 * fails, so that class loading and compilation on first use do not count. Allocation is the
 * deterministic measure; CPU time (not wall time, so other processes on the machine do not count)
 * catches loops that allocate nothing.
 *
 * <p>These bounds hold in regression runs ({@code mvn verify}, and any run without {@code
 * JAZZER_FUZZ}; with {@code JAZZER_COVERAGE=true} such a run also replays the corpus a fuzzing run
 * grew in {@code .cifuzz-corpus}). While fuzzing, Jazzer's coverage instrumentation allocates an
 * array at every {@code switch} it passes and slows everything down, so the allocation bound is
 * loosened to {@value #FUZZING_BYTES_PER_INPUT_BYTE} bytes per input byte plus {@value
 * #FUZZING_FIXED_BYTES}: it still catches allocation from a length read in the input, and the
 * regression run afterwards applies the tight bound to everything the fuzzer kept.
 *
 * <p><b>Exceptions.</b> {@link #refusedOr} lets only {@link AbiParseException} out as "refused";
 * anything else escapes the target and is a finding.
 */
final class FuzzContract {

  /** Allocation allowed per input byte. */
  static final long BYTES_PER_INPUT_BYTE = 100;

  /** Allocation allowed whatever the input's size (messages, stack traces, small tables). */
  static final long FIXED_BYTES = 256 * 1024;

  /** Allocation allowed per input byte while fuzzing (instrumented). */
  static final long FUZZING_BYTES_PER_INPUT_BYTE = 10_000;

  /** Allocation allowed whatever the input's size while fuzzing (instrumented). */
  static final long FUZZING_FIXED_BYTES = 4 * 1024 * 1024;

  /** CPU time allowed per input byte, in nanoseconds. */
  static final long CPU_NANOS_PER_INPUT_BYTE = 5_000;

  /** CPU time allowed whatever the input's size, in milliseconds. */
  static final long FIXED_CPU_MILLIS = 2_000;

  private static final boolean FUZZING = isFuzzing();

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private FuzzContract() {}

  private static boolean isFuzzing() {
    String v = System.getenv("JAZZER_FUZZ");
    if (v == null) {
      v = System.getProperty("jazzer.fuzz", "");
    }
    return v.equals("1") || v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes");
  }

  /** The allocation allowed for an input of {@code inputBytes} bytes. */
  static long byteLimit(long inputBytes) {
    return FUZZING
        ? FUZZING_FIXED_BYTES + FUZZING_BYTES_PER_INPUT_BYTE * inputBytes
        : FIXED_BYTES + BYTES_PER_INPUT_BYTE * inputBytes;
  }

  /** The input as text: UTF-8, malformed sequences replaced, as a file reader would see it. */
  static String text(byte[] data) {
    return new String(data, StandardCharsets.UTF_8);
  }

  /** The parse result, or empty when the parser refused the input with an AbiParseException. */
  static <T> Optional<T> refusedOr(Supplier<T> parse) {
    try {
      return Optional.of(parse.get());
    } catch (AbiParseException e) {
      requireMessage(e);
      return Optional.empty();
    }
  }

  /** A refusal must say something: the format's name, a position and a detail. */
  static void requireMessage(AbiParseException e) {
    Objects.requireNonNull(e.getMessage(), "message");
    if (e.position().isEmpty() || e.detail().isEmpty()) {
      throw new AssertionError("an AbiParseException without position or detail", e);
    }
    if (e.getMessage().length() > 64 * 1024) {
      throw new AssertionError(
          "an AbiParseException message of " + e.getMessage().length() + " characters", e);
    }
  }

  /**
   * Runs {@code step} on an input of {@code inputBytes} bytes and checks its cost (see the class
   * comment).
   *
   * @param what names the step in the failure message
   */
  static <T> T bounded(String what, long inputBytes, Supplier<T> step) {
    Measured<T> first = measure(step);
    if (first.within(inputBytes)) {
      return first.value;
    }
    Measured<T> again = measure(step);
    if (!again.within(inputBytes)) {
      throw new AssertionError(
          String.format(
              Locale.ROOT,
              "%s on %,d input bytes allocated %,d bytes (%.0f per input byte; allowed %,d)"
                  + " and used %,d ms of CPU (allowed %,d)",
              what,
              inputBytes,
              again.bytes,
              again.bytes / (double) Math.max(1, inputBytes),
              byteLimit(inputBytes),
              again.cpuNanos / 1_000_000,
              again.cpuLimitNanos(inputBytes) / 1_000_000));
    }
    return again.value;
  }

  /** {@link #bounded} for a step with no result. */
  static void bounded(String what, long inputBytes, Runnable step) {
    bounded(
        what,
        inputBytes,
        () -> {
          step.run();
          return null;
        });
  }

  private static <T> Measured<T> measure(Supplier<T> step) {
    long bytes = THREADS.getCurrentThreadAllocatedBytes();
    long cpu = THREADS.getCurrentThreadCpuTime();
    T value = step.get();
    long cpuUsed = THREADS.getCurrentThreadCpuTime() - cpu;
    long allocated = THREADS.getCurrentThreadAllocatedBytes() - bytes;
    return new Measured<>(value, allocated, cpuUsed);
  }

  private static final class Measured<T> {
    final T value;
    final long bytes;
    final long cpuNanos;

    Measured(T value, long bytes, long cpuNanos) {
      this.value = value;
      this.bytes = bytes;
      this.cpuNanos = cpuNanos;
    }

    long cpuLimitNanos(long inputBytes) {
      return FIXED_CPU_MILLIS * 1_000_000 + CPU_NANOS_PER_INPUT_BYTE * inputBytes;
    }

    boolean within(long inputBytes) {
      return bytes <= byteLimit(inputBytes) && cpuNanos <= cpuLimitNanos(inputBytes);
    }
  }
}
