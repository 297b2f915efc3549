package dev.ireestubs.invoke;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.vm.VmList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A function called with Java values, marshalled by its signature at run time: the dynamic
 * counterpart of a generated stub, for tools, tests and modules known only at run time. Arguments
 * and results take the Java forms listed in {@link AbiValues}, with the same checks and messages
 * as generated stubs.
 *
 * <pre>{@code
 * DynamicFunction predict = DynamicFunction.of(backend.function("module.predict"), signature);
 * Map<?, ?> scores = (Map<?, ?>) predict.call(Map.of("image", image, "label", 3));
 * }</pre>
 *
 * <p>Thread-safe when its backend is: it holds no mutable state.
 */
public final class DynamicFunction {

  private final BackendFunction function;
  private final FunctionSignature signature;
  private final String name;

  private DynamicFunction(BackendFunction function, FunctionSignature signature) {
    this.function = Objects.requireNonNull(function, "function");
    this.signature = Objects.requireNonNull(signature, "signature");
    String qualified = function.qualifiedName();
    this.name = qualified.substring(qualified.indexOf('.') + 1);
  }

  /** {@code function}, called as {@code signature} describes. */
  public static DynamicFunction of(BackendFunction function, FunctionSignature signature) {
    return new DynamicFunction(function, signature);
  }

  /** The backend function this calls. */
  public BackendFunction function() {
    return function;
  }

  /** The signature that drives marshalling. */
  public FunctionSignature signature() {
    return signature;
  }

  /**
   * Calls the function with positional arguments.
   *
   * @return null for no results, the value of a single result, the {@code Map} or {@code List} of
   *     an inlined structure, or a {@code List} of several results
   * @throws IreeValueException (an argument) when an argument does not fit the signature
   * @throws IreeValueException (a result) when a result does not
   * @throws IreeInvocationException when the backend fails
   */
  public Object call(Object... positional) {
    return call(Arrays.asList(positional), Map.of());
  }

  /** Calls the function with positional arguments and {@code named} ones by name. */
  public Object call(List<?> positional, Map<String, ?> named) {
    VmList arguments = AbiValues.packArguments(signature, positional, named, name);
    VmList results = function.invoke(arguments);
    return AbiValues.unpackResults(signature, results, name);
  }

  @Override
  public String toString() {
    return function.qualifiedName() + signature;
  }
}
