package dev.ireestubs.vmfb;

import java.util.Optional;

/**
 * What an imported function means to a reader of types, by its name: the buffer-view check and
 * constructor whose constant operands state tensor types, the ops that make fences, and the
 * operands that are fences.
 *
 * <p>Facts from IREE's {@code hal.imports.mlir} and {@code io_parameters.imports.mlir} (v3.11.0;
 * unchanged in these respects since 2022-09): {@code hal.buffer_view.assert(view, message,
 * element_type: i32, encoding_type: i32, shape: i64...)}, {@code hal.buffer_view.create(buffer,
 * source_offset: i64, source_length: i64, element_type: i32, encoding_type: i32, shape: i64...) ->
 * view}; {@code hal.fence.create} and {@code hal.fence.join} return a fence; every {@code
 * hal.device.queue.*} op and {@code io_parameters.load/gather/scatter} take {@code (device,
 * queue_affinity, wait_fence, signal_fence, ...)}; {@code hal.fence.query/signal/fail} take the
 * fence first, {@code hal.fence.join(flags, fences...)} and {@code hal.fence.await(timeout, flags,
 * fences...)} take any number of them (without the {@code flags} until 2024: every ref operand of
 * these two is a fence).
 *
 * @param kind what the import does with types
 * @param expectedConvention the calling convention the operand positions assume, when it is fixed
 *     (a module whose import has another one is not read for that import)
 * @param fenceOperands the operand positions that are fences
 * @param refsAreFences every ref operand is a fence
 */
@SuppressWarnings("ArrayRecordComponent") // never compared or hashed; built once per import
record ImportRole(
    Kind kind, Optional<String> expectedConvention, int[] fenceOperands, boolean refsAreFences) {

  /** What an import does with types. */
  enum Kind {
    /** {@code hal.buffer_view.assert}: states an argument's element type, encoding and dims. */
    ASSERT,
    /** {@code hal.buffer_view.create}: makes a view of an element type, encoding and dims. */
    CREATE,
    /** Returns a new fence ({@code hal.fence.create}, {@code hal.fence.join}). */
    MAKES_FENCE,
    /** Nothing about types, though some operands may be fences. */
    OTHER
  }

  /** The operand position of the element type in an assert (the encoding and dims follow). */
  static final int ASSERT_ELEMENT_TYPE = 2;

  /** The operand position of the element type in a create (the encoding and dims follow). */
  static final int CREATE_ELEMENT_TYPE = 3;

  private static final int[] NONE = {};
  private static final int[] QUEUE = {2, 3};
  private static final int[] FIRST = {0};

  /** The role of the import named {@code name}. */
  static ImportRole of(String name) {
    return switch (name) {
      case "hal.buffer_view.assert" ->
          new ImportRole(Kind.ASSERT, Optional.of("0rriiCID_v"), NONE, false);
      case "hal.buffer_view.create" ->
          new ImportRole(Kind.CREATE, Optional.of("0rIIiiCID_r"), NONE, false);
      case "hal.fence.create" -> new ImportRole(Kind.MAKES_FENCE, Optional.empty(), NONE, false);
      case "hal.fence.join" -> new ImportRole(Kind.MAKES_FENCE, Optional.empty(), NONE, true);
      case "hal.fence.await" -> new ImportRole(Kind.OTHER, Optional.empty(), NONE, true);
      case "hal.fence.query", "hal.fence.signal", "hal.fence.fail" ->
          new ImportRole(Kind.OTHER, Optional.empty(), FIRST, false);
      case "io_parameters.load", "io_parameters.gather", "io_parameters.scatter" ->
          new ImportRole(Kind.OTHER, Optional.empty(), QUEUE, false);
      default ->
          new ImportRole(
              Kind.OTHER,
              Optional.empty(),
              name.startsWith("hal.device.queue.") ? QUEUE : NONE,
              false);
    };
  }

  /** Whether operand {@code i} of a call, a ref when {@code ref}, is a fence. */
  boolean isFence(int i, boolean ref) {
    if (refsAreFences && ref) {
      return true;
    }
    for (int f : fenceOperands) {
      if (f == i) {
        return true;
      }
    }
    return false;
  }
}
