package dev.ireestubs.invoke;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.vm.VmList;
import java.util.List;
import java.util.Map;

/**
 * One calling format of a {@link DynamicFunction}: how Java arguments become the VM argument list a
 * {@link BackendFunction} takes, and how the VM result list it returns becomes one Java value. The
 * formats shipped are the native ABI ({@link #of(FunctionSignature)}), the deprecated V0 structured
 * ABI ({@link #sip(SipStructure)}) and IREEPyDM ({@code dev.ireestubs.pydm.PyDmFunction}).
 *
 * <p>This is a service-provider interface: a user calls functions through {@link DynamicFunction}
 * and implements a codec only for a calling format iree-stubs does not know. A codec reports bad
 * values as {@link IreeValueException}s naming the function and the value's path.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface CallCodec {

  /**
   * The VM argument list for one call.
   *
   * @param function the function's name, which starts every message ({@code predict})
   * @param positional the arguments given by position, in order
   * @param named the arguments given by name
   * @return a new variant list with one element per argument the backend function takes; the caller
   *     owns it
   * @throws IreeValueException (an argument) when a value, the count or a name does not fit
   */
  VmList encodeArguments(String function, List<?> positional, Map<String, ?> named);

  /**
   * The Java value of one call's results. The codec owns {@code results}: when decoding fails, for
   * whatever reason, it closes the list before throwing, so that refs a native backend handed back
   * (buffer views, fences) are released even though the caller never sees the list.
   *
   * @param function the function's name, which starts every message
   * @param results the list the backend returned
   * @return the decoded value; its form is the codec's (null for no results in the shipped ones)
   * @throws IreeValueException (a result) when the results do not fit the format
   */
  Object decodeResults(String function, VmList results);

  /**
   * The codec of the native ABI: arguments and results take the Java forms listed in {@link
   * AbiValues}, with the same checks and messages as generated stubs.
   *
   * @param signature the function's signature (from {@code iree.abi}, a declaration, V0's raw
   *     signature or the calling convention alone)
   * @return a codec that marshals by {@code signature}
   */
  static CallCodec of(FunctionSignature signature) {
    return new SignatureCodec(signature);
  }

  /**
   * The codec of the deprecated V0 structured (SIP) ABI: nested maps (dict keys), lists (sequence
   * positions) and records go in, each leaf is placed in the raw slot its index names, and the raw
   * results are rebuilt into the result structure.
   *
   * @param structure the SIP structure combined with the raw signature
   * @return a codec that flattens and rebuilds by {@code structure}
   */
  static CallCodec sip(SipStructure structure) {
    return new SipCodec(structure);
  }
}
