package dev.ireestubs.invoke;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;

/**
 * The paths that name a value in a message, as {@link ValueChecks} words them: {@code predict:
 * features.image}, {@code predict: result[1]}, {@code predict: images[*]} for every element of a
 * list until a failure names the index ({@link ValueChecks#atIndex}). While marshalling without
 * paths (the first pass of {@link AbiValues}, which builds no text) a path is null, and so is every
 * path made from it.
 */
final class ValuePaths {

  private ValuePaths() {}

  /** {@code path.key}, or null while marshalling without paths. */
  static String member(String path, String key) {
    return path == null ? null : path + "." + key;
  }

  /** {@code path[*]}, the path of every element of a list, or null without paths. */
  static String each(String path) {
    return path == null ? null : path + "[*]";
  }

  /** The name of argument {@code index} in a path: its declared name, or {@code arg0}... */
  static String argumentName(AbiType type, int index) {
    return type instanceof AbiType.Named named ? named.name() : "arg" + index;
  }

  /** The path of raw result {@code index}: {@code f: result}, {@code f: result.key}, ... */
  static String resultPath(FunctionSignature signature, int index, String function) {
    if (signature.hasInlinedResults()) {
      return childPath(signature.results().get(0), function + ": result", index);
    }
    return function + ": result" + (signature.results().size() == 1 ? "" : "[" + index + "]");
  }

  private static String childPath(AbiType structure, String path, int index) {
    if (structure instanceof AbiType.Dict dict) {
      return path + "." + dict.entries().get(index).key();
    }
    return path + "[" + index + "]";
  }
}
