package dev.ireestubs.processor.source;

import dev.ireestubs.abi.CoarseFences;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.declaration.JavaType;
import dev.ireestubs.processor.diagnostics.Location;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.diagnostics.Tag;
import dev.ireestubs.vmfb.VmfbExport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The asynchronous methods of an interface: a method that returns {@code CompletableFuture<T>} (or
 * {@code FencedFuture<T>}, which also carries the call's signal fence) calls the asynchronous
 * export of its function, of the coarse-fences model, and may take the call's wait fence as its
 * last parameter ({@code Fence wait}). This part of the sources step reads that shape and finds the
 * export ({@link #read}), whose signature {@link SignatureSources} then finds for a view of the
 * method as if it returned {@code T}, took no fence and named the export; then it checks that the
 * function takes fences ({@link #check}). The binder binds the view.
 *
 * <p>The export of method {@code m}, whose function is {@code f} ({@code @IreeFunction("f")}, else
 * the method's name): {@code f} itself when it ends in {@code $async}, else {@code f$async}, else,
 * for a method named {@code fAsync} with no {@code @IreeFunction} name, {@code f$async}, else
 * {@code f} when it is asynchronous by its reflection. Whether an export takes fences is {@link
 * CoarseFences}' rule, as everywhere.
 */
final class AsyncSources {

  static final String COMPLETABLE_FUTURE = "java.util.concurrent.CompletableFuture";
  static final String FENCED_FUTURE = "dev.ireestubs.invoke.FencedFuture";
  static final String FENCE = "dev.ireestubs.vm.Fence";

  /** Futures that are not what an asynchronous method returns, named in the fix. */
  private static final Set<String> OTHER_FUTURES =
      Set.of(
          "java.util.concurrent.Future",
          "java.util.concurrent.CompletionStage",
          "java.util.concurrent.ForkJoinTask",
          "java.util.concurrent.FutureTask");

  /**
   * An asynchronous method, read.
   *
   * @param view the method as the binder sees it: returning {@code T}, without the wait fence, and
   *     naming the asynchronous export in its {@code @IreeFunction}
   * @param call the future the method returns and its wait fence
   */
  record Async(Declaration.Method view, MethodSource.Async call) {}

  private final ModuleReflection module;
  private final Reporter report;

  AsyncSources(ModuleReflection module, Reporter report) {
    this.module = module;
    this.report = report;
  }

  /** Whether {@code method} returns a future of its call: then {@link #read} reads it. */
  static boolean isAsync(Declaration.Method method) {
    return method.returnType() instanceof JavaType.Declared d
        && (d.is(COMPLETABLE_FUTURE) || d.is(FENCED_FUTURE));
  }

  /**
   * Checks a synchronous method for what only asynchronous ones may have (a wait fence, a future of
   * another kind); true when it has none (else reported).
   */
  boolean checkSync(Declaration.Method method) {
    boolean ok = true;
    if (method.returnType() instanceof JavaType.Declared d
        && OTHER_FUTURES.contains(d.qualifiedName())) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          method.functionName()
              + ": method "
              + method.name()
              + " returns "
              + d.display()
              + ", but an asynchronous method returns CompletableFuture<T> (or FencedFuture<T>,"
              + " which carries the call's signal fence); change the return type to"
              + " CompletableFuture"
              + typeArguments(d),
          method.location());
      ok = false;
    }
    for (Declaration.Parameter p : method.parameters()) {
      if (isFence(p.type())) {
        report.error(
            Tag.SIGNATURE_MISMATCH,
            method.functionName()
                + ": parameter "
                + p.name()
                + " of method "
                + method.name()
                + " is a Fence, the wait fence of an asynchronous call, but the method is"
                + " synchronous; return CompletableFuture<T> to call the function"
                + " asynchronously after that fence, or remove the parameter",
            p.location());
        ok = false;
      }
    }
    return ok;
  }

  /** The reading of an asynchronous method; empty when it is malformed (reported). */
  Optional<Async> read(Declaration.Method method) {
    JavaType.Declared returned = (JavaType.Declared) method.returnType();
    boolean ok = true;
    JavaType result = null;
    if (returned.arguments().size() != 1
        || returned.arguments().get(0) instanceof JavaType.Wildcard) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          method.functionName()
              + ": method "
              + method.name()
              + " returns "
              + returned.display()
              + " without its result type; declare it, e.g. "
              + returned.simpleName()
              + "<FloatArray>, or "
              + returned.simpleName()
              + "<Void> for a function that"
              + " returns nothing",
          method.location());
      ok = false;
    } else {
      result = returned.arguments().get(0);
      if (result instanceof JavaType.Declared d && d.is("java.lang.Void")) {
        result = new JavaType.Void();
      }
    }
    List<Declaration.Parameter> parameters = new ArrayList<>(method.parameters());
    Optional<String> wait = Optional.empty();
    for (int i = 0; i < parameters.size(); i++) {
      Declaration.Parameter p = parameters.get(i);
      if (!isFence(p.type())) {
        continue;
      }
      if (i == parameters.size() - 1) {
        wait = Optional.of(p.name());
      } else {
        report.error(
            Tag.SIGNATURE_MISMATCH,
            method.functionName()
                + ": parameter "
                + p.name()
                + " of method "
                + method.name()
                + " is a Fence, the call's wait fence, which comes last, after the function's"
                + " arguments; move it to the end",
            p.location());
        ok = false;
      }
    }
    if (wait.isPresent()) {
      parameters.remove(parameters.size() - 1);
    }
    if (method.function().map(f -> f.pydm() || !f.sip().isEmpty()).orElse(false)) {
      report.error(
          Tag.SIGNATURE_MISMATCH,
          method.functionName()
              + ": method "
              + method.name()
              + " returns a future, but IREEPyDM"
              + " and V0 SIP functions are synchronous; return the result itself",
          method.location());
      ok = false;
    }
    Optional<String> export = ok ? export(method) : Optional.empty();
    if (export.isEmpty()) {
      return Optional.empty();
    }
    Declaration.Method view =
        new Declaration.Method(
            method.name(),
            parameters,
            result,
            Optional.of(naming(method, export.get())),
            method.location());
    return Optional.of(new Async(view, new MethodSource.Async(returned.is(FENCED_FUTURE), wait)));
  }

  /**
   * The source of the asynchronous method {@code method}, read as {@code async}, whose view's
   * function {@code source} describes; empty when that function takes no fences (reported).
   */
  Optional<MethodSource> check(Declaration.Method method, Async async, FunctionSource source) {
    if (!(source instanceof FunctionSource.Typed typed)) {
      // read() refuses IREEPyDM methods: their functions are synchronous.
      throw new IllegalStateException(
          "an IREEPyDM source for asynchronous method " + method.name());
    }
    FunctionSignature signature =
        typed.sip().map(SipStructure::signature).orElse(typed.signature());
    if (typed.sip().isPresent()
        || signature.model() != FunctionSignature.CallingModel.COARSE_FENCES) {
      report.error(
          Tag.NOT_ASYNC,
          typed.functionName()
              + ": method "
              + method.name()
              + " returns a future, so it calls an"
              + " asynchronous function (with a wait and a signal fence), but "
              + Messages.quote(typed.functionName())
              + " is synchronous ("
              + signature
              + ", from "
              + typed.description()
              + ")"
              + asyncExportsHint()
              + "; return the result itself to call it synchronously",
          method.location());
      return Optional.empty();
    }
    return Optional.of(new MethodSource(async.view(), source, Optional.of(async.call())));
  }

  /** The export {@code method} calls, or empty when it has none that is asynchronous (reported). */
  private Optional<String> export(Declaration.Method method) {
    Optional<Declaration.FunctionAnnotation> annotation = method.function();
    if (annotation.map(f -> !f.abi().isEmpty()).orElse(false)) {
      return Optional.of(method.functionName()); // its own signature says whether it is async
    }
    Optional<String> explicit =
        annotation.filter(Declaration.FunctionAnnotation::valueExplicit).map(f -> f.value());
    String function = explicit.orElse(method.name());
    List<String> candidates = new ArrayList<>();
    if (CoarseFences.syncName(function).isPresent()) {
      candidates.add(function);
    } else {
      candidates.add(CoarseFences.asyncName(function));
      if (explicit.isEmpty() && function.endsWith("Async") && function.length() > 5) {
        candidates.add(CoarseFences.asyncName(function.substring(0, function.length() - 5)));
      }
      candidates.add(function);
    }
    if (module.functions().isEmpty() && module.compiled().isEmpty()) {
      return module.failed() ? Optional.empty() : Optional.of(candidates.get(0));
    }
    for (String c : candidates) {
      if (isAsyncFunction(c)) {
        return Optional.of(c);
      }
    }
    report.error(
        Tag.NOT_ASYNC,
        function
            + ": method "
            + method.name()
            + " returns a future, so it calls the"
            + " asynchronous export of "
            + Messages.quote(CoarseFences.syncName(function).orElse(function))
            + " ("
            + Messages.or(quoted(candidates))
            + "), but "
            + where()
            + " has no asynchronous export of that name"
            + asyncExportsHint()
            + "; return the result itself to call "
            + Messages.quote(function)
            + " synchronously, or name an asynchronous export with @IreeFunction",
        explicit.isPresent() ? annotation.get().valueLocation() : method.location());
    return Optional.empty();
  }

  /** Whether the module's function {@code name} exists and takes a wait and a signal fence. */
  private boolean isAsyncFunction(String name) {
    if (module.functions().isPresent()) {
      FunctionSignature s = module.functions().get().get(name);
      return s != null && s.model() == FunctionSignature.CallingModel.COARSE_FENCES;
    }
    Optional<VmfbExport> export = module.compiled().flatMap(m -> m.export(name));
    return export.isPresent()
        && CoarseFences.applies(
            name, export.get().reflection().asMap(), export.get().callingConvention().orElse(null));
  }

  /** {@code ; its asynchronous exports: a$async, b$async} or {@code ; it has none}. */
  private String asyncExportsHint() {
    List<String> names = new ArrayList<>();
    if (module.functions().isPresent()) {
      for (Map.Entry<String, FunctionSignature> f : module.functions().get().entrySet()) {
        if (f.getValue().model() == FunctionSignature.CallingModel.COARSE_FENCES) {
          names.add(f.getKey());
        }
      }
    } else if (module.compiled().isPresent()) {
      for (String name : module.compiled().get().exportNames()) {
        if (isAsyncFunction(name)) {
          names.add(name);
        }
      }
    } else {
      return "";
    }
    return names.isEmpty()
        ? " (the module has no asynchronous export)"
        : " (its asynchronous exports: " + Messages.list(names) + ")";
  }

  private String where() {
    return module.compiled().isPresent()
        ? "the compiled module " + Messages.quote(module.vmfbPath())
        : "the module file " + Messages.quote(module.abiPath());
  }

  private static List<String> quoted(List<String> names) {
    List<String> out = new ArrayList<>();
    names.forEach(n -> out.add(Messages.quote(n)));
    return out;
  }

  /** {@code method}'s {@code @IreeFunction}, naming {@code export} (one is made if it has none). */
  private static Declaration.FunctionAnnotation naming(Declaration.Method method, String export) {
    Optional<Declaration.FunctionAnnotation> given = method.function();
    if (given.isEmpty()) {
      Location at = method.location();
      return new Declaration.FunctionAnnotation(export, false, "", "", false, at, at, at, at);
    }
    Declaration.FunctionAnnotation f = given.get();
    return new Declaration.FunctionAnnotation(
        export,
        f.valueExplicit(),
        f.abi(),
        f.sip(),
        f.pydm(),
        f.location(),
        f.valueLocation(),
        f.abiLocation(),
        f.sipLocation());
  }

  private static boolean isFence(JavaType type) {
    return type instanceof JavaType.Declared d && d.is(FENCE);
  }

  /** {@code <FloatArray>} of a parameterized type, else {@code <T>}. */
  private static String typeArguments(JavaType.Declared d) {
    if (d.arguments().size() != 1) {
      return "<T>";
    }
    return "<" + d.arguments().get(0).display() + ">";
  }
}
