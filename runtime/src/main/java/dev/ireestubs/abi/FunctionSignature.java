package dev.ireestubs.abi;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The typed signature of one IREE function, from whichever reflection format described it:
 * arguments and results as trees of {@link AbiType}.
 *
 * <p>The arguments are the function's root arguments in VM order ({@link AbiType.Named} only gives
 * a slot a keyword). The results are as the reflection states them; when they are one {@code
 * slist}, {@code stuple} or {@code sdict}, IREE returns that structure's children as the raw VM
 * results ({@link #hasInlinedResults()}).
 *
 * @param arguments the root arguments, in order
 * @param results the declared results
 * @param format the reflection format this was read from
 * @param model how the function is called: synchronously, or with wait/signal fences appended
 * @param abiVersion the {@code "v"} of {@code iree.abi} JSON when present; IREE never reads it
 */
public record FunctionSignature(
    List<AbiType> arguments,
    List<AbiType> results,
    ReflectionFormat format,
    CallingModel model,
    OptionalInt abiVersion) {

  /** How a function is invoked; set by {@code iree.abi.model} or an {@code async} declaration. */
  public enum CallingModel {
    /** Arguments and results as described. */
    SYNC,
    /**
     * {@code iree.abi.model = "coarse-fences"}: two {@code !hal.fence} arguments (wait, signal)
     * follow the described ones at the VM level.
     */
    COARSE_FENCES
  }

  /**
   * Copies the lists and refuses null format, model or version.
   *
   * @param arguments the root arguments, in order
   * @param results the declared results
   * @param format the reflection format this was read from
   * @param model how the function is called: synchronously, or with wait/signal fences appended
   * @param abiVersion the {@code "v"} of {@code iree.abi} JSON when present; IREE never reads it
   */
  public FunctionSignature {
    arguments = List.copyOf(arguments);
    results = List.copyOf(results);
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(abiVersion, "abiVersion");
  }

  /**
   * A synchronous signature with no version.
   *
   * @param arguments the argument types, in order
   * @param results the result types, in order
   * @param format the reflection format the signature was read from
   * @return the signature, under the synchronous model
   */
  public static FunctionSignature of(
      List<AbiType> arguments, List<AbiType> results, ReflectionFormat format) {
    return new FunctionSignature(
        arguments, results, format, CallingModel.SYNC, OptionalInt.empty());
  }

  /**
   * This signature under another calling model.
   *
   * @param newModel the calling model wanted
   * @return a copy with {@code newModel}, or this signature when the model is already that
   */
  public FunctionSignature withModel(CallingModel newModel) {
    return new FunctionSignature(arguments, results, format, newModel, abiVersion);
  }

  /**
   * True when the results are one {@code slist}, {@code stuple} or {@code sdict}: IREE then returns
   * that structure's children as the raw results (the "inlined results" rule).
   *
   * @return true when the single result is a structure IREE flattens
   */
  public boolean hasInlinedResults() {
    return results.size() == 1
        && (results.get(0) instanceof AbiType.Sequence || results.get(0) instanceof AbiType.Dict);
  }

  /**
   * The raw VM results: the inlined structure's children, or the results as declared.
   *
   * @return the types of the values the VM returns, in order
   */
  public List<AbiType> vmResults() {
    if (!hasInlinedResults()) {
      return results;
    }
    AbiType only = results.get(0);
    if (only instanceof AbiType.Sequence sequence) {
      return sequence.elements();
    }
    return ((AbiType.Dict) only)
        .entries().stream().map(AbiType.Entry::type).collect(Collectors.toUnmodifiableList());
  }

  /**
   * The number of VM arguments, counting the two fences of {@link CallingModel#COARSE_FENCES}.
   *
   * @return the argument count, plus 2 under the coarse-fences model
   */
  public int vmArgumentCount() {
    return arguments.size() + (model == CallingModel.COARSE_FENCES ? 2 : 0);
  }

  /** A readable one-line form, e.g. {@code (tensor<4xf32>, named a: i32) -> (i32)}. */
  @Override
  public String toString() {
    String args =
        arguments.stream().map(AbiType::toString).collect(Collectors.joining(", ", "(", ")"));
    String res =
        results.stream().map(AbiType::toString).collect(Collectors.joining(", ", "(", ")"));
    return (model == CallingModel.COARSE_FENCES ? "async " : "") + args + " -> " + res;
  }
}
