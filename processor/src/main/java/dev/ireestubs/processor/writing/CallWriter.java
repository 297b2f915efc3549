package dev.ireestubs.processor.writing;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.SipNode;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ParameterModel;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.ScalarBinding;
import dev.ireestubs.processor.model.ValueBinding;
import dev.ireestubs.processor.printing.Code;
import dev.ireestubs.processor.printing.JavaSource;
import java.util.List;
import java.util.Map;

/**
 * Prints the body of one method from its {@link CallPlan}: encode the arguments, invoke, decode the
 * results; for each case of the plan its own way of doing so (V1 nested lists, V0 SIP raw slots,
 * PyDM object records). What it prints follows the plan; it decides nothing.
 */
final class CallWriter {

  static final ClassName PYDM = ClassName.get("dev.ireestubs.pydm", "PyDm");
  static final ClassName VM_KIND = ClassName.get("dev.ireestubs.abi", "VmKind");
  static final ClassName ASYNC_CALLS = ClassName.get("dev.ireestubs.internal", "AsyncCalls");
  static final ClassName DECODER = ASYNC_CALLS.nestedClass("Decoder");
  static final ClassName COMPLETABLE_FUTURE =
      ClassName.get("java.util.concurrent", "CompletableFuture");
  static final ClassName FENCED_FUTURE = ClassName.get("dev.ireestubs.invoke", "FencedFuture");
  static final ClassName FENCE = ClassName.get("dev.ireestubs.vm", "Fence");

  /** A printed method: its statements, return type and whether it needs unchecked casts. */
  record Body(Code code, TypeName returns, boolean unchecked) {}

  private final CallPlan plan;
  private final Code function;
  private final MethodScope scope;
  private final ValueCode values;
  private final boolean ownsCopies;

  /**
   * @param function the expression of the {@code BackendFunction} to invoke
   * @param scope the method's scope (its parameters already reserved)
   */
  CallWriter(CallPlan plan, Code function, MethodScope scope) {
    this.plan = plan;
    this.function = function;
    this.scope = scope;
    this.values = new ValueCode(scope);
    this.ownsCopies = plan.ownsCopies();
  }

  /** The body of the plan's method. */
  Body write() {
    String arguments = scope.local("arguments");
    if (plan instanceof CallPlan.PyDm) {
      return pyDm(arguments);
    }
    if (plan instanceof CallPlan.Async async) {
      return async(async, arguments);
    }
    if (plan instanceof CallPlan.Sip sip) {
      encodeSip(sip, arguments);
    } else {
      encodePlain(arguments);
    }
    Code call =
        Code.of(
            "$T.results($L.invoke($N), $L, $L)",
            ValueCode.MARSHAL,
            function,
            arguments,
            plan.rawResultCount(),
            scope.functionName(plan.functionName()));
    ResultModel result = plan.result();
    TypeName type = TypeName.VOID;
    if (result instanceof ResultModel.Void) {
      scope.statement("$L", call);
    } else {
      type = decodeResults(result, call);
    }
    if (ownsCopies) {
      scope.body().nextControlFlow("finally");
      scope.statement("$T.endCall($N)", ValueCode.CALL_MEMORY, arguments);
      scope.body().endControlFlow();
    }
    return new Body(scope.body().build(), type, false);
  }

  /**
   * An asynchronous call: the arguments encoded as for {@link CallPlan.Plain}, then submitted with
   * the wait fence (the method's last parameter, or none); the decoding of the results is a lambda
   * the call's completion runs. Copies of Java arrays are the call's until the backend completes it
   * ({@code AsyncCalls} ends them), so here they are ended only when encoding fails.
   */
  private Body async(CallPlan.Async async, String arguments) {
    scope.statement(
        "$T $N = $T.variant($L)",
        ValueCode.VM_LIST,
        arguments,
        ValueCode.VM_LIST,
        plan.parameters().size());
    if (ownsCopies) {
      scope.body().beginControlFlow("try");
    }
    scope.encodingArguments(true);
    for (ParameterModel p : plan.parameters()) {
      scope.statement(
          "$N.push($L)", arguments, values.encode(p.binding(), scope.parameter(p.javaName())));
    }
    scope.encodingArguments(false);
    if (ownsCopies) {
      String failure = scope.local("failure");
      scope.body().nextControlFlow("catch ($T $N)", RuntimeException.class, failure);
      scope.statement("$T.endCall($N)", ValueCode.CALL_MEMORY, arguments);
      scope.statement("throw $N", failure);
      scope.body().endControlFlow();
    }
    Code wait = async.waitParameter().map(scope::parameter).orElse(Code.of("null"));
    Code name = scope.functionName(plan.functionName());
    ResultModel result = plan.result();
    TypeName value = futureValue(result);
    TypeName returns = returns(plan);
    String results = scope.local("results");
    if (result instanceof ResultModel.Void) {
      scope.statement(
          "return $T.submit($L, $N, $L, $N -> $T.none($N, $L))",
          ASYNC_CALLS,
          function,
          arguments,
          wait,
          results,
          ASYNC_CALLS,
          results,
          name);
      return new Body(scope.body().build(), returns, false);
    }
    Code.Builder method = scope.swapBody(Code.builder());
    Code decoded =
        result instanceof ResultModel.Single single
            ? values.decode(single.binding(), results, Code.of("0"))
            : values.decodeChildren(((ResultModel.Inlined) result).binding(), results);
    Code statements = scope.swapBody(method).build();
    // The decoder checks the result count itself: one that names only constants is one object for
    // all calls, where a wrapper around it would be a new one per call.
    String decode = scope.local("decode");
    scope.body().add("$T<$T> $N = $N -> {\n$>", DECODER, value, decode, results);
    scope.statement(
        "$T.results($N, $L, $L)", ValueCode.MARSHAL, results, plan.rawResultCount(), name);
    scope.body().add(statements);
    scope.statement("return $L", decoded);
    scope.body().add("$<};\n");
    scope.statement(
        "return $T.submit($L, $N, $L, $N)", ASYNC_CALLS, function, arguments, wait, decode);
    return new Body(scope.body().build(), returns, false);
  }

  /** The method's return type: the result's, or for an asynchronous call the future's. */
  static TypeName returns(CallPlan plan) {
    if (plan instanceof CallPlan.Async async) {
      return ParameterizedTypeName.get(
          async.future() == CallPlan.Future.FENCED ? FENCED_FUTURE : COMPLETABLE_FUTURE,
          futureValue(plan.result()));
    }
    return plan.result().javaType();
  }

  /** The type argument of an asynchronous method's future: the result's type boxed, or Void. */
  private static TypeName futureValue(ResultModel result) {
    return result instanceof ResultModel.Void ? ClassName.get(Void.class) : result.javaType().box();
  }

  /** V0 structured ABI: the structure never reaches the VM; each leaf fills its raw slot. */
  private void encodeSip(CallPlan.Sip sip, String arguments) {
    int slots = sip.structure().raw().arguments().size();
    scope.statement(
        "$T $N = $T.variant($L)", ValueCode.VM_LIST, arguments, ValueCode.VM_LIST, slots);
    scope.statement("$N.resize($L)", arguments, slots);
    beginCallOwned();
    SipCode flatten = new SipCode(scope, values);
    for (int i = 0; i < plan.parameters().size(); i++) {
      ParameterModel p = plan.parameters().get(i);
      flatten.flatten(
          p.binding(), sip.parameterNodes().get(i), scope.parameter(p.javaName()), arguments);
    }
  }

  /**
   * V1: one slot per argument. In a shared body the paths are relative to the function, whose name
   * goes in front only when a check fails.
   */
  private void encodePlain(String arguments) {
    scope.statement(
        "$T $N = $T.variant($L)",
        ValueCode.VM_LIST,
        arguments,
        ValueCode.VM_LIST,
        plan.parameters().size());
    beginCallOwned();
    boolean relative = scope.shared() && !plan.parameters().isEmpty();
    if (relative) {
      scope.body().beginControlFlow("try");
    }
    scope.encodingArguments(true);
    for (ParameterModel p : plan.parameters()) {
      scope.statement(
          "$N.push($L)", arguments, values.encode(p.binding(), scope.parameter(p.javaName())));
    }
    scope.encodingArguments(false);
    if (relative) {
      String failure = scope.local("failure");
      scope.body().nextControlFlow("catch ($T $N)", ValueCode.IREE_VALUE_EXCEPTION, failure);
      scope.statement(
          "throw $T.inFunction($N, $L$L)",
          ValueCode.MARSHAL,
          failure,
          scope.functionName(plan.functionName()),
          scope.parameterNames());
      scope.body().endControlFlow();
    }
  }

  /**
   * Opens the {@code try} whose {@code finally} ends the call's copies of Java-array arguments,
   * when it makes any: they are the call's, ended once it is over, whether the backend returned or
   * threw, a later argument or the results failed their checks.
   */
  private void beginCallOwned() {
    if (ownsCopies) {
      scope.body().beginControlFlow("try");
    }
  }

  /**
   * Emits the call of {@code call} and the decoding of its results in a {@code try} that closes the
   * result list when decoding fails; returns the method's Java return type.
   */
  private TypeName decodeResults(ResultModel result, Code call) {
    String results = scope.local("results");
    scope.statement("$T $N = $L", ValueCode.VM_LIST, results, call);
    boolean single = result instanceof ResultModel.Single;
    ValueBinding binding =
        single ? ((ResultModel.Single) result).binding() : ((ResultModel.Inlined) result).binding();
    TypeName type = result.javaType();
    Code value;
    // The caller never sees the result list: a result that fails to decode closes it (its refs).
    scope.body().beginControlFlow("try");
    if (plan instanceof CallPlan.Sip sip) {
      SipNode node = sip.resultNode().orElseThrow();
      value = new SipCode(scope, values).decode(binding, node, results);
    } else if (single) {
      value = values.decode(binding, results, Code.of("0"));
    } else {
      value = values.decodeChildren(binding, results);
    }
    scope.statement("return $L", value);
    String failure = scope.local("failure");
    scope.body().nextControlFlow("catch ($T $N)", RuntimeException.class, failure);
    if (scope.shared()) {
      scope.statement(
          "throw $T.closeOnFailure($N, $T.inFunction($N, $L))",
          ValueCode.MARSHAL,
          results,
          ValueCode.MARSHAL,
          failure,
          scope.functionName(plan.functionName()));
    } else {
      scope.statement("throw $T.closeOnFailure($N, $N)", ValueCode.MARSHAL, results, failure);
    }
    scope.body().endControlFlow();
    return type;
  }

  /** IREEPyDM: unboxed values and object records; the exception result becomes an exception. */
  private Body pyDm(String arguments) {
    List<ParameterModel> parameters = plan.parameters();
    scope.statement(
        "$T $N = $T.variant($L)",
        ValueCode.VM_LIST,
        arguments,
        ValueCode.VM_LIST,
        parameters.size());
    for (ParameterModel p : parameters) {
      Code value = scope.parameter(p.javaName());
      Code element =
          p.binding() instanceof ScalarBinding
              ? values.encode(p.binding(), value)
              : Code.of(
                  "$T.encodeArgument($L, $T.REF, $L)", PYDM, value, VM_KIND, scope.path(p.path()));
      scope.statement("$N.push($L)", arguments, element);
    }
    Code call = Code.of("$L.invoke($N)", function, arguments);
    Code name = scope.functionName(plan.functionName());
    ResultModel result = plan.result();
    if (result instanceof ResultModel.Void) {
      scope.statement("$T.checkResult($L, $L)", PYDM, call, name);
      return new Body(scope.body().build(), TypeName.VOID, false);
    }
    ResultModel.Single single = (ResultModel.Single) result;
    TypeName type = single.javaType();
    Code decoded = Code.of("$T.decodeResult($L, $L)", PYDM, call, name);
    Code path = scope.path(single.binding().path());
    boolean unchecked = false;
    if (type.isPrimitive()) {
      scope.statement("return $T.expectValue($L, $T.class, $L)", PYDM, decoded, type.box(), path);
    } else if (type instanceof ParameterizedTypeName parameterizedTypeName) {
      unchecked = true;
      scope.statement(
          "return ($T) $T.expect($L, $T.class, $L)",
          type,
          PYDM,
          decoded,
          parameterizedTypeName.rawType(),
          path);
    } else {
      scope.statement("return $T.expect($L, $T.class, $L)", PYDM, decoded, type, path);
    }
    return new Body(scope.body().build(), type, unchecked);
  }

  /** {@code @SuppressWarnings("unchecked")}, for a body that casts to a parameterized type. */
  static JavaSource.Annotation suppressUnchecked() {
    return new JavaSource.Annotation(
        ClassName.get(SuppressWarnings.class), Map.of("value", Code.of("$S", "unchecked")));
  }
}
