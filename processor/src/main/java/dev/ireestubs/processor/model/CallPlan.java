package dev.ireestubs.processor.model;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.SipNode;
import dev.ireestubs.abi.SipStructure;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How one method calls one module function: the binder's decision, which the writer prints. One
 * case per calling scheme, each made of {@link ValueBinding}s; nothing in it is a compiler type.
 */
public sealed interface CallPlan
    permits CallPlan.Plain, CallPlan.Async, CallPlan.Sip, CallPlan.PyDm {

  /** What every plan has: the method, the function, its signature and the parameters. */
  Method method();

  /** How the raw VM results become the return value. */
  ResultModel result();

  /**
   * The signature the stub carries and checks the loaded module's function against when it binds:
   * as the reflection states it (for SIP, the raw signature; for PyDM, the calling convention the
   * Java types imply).
   */
  FunctionSignature boundSignature();

  /** The number of raw VM results the backend returns. */
  int rawResultCount();

  /** The method's simple name. */
  default String methodName() {
    return method().name();
  }

  /** The function's module-local name, as looked up at run time. */
  default String functionName() {
    return method().functionName();
  }

  /** The signature the parameters and result were bound to. */
  default FunctionSignature signature() {
    return method().signature();
  }

  /**
   * Where the signature came from, for messages and the stub's Javadoc: a module file's path,
   * {@code "@IreeFunction(abi)"}, or a compiled module's path with the reflection used.
   */
  default String reflectionSource() {
    return method().source();
  }

  /** One per method parameter = one per root argument, in order. */
  default List<ParameterModel> parameters() {
    return method().parameters();
  }

  /**
   * True when some argument is (or holds) a Java array: the call copies it and owns the copy, which
   * the method ends once the call is over (see {@link ValueBinding#holdsJavaArray()}).
   */
  default boolean ownsCopies() {
    return parameters().stream().anyMatch(p -> p.binding().holdsJavaArray());
  }

  /**
   * The part every plan shares.
   *
   * @param name the method's simple name
   * @param functionName the module function's name
   * @param signature the signature the method was checked against (arguments keep their {@code
   *     named} wrappers; results as declared, see {@link FunctionSignature#hasInlinedResults()})
   * @param source where it came from
   * @param parameters one per method parameter, in order
   */
  record Method(
      String name,
      String functionName,
      FunctionSignature signature,
      String source,
      List<ParameterModel> parameters) {
    public Method {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(functionName, "functionName");
      Objects.requireNonNull(signature, "signature");
      Objects.requireNonNull(source, "source");
      parameters = List.copyOf(parameters);
    }
  }

  /** The V1 ABI: each argument is one VM slot, nested structures are nested lists. */
  record Plain(Method method, ResultModel result) implements CallPlan {
    public Plain {
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(result, "result");
    }

    @Override
    public FunctionSignature boundSignature() {
      return method.signature();
    }

    @Override
    public int rawResultCount() {
      return method.signature().vmResults().size();
    }
  }

  /** Which future an asynchronous method returns. */
  enum Future {
    /** {@code java.util.concurrent.CompletableFuture<T>}. */
    COMPLETABLE,
    /** {@code dev.ireestubs.invoke.FencedFuture<T>}, which carries the call's signal fence. */
    FENCED
  }

  /**
   * An asynchronous call of a function of the coarse-fences model, marshalled as {@link Plain}: the
   * method submits the call and returns a future of the result the plan's {@code result} decodes.
   *
   * @param future the future the method returns, of {@code result}'s Java type (boxed; {@code Void}
   *     for none)
   * @param waitParameter the method's last parameter, a {@code Fence} the call waits for, if any
   *     (it is not among the method's {@link #parameters()}, which are the function's arguments)
   */
  record Async(Method method, ResultModel result, Future future, Optional<String> waitParameter)
      implements CallPlan {
    public Async {
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(future, "future");
      Objects.requireNonNull(waitParameter, "waitParameter");
    }

    @Override
    public FunctionSignature boundSignature() {
      return method.signature();
    }

    @Override
    public int rawResultCount() {
      return method.signature().vmResults().size();
    }
  }

  /**
   * The V0 structured ABI: the method was bound to the structured view of {@code structure}; the
   * structure never reaches the VM, each leaf fills the raw slot its index names.
   *
   * @param parameterNodes per parameter, the SIP node its value flattens by
   * @param resultNode the SIP node the return value stands for (empty for {@code void})
   */
  record Sip(
      Method method,
      ResultModel result,
      SipStructure structure,
      List<SipNode> parameterNodes,
      Optional<SipNode> resultNode)
      implements CallPlan {
    public Sip {
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(structure, "structure");
      parameterNodes = List.copyOf(parameterNodes);
      Objects.requireNonNull(resultNode, "resultNode");
      if (parameterNodes.size() != method.parameters().size()) {
        throw new IllegalArgumentException(
            parameterNodes.size() + " SIP nodes for " + method.parameters().size() + " parameters");
      }
    }

    @Override
    public FunctionSignature boundSignature() {
      return structure.raw();
    }

    @Override
    public int rawResultCount() {
      return structure.raw().results().size();
    }
  }

  /**
   * An IREEPyDM function: primitives travel as unboxed values ({@link ScalarBinding}), everything
   * else as an object record ({@link RefBinding}); the first raw result is the exception result,
   * which becomes an exception. The result is {@link ResultModel.Void} or {@link
   * ResultModel.Single}.
   */
  record PyDm(Method method, ResultModel result) implements CallPlan {
    public PyDm {
      Objects.requireNonNull(method, "method");
      if (result instanceof ResultModel.Inlined) {
        throw new IllegalArgumentException("a PyDM function returns one value or none");
      }
    }

    @Override
    public FunctionSignature boundSignature() {
      return method.signature();
    }

    @Override
    public int rawResultCount() {
      return method.signature().results().size();
    }
  }
}
