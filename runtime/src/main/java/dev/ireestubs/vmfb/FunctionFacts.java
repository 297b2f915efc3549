package dev.ireestubs.vmfb;

import dev.ireestubs.abi.AbiType;
import java.util.Objects;

/**
 * What one internal function's body says of its ref arguments and results: the type each argument
 * is asserted to have, which arguments are used as fences, and what each result is when the
 * function returns. Or why the body could not be read. Mutable while {@link BodyAnalysis} fills it,
 * then kept unchanged in the reader's memo.
 */
final class FunctionFacts {

  /** Why the body could not be read; null when it was. */
  final String problem;

  /** The type asserted of each argument, null when none (or when they disagree). */
  final AbiType.NdArray[] argumentTypes;

  /** Arguments asserted with two different types: left untyped. */
  final boolean[] conflicting;

  /** Arguments used as fences (or passed where a callee uses one). */
  final boolean[] fences;

  /** Each result as returned (the agreement of every return), null when unknown. */
  final Registers.Value[] results;

  private final boolean[] returned;

  FunctionFacts(int arguments, int results) {
    this.problem = null;
    this.argumentTypes = new AbiType.NdArray[arguments];
    this.conflicting = new boolean[arguments];
    this.fences = new boolean[arguments];
    this.results = new Registers.Value[results];
    this.returned = new boolean[results];
  }

  private FunctionFacts(String problem) {
    this.problem = Objects.requireNonNull(problem);
    this.argumentTypes = new AbiType.NdArray[0];
    this.conflicting = new boolean[0];
    this.fences = new boolean[0];
    this.results = new Registers.Value[0];
    this.returned = new boolean[0];
  }

  /** The facts of a body that could not be read. */
  static FunctionFacts unreadable(String problem) {
    return new FunctionFacts(problem);
  }

  /** Records that argument {@code index} is asserted to be {@code type}. */
  void asserted(int index, AbiType.NdArray type) {
    if (conflicting[index]) {
      return;
    }
    if (argumentTypes[index] == null) {
      argumentTypes[index] = type;
    } else if (!argumentTypes[index].equals(type)) {
      argumentTypes[index] = null;
      conflicting[index] = true;
    }
  }

  /** Takes a callee's facts about the argument it got as its {@code calleeIndex}. */
  void passed(int index, FunctionFacts callee, int calleeIndex) {
    if (callee.conflicting[calleeIndex]) {
      argumentTypes[index] = null;
      conflicting[index] = true;
    } else if (callee.argumentTypes[calleeIndex] != null) {
      asserted(index, callee.argumentTypes[calleeIndex]);
    }
    fences[index] |= callee.fences[calleeIndex];
  }

  /** Records that a return gives {@code value} (null: unknown) as result {@code index}. */
  void returns(int index, Registers.Value value) {
    if (!returned[index]) {
      returned[index] = true;
      results[index] = value;
    } else if (results[index] != null && !results[index].equals(value)) {
      results[index] = null;
    }
  }
}
