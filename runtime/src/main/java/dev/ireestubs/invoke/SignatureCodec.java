package dev.ireestubs.invoke;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.vm.VmList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The native-ABI codec: {@link AbiValues} driven by one function signature. */
final class SignatureCodec implements CallCodec {

  private final FunctionSignature signature;

  SignatureCodec(FunctionSignature signature) {
    this.signature = Objects.requireNonNull(signature, "signature");
  }

  FunctionSignature signature() {
    return signature;
  }

  @Override
  public VmList encodeArguments(String function, List<?> positional, Map<String, ?> named) {
    return AbiValues.packArguments(signature, positional, named, function);
  }

  @Override
  public Object decodeResults(String function, VmList results) {
    return AbiValues.unpackResults(signature, results, function); // closes the list on failure
  }

  @Override
  public String toString() {
    return signature.toString();
  }
}
