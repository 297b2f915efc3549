package dev.ireestubs.processor;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.SipStructure;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;

/**
 * One abstract method bound to one module function.
 *
 * @param method the interface method (possibly inherited from a super-interface)
 * @param functionName the function's module-local name, as looked up at run time
 * @param signature the signature the method was checked against (arguments keep their {@code
 *     named} wrappers; results as declared, see {@link FunctionSignature#hasInlinedResults()})
 * @param reflectionSource where the signature came from: the module file's resource path, e.g.
 *     {@code "classifier.abi.json"}, {@code "@IreeFunction(abi)"}, or a compiled module's path with
 *     the reflection used, e.g. {@code "models/classifier.vmfb (iree.abi.declaration)"}
 * @param embedded the reflection text the stub embeds to rebuild {@code signature} at run time
 * @param parameters one per method parameter = one per root argument, in order
 * @param result how the results become the return value
 * @param sip for the V0 structured ABI, the SIP structure the stub flattens by
 * @param pydm true for an IREEPyDM function: {@code signature} is its calling convention's, and the
 *     stub marshals objects as records and turns the exception result into an exception
 */
record FunctionModel(
    ExecutableElement method,
    String functionName,
    FunctionSignature signature,
    String reflectionSource,
    Embedded embedded,
    List<ParameterModel> parameters,
    ResultModel result,
    Optional<SipStructure> sip,
    boolean pydm) {
  FunctionModel {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(functionName, "functionName");
    Objects.requireNonNull(signature, "signature");
    Objects.requireNonNull(reflectionSource, "reflectionSource");
    Objects.requireNonNull(embedded, "embedded");
    parameters = List.copyOf(parameters);
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(sip, "sip");
  }

  /**
   * This function bound through a V0 SIP structure: {@link #signature()} is then the structured
   * view the parameters and result were bound to, and the stub flattens by the structure's leaf
   * indices into the raw list.
   */
  FunctionModel withSip(SipStructure structure) {
    return new FunctionModel(
        method,
        functionName,
        signature,
        reflectionSource,
        embedded,
        parameters,
        result,
        Optional.of(structure),
        pydm);
  }

  /** The number of raw VM results the backend returns. */
  int rawResultCount() {
    return sip.map(s -> s.raw().results().size()).orElse(signature.vmResults().size());
  }

  /**
   * Reflection text that gives the signature back through {@code
   * FunctionBinder.signature(attribute, text)} (the stub then applies the signature's calling
   * model). Canonical {@code iree.abi} JSON where JSON states the signature exactly; otherwise the
   * text as the module had it, since JSON cannot state everything a declaration can ({@code
   * index} scalars, for one).
   *
   * @param attribute {@code iree.abi}, {@code iree.abi.declaration} or {@code f}
   * @param text the attribute's value
   */
  record Embedded(String attribute, String text) {
    Embedded {
      Objects.requireNonNull(attribute, "attribute");
      Objects.requireNonNull(text, "text");
    }

    /** The signature as canonical {@code iree.abi} JSON. */
    static Embedded json(FunctionSignature signature) {
      return new Embedded(Reflection.IREE_ABI, AbiJson.print(signature));
    }
  }

  /** The method's simple name. */
  String methodName() {
    return method.getSimpleName().toString();
  }
}
