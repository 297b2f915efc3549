package dev.ireestubs.processor.binding;

import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.source.FunctionSource;
import dev.ireestubs.processor.source.ModuleReflection;
import dev.ireestubs.processor.source.ReflectionLoader;
import dev.ireestubs.processor.source.SignatureSources;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The binder of one interface: finds each method's signature ({@link SignatureSources}), binds it
 * ({@link MethodBinder}, {@link PyDmBinder}; an asynchronous method through {@link AsyncBinder})
 * and assembles the {@link StubModel}, reporting every mismatch. Works on the {@link Declaration} alone: no compiler type goes in or out.
 */
public final class InterfaceBinder {

  /**
   * What binding one interface gave.
   *
   * @param model the stub's model, when nothing was reported and every type resolved
   * @param unresolved the types met that did not resolve (non-empty means "defer")
   */
  public record Outcome(Optional<StubModel> model, Set<String> unresolved) {}

  private InterfaceBinder() {}

  /** The plan of {@code method}, bound to the signature its source finds; empty when none is. */
  private static Optional<CallPlan> bind(
      Declaration.Method method, SignatureSources sources, MethodBinder methods, PyDmBinder pyDm) {
    return sources
        .of(method)
        .flatMap(
            s ->
                s instanceof FunctionSource.Typed
                    ? methods.bind(method, (FunctionSource.Typed) s)
                    : pyDm.bind(method, (FunctionSource.PyDm) s));
  }

  /** Binds every method of {@code declaration} against the reflection it names. */
  public static Outcome bind(Declaration declaration, ReflectionLoader loader, Reporter report) {
    ModuleReflection module = ModuleReflection.read(declaration, loader, report);
    SignatureSources sources = new SignatureSources(declaration, module, report);
    BindSession session = new BindSession(declaration, report);
    MethodBinder methods = new MethodBinder(session);
    PyDmBinder pyDm = new PyDmBinder(report);
    AsyncBinder async = new AsyncBinder(module, report);
    List<CallPlan> plans = new ArrayList<>();
    for (Declaration.Method method : declaration.methods()) {
      Optional<CallPlan> plan;
      if (AsyncBinder.isAsync(method)) {
        plan =
            async
                .read(method)
                .flatMap(
                    a ->
                        bind(a.view(), sources, methods, pyDm)
                            .flatMap(bound -> async.plan(method, a, bound)));
      } else {
        plan = async.checkSync(method) ? bind(method, sources, methods, pyDm) : Optional.empty();
      }
      plan.ifPresent(plans::add);
    }
    Set<String> unresolved = new LinkedHashSet<>(declaration.unresolved());
    unresolved.addAll(session.unresolvedTypes());
    if (!unresolved.isEmpty() || report.hasErrors()) {
      return new Outcome(Optional.empty(), unresolved);
    }
    return new Outcome(
        Optional.of(
            new StubModel(
                declaration.className(),
                declaration.stubName(),
                module.moduleName(),
                plans,
                declaration.memberTypeNames())),
        unresolved);
  }
}
