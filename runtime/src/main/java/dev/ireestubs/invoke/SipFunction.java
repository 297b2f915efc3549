package dev.ireestubs.invoke;

import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.vm.VmList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A function of the deprecated V0 structured (SIP) ABI called with Java values.
 *
 * @deprecated every calling format now has the one shape of {@link DynamicFunction}: use {@link
 *     DynamicFunction#sip(BackendFunction, SipStructure)} (or {@link
 *     DynamicFunction#of(BackendFunction)}, which reads the structure from the function's
 *     reflection), and {@link CallCodec#sip(SipStructure)} for the flat lists. This class delegates
 *     to that codec.
 */
@Deprecated
public final class SipFunction implements DynamicFunction {

  private final SipCodec codec;
  private final CodecFunction delegate;

  private SipFunction(BackendFunction function, SipStructure structure) {
    Objects.requireNonNull(function, "function");
    this.codec = new SipCodec(structure);
    this.delegate = new CodecFunction(function, codec);
  }

  /**
   * {@code function}, called through {@code structure}.
   *
   * @param function the backend function to call
   * @param structure the SIP structure combined with the raw signature
   * @return the SIP function
   * @deprecated use {@link DynamicFunction#sip(BackendFunction, SipStructure)}
   */
  @Deprecated
  public static SipFunction of(BackendFunction function, SipStructure structure) {
    return new SipFunction(function, structure);
  }

  /**
   * The structure that drives flattening.
   *
   * @return the SIP structure this function was made with
   */
  public SipStructure structure() {
    return codec.structure();
  }

  @Override
  public BackendFunction function() {
    return delegate.function();
  }

  @Override
  public CallCodec codec() {
    return codec;
  }

  @Override
  public Object call(List<?> positional, Map<String, ?> named) {
    return delegate.call(positional, named);
  }

  /**
   * The flat raw argument list for these values, in raw-index order.
   *
   * @param positional values of a root sequence of the inputs, in key order
   * @param named values of a root dict, by key
   * @return a new variant list, owned by the caller
   */
  public VmList flatten(List<?> positional, Map<String, ?> named) {
    return codec.encodeArguments(delegate.name(), positional, named);
  }

  /**
   * The result structure rebuilt from the raw results; the list is closed when that fails.
   *
   * @param results the raw result list the backend returned
   * @return null for no results, a root leaf's value, or the rebuilt {@code List}/{@code Map}
   */
  public Object rebuild(VmList results) {
    return codec.decodeResults(delegate.name(), results);
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
