package dev.ireestubs.vmfb;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a call of an export may run {@code vm.yield}, as iree-stubs' reader finds it in the
 * module's bytecode: the export's function, or a function of the module it calls (through any call
 * op, to any depth), has a {@code vm.yield} op. A yield suspends the call until whoever runs it
 * resumes it; IREE's runtime resumes a call after a wait (a wait frame, as {@code hal.fence.await}
 * enters) but never after a plain yield, so such a call does not return there (see
 * docs/iree-runtime.md). Calls into imports are listed, for the runtime that resolves them to
 * judge.
 *
 * <p>Conservative: a yield anywhere in a body that is reached counts, taken or not.
 *
 * @param yieldAt where the calls of the export reach a {@code vm.yield} of this module, e.g. {@code
 *     function 1 runs vm.yield at offset 0x00000005, reached through calls 0 -> 1}; empty when none
 *     is
 * @param imports the full names of the imports the export's function and the functions it reaches
 *     call, sorted and distinct (such as {@code hal.fence.await}, or another module's export)
 * @param unread why some of the bytecode the export reaches could not be read (an unknown opcode,
 *     bytecode version or layout, or the reading budget spent): then {@code yieldAt} and {@code
 *     imports} say what the rest gave; empty when everything was read
 */
public record YieldReach(Optional<String> yieldAt, List<String> imports, Optional<String> unread) {

  /**
   * Refuses null components and copies the list.
   *
   * @param yieldAt where the calls of the export reach a {@code vm.yield} of this module; empty
   *     when none is
   * @param imports the full names of the imports the export's calls reach, sorted and distinct
   * @param unread why some of the bytecode the export reaches could not be read; empty when all was
   */
  public YieldReach {
    Objects.requireNonNull(yieldAt, "yieldAt");
    Objects.requireNonNull(unread, "unread");
    imports = List.copyOf(imports);
  }

  /**
   * Nothing known: the bytecode was not read for yields.
   *
   * @param why the reason, e.g. the module has no function bodies
   * @return a reach with no yield, no imports, and {@code why} as the reason it is unread
   */
  public static YieldReach unread(String why) {
    return new YieldReach(Optional.empty(), List.of(), Optional.of(why));
  }

  /**
   * Whether the export's calls reach a {@code vm.yield} of this module.
   *
   * @return true when {@link #yieldAt()} is present
   */
  public boolean yields() {
    return yieldAt.isPresent();
  }
}
