package dev.ireestubs.processor;

import dev.ireestubs.abi.FunctionSignature;
import java.util.List;
import java.util.Objects;
import javax.lang.model.element.ExecutableElement;

/**
 * One abstract method bound to one module function.
 *
 * @param method the interface method (possibly inherited from a super-interface)
 * @param functionName the function's module-local name, as looked up at run time
 * @param signature the signature the method was checked against (arguments keep their {@code
 *     named} wrappers; results as declared, see {@link FunctionSignature#hasInlinedResults()})
 * @param reflectionSource where the signature came from: the module file's resource path, e.g.
 *     {@code "classifier.abi.json"}, or {@code "@IreeFunction(abi)"}
 * @param parameters one per method parameter = one per root argument, in order
 * @param result how the results become the return value
 */
record FunctionModel(
    ExecutableElement method,
    String functionName,
    FunctionSignature signature,
    String reflectionSource,
    List<ParameterModel> parameters,
    ResultModel result) {
  FunctionModel {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(functionName, "functionName");
    Objects.requireNonNull(signature, "signature");
    Objects.requireNonNull(reflectionSource, "reflectionSource");
    parameters = List.copyOf(parameters);
    Objects.requireNonNull(result, "result");
  }

  /** The method's simple name. */
  String methodName() {
    return method.getSimpleName().toString();
  }
}
