package dev.ireestubs.iree;

import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * What differs between the generations of IREE's runtime C API that iree-stubs binds to: one
 * implementation per generation ({@link CApi311}: IREE 3.11 and earlier, HAL module 0.6; {@link
 * CApi312}: the 3.12 line and later, HAL module 0.7), picked once per library by {@link
 * CApiGenerations#of} from the release its {@code BUILD-INFO} names, checked against the symbols it
 * exports.
 *
 * <p>The downcall classes ({@link SessionCalls}, {@link FenceCalls}, {@link BufferCalls}, {@link
 * ListCalls}, {@link BufferViewCalls}, {@link ParameterCalls}, {@link StatusCalls}) bind every
 * function whose signature both generations share (checked against both releases' headers), and ask
 * this interface for the rest, each handle adapted to the one Java type their methods invoke:
 * nothing above {@link Native} knows which generation it talks to. Constants whose values differ
 * (the semaphore flag bits) come from here too.
 *
 * <p>Adding a generation: an implementation of this interface (the handles of the functions whose C
 * signature changed, adapted to the types documented on each method; its constants; the symbols
 * only it exports), listed in {@link CApiGenerations#ALL} and in the {@code permits} clause; see
 * docs/architecture.md.
 */
sealed interface CApi permits CApi311, CApi312 {

  /** E.g. {@code IREE 3.12 and later (hal 0.7)}, for messages. */
  String describe();

  /** The version of the HAL module its runtimes register, as {@code (major << 16) | minor}. */
  long halVersion();

  /**
   * Symbols the libraries of this generation export and those of every other generation lack: a
   * library exporting all of them speaks this generation's C API.
   */
  List<String> markers();

  /** {@code IREE_HAL_SEMAPHORE_FLAG_DEFAULT}: host interrupts and exportable timepoints. */
  long semaphoreFlagsDefault();

  /**
   * {@code iree_hal_semaphore_signal}, as {@code (long semaphore, long value) -> long status}: the
   * 3.12 line's frontier argument is NULL.
   */
  MethodHandle semaphoreSignal(NativeSymbols symbols);

  /**
   * {@code iree_hal_fence_wait}, as {@code (long fence, MemorySegment timeout, long flags) -> long
   * status}; flags 0 (no flag) means the same in every generation, the others do not.
   */
  MethodHandle fenceWait(NativeSymbols symbols);

  /**
   * {@code iree_hal_device_wait_semaphores}, as {@code (long device, int mode, MemorySegment
   * semaphoreList, MemorySegment timeout, long flags) -> long status}; mode ALL 0 and ANY 1, and
   * flags 0, mean the same in every generation.
   */
  MethodHandle deviceWaitSemaphores(NativeSymbols symbols);
}
