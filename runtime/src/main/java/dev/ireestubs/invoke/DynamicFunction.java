package dev.ireestubs.invoke;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.abi.V0Reflection;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A function called with Java values, marshalled at run time: the dynamic counterpart of a
 * generated stub, for tools, tests and modules known only at run time. Every calling format has
 * this one shape (arguments by position and by name in, one Java value out); what differs is the
 * {@link CallCodec} behind it:
 *
 * <table>
 *   <caption>Dynamic functions by calling format</caption>
 *   <tr><th>format</th><th>made by</th><th>result</th></tr>
 *   <tr><td>native ABI ({@code iree.abi}, a declaration, V0's {@code f}, or the calling
 *       convention alone)</td><td>{@link #of(BackendFunction, FunctionSignature)}</td>
 *       <td>the forms listed in {@link AbiValues}</td></tr>
 *   <tr><td>V0 structured ABI ({@code sip})</td><td>{@link #sip(BackendFunction, SipStructure)}
 *       </td><td>the rebuilt structure of {@code Map}s and {@code List}s</td></tr>
 *   <tr><td>IREEPyDM</td><td>{@code PyDmFunction.of(function)}</td><td>the decoded Python value,
 *       or a {@code PyException}</td></tr>
 *   <tr><td>any of the first two, read from the function's reflection</td>
 *       <td>{@link #of(BackendFunction)}</td><td>as above</td></tr>
 * </table>
 *
 * <pre>{@code
 * DynamicFunction predict = DynamicFunction.of(backend.function("module.predict"));
 * Map<?, ?> scores = (Map<?, ?>) predict.call(List.of(), Map.of("image", image, "label", 3));
 * Object sum = DynamicFunction.of(backend.function("module.add"), signature).call(a, b);
 * }</pre>
 *
 * <p>Whatever the format, a result list that fails to decode is closed before the exception leaves,
 * so refs a native backend handed back are released. Implementations are thread-safe when their
 * backend is: they hold no mutable state.
 */
public interface DynamicFunction {

  /**
   * The backend function this calls.
   *
   * @return the function whose native-ABI lists the codec builds and reads
   */
  BackendFunction function();

  /**
   * The calling format behind this function.
   *
   * @return the codec that turns Java values into VM lists and back
   */
  CallCodec codec();

  /**
   * Calls the function.
   *
   * <p>Java arrays passed (a {@code float[][]}) are copied into memory the call owns, as a stub's
   * are: freed when the call returns or throws, unless the backend pins the copy or a result holds
   * it (an array result over an argument keeps its memory until the array is closed). Arrays and
   * buffer views the caller passes are lent for the call only and stay the caller's.
   *
   * @param positional the arguments given by position, in order (empty for none)
   * @param named the arguments given by name (empty for none); a format without names refuses them
   * @return the decoded result: null for no results, the value of a single result, the {@code Map}
   *     or {@code List} of a structure, or a {@code List} of several results, as the codec says
   * @throws IreeValueException (an argument) when an argument does not fit, before the backend runs
   * @throws IreeValueException (a result) when a result does not; the result list is then closed
   * @throws IreeInvocationException when the backend fails
   */
  Object call(List<?> positional, Map<String, ?> named);

  /**
   * Calls the function with positional arguments only: {@code call(List.of(positional), Map.of())}
   * (nulls allowed, so that a missing value is reported by its path).
   *
   * @param positional the arguments in order; a null array stands for one null argument
   * @return the decoded result, as {@link #call(List, Map)} returns it
   */
  default Object call(Object... positional) {
    return call(
        positional == null ? Collections.singletonList(null) : Arrays.asList(positional), Map.of());
  }

  /**
   * Calls the function asynchronously: submits the call and returns at once. For functions of the
   * coarse-fences model ({@code f$async}); the call runs once {@code wait} is reached, and the
   * future completes with the decoded result (as {@link #call(List, Map)} returns it) when the
   * call's signal fence is reached, on a thread of the backend's.
   *
   * <p>Arguments are encoded now, with the same checks as {@link #call(List, Map)}. Java arrays
   * passed are copied into memory the call owns, freed when the call is over (its signal fence
   * reached or failed, whatever became of the future); arrays the caller passes are lent until
   * then: do not write them before the future completes.
   *
   * @param positional the arguments given by position, in order (empty for none)
   * @param named the arguments given by name (empty for none)
   * @param wait the fence the call waits for, such as an earlier call's {@link
   *     FencedFuture#signal()}; null for none
   * @return the call's future, with its signal fence; it fails with an {@link
   *     IreeInvocationException} when the backend or the device fails, or an {@link
   *     IreeValueException} (a result) when a result does not decode
   * @throws IreeValueException (an argument) when an argument does not fit, before the backend runs
   * @throws IllegalStateException when the backend is closed
   * @throws UnsupportedOperationException when the backend cannot call the function asynchronously
   *     (IREE's runtime, for a function without fences: call its {@code f$async} twin)
   */
  default FencedFuture<Object> callAsync(List<?> positional, Map<String, ?> named, Fence wait) {
    Objects.requireNonNull(positional, "positional");
    Objects.requireNonNull(named, "named");
    BackendFunction function = function();
    CallCodec codec = codec();
    String qualified = function.qualifiedName();
    String name = qualified.substring(qualified.indexOf('.') + 1);
    VmList arguments = codec.encodeArguments(name, positional, named);
    return FencedFuture.submit(
        function, arguments, wait, results -> codec.decodeResults(name, results));
  }

  /**
   * {@link #callAsync(List, Map, Fence)} with no wait fence.
   *
   * @param positional the arguments given by position, in order (empty for none)
   * @param named the arguments given by name (empty for none)
   * @return the call's future, with its signal fence
   */
  default FencedFuture<Object> callAsync(List<?> positional, Map<String, ?> named) {
    return callAsync(positional, named, null);
  }

  /**
   * {@link #callAsync(List, Map, Fence)} with positional arguments only and no wait fence.
   *
   * @param positional the arguments in order; a null array stands for one null argument
   * @return the call's future, with its signal fence
   */
  default FencedFuture<Object> callAsync(Object... positional) {
    return callAsync(
        positional == null ? Collections.singletonList(null) : Arrays.asList(positional),
        Map.of(),
        null);
  }

  /**
   * {@code function}, called with the native ABI as {@code signature} describes.
   *
   * @param function the backend function to call
   * @param signature its signature, which drives marshalling
   * @return a dynamic function over the native-ABI codec
   */
  static DynamicFunction of(BackendFunction function, FunctionSignature signature) {
    return new CodecFunction(function, CallCodec.of(signature));
  }

  /**
   * {@code function}, called through the V0 structured ABI {@code structure}.
   *
   * @param function the backend function to call (its raw arguments are the structure's leaves)
   * @param structure the SIP structure combined with the raw signature
   * @return a dynamic function over the SIP codec
   */
  static DynamicFunction sip(BackendFunction function, SipStructure structure) {
    return new CodecFunction(function, CallCodec.sip(structure));
  }

  /**
   * {@code function}, called through {@code codec}: for a calling format of one's own.
   *
   * @param function the backend function to call
   * @param codec the calling format
   * @return a dynamic function that encodes with {@code codec}, invokes, and decodes with it
   */
  static DynamicFunction of(BackendFunction function, CallCodec codec) {
    return new CodecFunction(function, codec);
  }

  /**
   * {@code function}, called in the format its own reflection describes: the V0 structured ABI when
   * it has both {@code f} and {@code sip}, else the native ABI of the best signature {@link
   * BackendFunction#signature()} finds ({@code iree.abi}, the declaration, V0's {@code f}, the
   * types its bytecode states, or the calling convention alone, whose {@code r} slots take lists,
   * maps and arrays as a variant list holds them).
   *
   * @param function the backend function to call
   * @return a dynamic function over the codec of its reflection
   * @throws IreeSignatureMismatchException naming the function when its reflection is malformed or
   *     absent and it has no calling convention either
   */
  static DynamicFunction of(BackendFunction function) {
    Map<String, String> reflection = function.reflection();
    try {
      Optional<SipStructure> sip = V0Reflection.from(reflection).flatMap(V0Reflection::structure);
      if (sip.isPresent()) {
        return sip(function, sip.get());
      }
      return of(function, function.signature().signature());
    } catch (IllegalArgumentException e) { // AbiParseException included
      IreeSignatureMismatchException failure =
          new IreeSignatureMismatchException(
              function.qualifiedName()
                  + " cannot be called dynamically: "
                  + e.getMessage()
                  + "; pass its signature to DynamicFunction.of(function, signature)");
      failure.initCause(e);
      throw failure;
    }
  }
}
