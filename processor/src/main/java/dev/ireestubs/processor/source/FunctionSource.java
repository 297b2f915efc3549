package dev.ireestubs.processor.source;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.SipStructure;
import java.util.Objects;
import java.util.Optional;

/** Where one method's signature comes from: what {@link SignatureSources} yields per method. */
public sealed interface FunctionSource permits FunctionSource.Typed, FunctionSource.PyDm {

  /** The module function's name, as looked up at run time. */
  String functionName();

  /**
   * Where the signature came from, for messages and the stub's Javadoc: the module file's resource
   * path ({@code "classifier.abi.json"}), {@code "@IreeFunction(abi)"}, or a compiled module's path
   * with the reflection used ({@code "models/classifier.vmfb (iree.abi.declaration)"}).
   */
  String description();

  /**
   * A function with a signature from reflection (a module file, a compiled module or the
   * annotation).
   *
   * @param signature as the reflection states it; for the V0 structured ABI the raw signature
   * @param sip the V0 SIP structure to bind through, if the function has one
   */
  record Typed(
      String functionName,
      FunctionSignature signature,
      String description,
      Optional<SipStructure> sip)
      implements FunctionSource {
    public Typed {
      Objects.requireNonNull(functionName, "functionName");
      Objects.requireNonNull(signature, "signature");
      Objects.requireNonNull(description, "description");
      Objects.requireNonNull(sip, "sip");
    }
  }

  /**
   * An IREEPyDM function: no reflection; the Java types give the calling convention.
   *
   * @param moduleConvention the export's calling convention, when the module is compiled
   */
  record PyDm(String functionName, Optional<String> moduleConvention, String description)
      implements FunctionSource {}
}
