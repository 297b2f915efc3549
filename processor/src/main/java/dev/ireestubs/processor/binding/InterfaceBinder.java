package dev.ireestubs.processor.binding;

import dev.ireestubs.processor.declaration.Declaration;
import dev.ireestubs.processor.diagnostics.Reporter;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.processor.source.FunctionSource;
import dev.ireestubs.processor.source.InterfaceSources;
import dev.ireestubs.processor.source.MethodSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The third step: binds every method of one interface to the signature the sources step found for
 * it ({@link MethodBinder}; {@link PyDmBinder} for IREEPyDM functions; an asynchronous method as
 * its plain call, made asynchronous) and assembles the {@link StubModel}, reporting every mismatch.
 * Works on plain values alone: no compiler type goes in or out, and no file is read.
 */
public final class InterfaceBinder {

  private InterfaceBinder() {}

  /**
   * The model of {@code declaration}'s stub, its methods bound to {@code sources}; empty when
   * something was reported (here or before) or a type did not resolve.
   */
  public static Optional<StubModel> bind(
      Declaration declaration, InterfaceSources sources, Reporter report) {
    BindSession session = new BindSession(declaration, report);
    MethodBinder methods = new MethodBinder(session);
    PyDmBinder pyDm = new PyDmBinder(report);
    List<CallPlan> plans = new ArrayList<>();
    for (MethodSource m : sources.methods()) {
      Optional<CallPlan> plan =
          m.function() instanceof FunctionSource.Typed typed
              ? methods.bind(m.method(), typed)
              : pyDm.bind(m.method(), (FunctionSource.PyDm) m.function());
      plan.map(p -> m.async().map(a -> async(p, a)).orElse(p)).ifPresent(plans::add);
    }
    if (!declaration.unresolved().isEmpty() || report.hasErrors()) {
      return Optional.empty();
    }
    return Optional.of(
        new StubModel(
            declaration.className(),
            declaration.stubName(),
            sources.moduleName(),
            plans,
            declaration.memberTypeNames(),
            declaration.marksGenerated()));
  }

  /**
   * The asynchronous call of the plain plan {@code plan}: the sources step checked that its
   * function takes fences (so it has no V0 SIP structure, and {@link MethodBinder} made it plain).
   */
  private static CallPlan async(CallPlan plan, MethodSource.Async async) {
    if (!(plan instanceof CallPlan.Plain plain)) {
      throw new IllegalStateException(
          "an asynchronous call of a " + plan.getClass().getSimpleName());
    }
    return new CallPlan.Async(
        plain.method(),
        plain.result(),
        async.fenced() ? CallPlan.Future.FENCED : CallPlan.Future.COMPLETABLE,
        async.waitParameter());
  }
}
