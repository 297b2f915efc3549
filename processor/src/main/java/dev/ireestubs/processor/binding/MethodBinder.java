package dev.ireestubs.processor.binding;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.SipNode;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.declaration.JavaType;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.names.Names;
import dev.ireestubs.processor.source.FunctionSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Binds one method to the signature its {@link FunctionSource} found: one parameter per root
 * argument (names of {@code named} arguments checked against the parameter or its {@code IreeKey}),
 * and the return type to the results. The product is a {@link CallPlan.Plain}, or for the V0
 * structured ABI a {@link CallPlan.Sip} with the SIP node of each value.
 */
final class MethodBinder {

  private final BindSession session;
  private final Reporter report;

  MethodBinder(BindSession session) {
    this.session = session;
    this.report = session.report();
  }

  /** The plan of {@code method}; empty when anything did not match (reported) or resolve. */
  Optional<CallPlan> bind(Declaration.Method method, FunctionSource.Typed source) {
    FunctionSignature signature =
        source.sip().map(SipStructure::signature).orElse(source.signature());
    String functionName = source.functionName();
    Wording words = Wording.of(functionName, signature);
    ValueBinder values = new ValueBinder(session, words);
    boolean ok = true;
    List<Declaration.Parameter> params = method.parameters();
    List<AbiType> args = signature.arguments();
    List<ParameterModel> parameters = new ArrayList<>();
    if (params.size() != args.size()) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          functionName
              + ": the function takes "
              + Messages.count(args.size(), "argument")
              + " in the module "
              + words.describeAll(args)
              + ", but method "
              + method.name()
              + " has "
              + Messages.count(params.size(), "parameter")
              + "; declare one parameter per argument, in order"
              + (signature.model() == FunctionSignature.CallingModel.COARSE_FENCES
                  ? " (not the wait and signal fences of its coarse-fences model, which the"
                      + " backend passes itself)"
                  : ""),
          method.location());
      ok = false;
    } else {
      for (int i = 0; i < params.size(); i++) {
        ParameterModel p = parameter(values, functionName, i, params.get(i), args.get(i));
        ok &= p != null;
        parameters.add(p);
      }
    }
    ResultModel result = result(values, method, signature);
    if (result == null || !ok) {
      return Optional.empty();
    }
    CallPlan.Method header =
        new CallPlan.Method(
            method.name(), functionName, signature, source.description(), parameters);
    if (source.sip().isEmpty()) {
      return Optional.of(new CallPlan.Plain(header, result));
    }
    SipStructure sip = source.sip().get();
    return Optional.of(
        new CallPlan.Sip(
            header, result, sip, parameterNodes(sip, parameters.size()), resultNode(sip)));
  }

  private ParameterModel parameter(
      ValueBinder values, String function, int index, Declaration.Parameter param, AbiType arg) {
    Optional<Declaration.Key> key = param.key();
    AbiType inner = arg;
    String pathName = param.name();
    boolean ok = true;
    if (arg instanceof AbiType.Named named) {
      inner = named.type();
      pathName = named.name();
      ok = namedAsDeclared(function, index, param, named);
    } else if (key.isPresent()) {
      report.warning(
          Tag.IGNORED_ANNOTATION,
          function
              + ": argument "
              + index
              + " is positional in the module (it has no name), so @IreeKey("
              + Messages.quote(key.get().value())
              + ") on parameter "
              + param.name()
              + " has no effect; remove it",
          key.get().location());
    }
    ValueBinding binding =
        values.bind(
            inner,
            param.type(),
            function + ": " + pathName,
            new ValueBinder.Site(param.location(), "the parameter"));
    if (binding == null || !ok) {
      return null;
    }
    return new ParameterModel(param.name(), param.type().typeName(), binding.path(), binding);
  }

  /** Whether a {@code named} argument's name is the parameter's (or its {@code @IreeKey}'s). */
  private boolean namedAsDeclared(
      String function, int index, Declaration.Parameter param, AbiType.Named named) {
    Optional<Declaration.Key> key = param.key();
    String given = key.map(Declaration.Key::value).orElse(param.name());
    if (given.equals(named.name())) {
      return true;
    }
    String name = Messages.quote(named.name());
    if (key.isPresent()) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          function
              + ": argument "
              + index
              + " is named "
              + name
              + " in the module, but @IreeKey on parameter "
              + param.name()
              + " says "
              + Messages.quote(key.get().value())
              + "; change it to @IreeKey("
              + name
              + ")",
          key.get().location());
    } else {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          function
              + ": argument "
              + index
              + " is named "
              + name
              + " in the module, but the parameter is named "
              + param.name()
              + "; "
              + (Names.isJavaName(named.name())
                  ? "rename the parameter to " + named.name() + " or annotate it "
                  : "annotate it ")
              + "@IreeKey("
              + name
              + ")",
          param.location());
    }
    return false;
  }

  private ResultModel result(
      ValueBinder values, Declaration.Method method, FunctionSignature signature) {
    Wording words = values.words();
    String function = words.functionName();
    List<AbiType> results = signature.results();
    JavaType returnType = method.returnType();
    String path = function + ": result";
    ValueBinder.Site site = new ValueBinder.Site(method.location(), "the return type");
    if (returnType instanceof JavaType.Void) {
      if (results.isEmpty()) {
        return new ResultModel.Void();
      }
      report.error(
          Tag.SIGNATURE_MISMATCH,
          function
              + ": the function returns "
              + words.describeAll(results)
              + " in the module, but method "
              + method.name()
              + " returns void; "
              + (results.size() == 1
                  ? words
                      .fix(results.get(0), path)
                      .replace("change its type", "change the return type")
                  : "return a record with one component per result, in order"),
          method.location());
      return null;
    }
    if (results.isEmpty()) {
      if (returnType instanceof JavaType.Unresolved) {
        return null; // the declaration step's to report
      }
      report.error(
          Tag.SIGNATURE_MISMATCH,
          function
              + ": the function returns nothing in the module, but method "
              + method.name()
              + " returns "
              + returnType.display()
              + "; change the return type to void",
          method.location());
      return null;
    }
    if (signature.hasInlinedResults()) {
      ValueBinding b = values.bind(results.get(0), returnType, path, site);
      return b == null ? null : new ResultModel.Inlined(returnType.typeName(), b);
    }
    if (results.size() == 1) {
      ValueBinding b = values.bind(results.get(0), returnType, path, site);
      return b == null ? null : new ResultModel.Single(returnType.typeName(), b);
    }
    ValueBinding b = values.bind(words.synthesizedResults(), returnType, path, site);
    return b == null ? null : new ResultModel.Inlined(returnType.typeName(), b);
  }

  /** Per parameter, the entry of the SIP input root it fills (the root itself for a leaf). */
  private static List<SipNode> parameterNodes(SipStructure sip, int count) {
    List<SipNode> nodes = new ArrayList<>();
    if (sip.inputs().isEmpty()) {
      return nodes;
    }
    SipNode root = sip.inputs().get();
    for (int i = 0; i < count; i++) {
      if (root instanceof SipNode.Sequence sequence) {
        nodes.add(sequence.entries().get(i).node());
      } else if (root instanceof SipNode.Dict dict) {
        nodes.add(dict.entries().get(i).node());
      } else {
        nodes.add(root);
      }
    }
    return nodes;
  }

  /**
   * The SIP node the return value stands for: a root sequence lists the results, so with one entry
   * the value is that entry; otherwise (several results, a root dict or leaf) the root.
   */
  private static Optional<SipNode> resultNode(SipStructure sip) {
    return sip.results()
        .map(
            root ->
                root instanceof SipNode.Sequence sequence && sequence.entries().size() == 1
                    ? sequence.entries().get(0).node()
                    : root);
  }
}
