package dev.ireestubs.host;

import dev.ireestubs.vm.VmList;
import java.util.concurrent.CompletionStage;

/**
 * The body of an asynchronous function in a {@link HostModule}: a function of the coarse-fences
 * model written in Java, to fake an asynchronous model ({@code f$async}) without IREE. It takes the
 * VM argument list (already checked) and returns at once a stage of the VM result list (checked
 * when it completes); the call's signal fence is reached when the stage completes, so stubs and
 * {@link dev.ireestubs.invoke.DynamicFunction#callAsync} see exactly what IREE's backend would give
 * them, and a synchronous call of the function waits for the stage.
 *
 * <p><b>Arguments are valid until the stage completes.</b> Their memory is lent for the call, which
 * lasts until then (see {@link HostFunction} for reading it): the body may read them on another
 * thread, and must be done with them when it completes the stage. Must be safe to call from several
 * threads at once if the module is shared between threads.
 */
@FunctionalInterface
public interface AsyncHostFunction {

  /**
   * Starts the function.
   *
   * @param arguments one element per declared argument, fences excluded; valid until the returned
   *     stage completes
   * @return a stage completed with one element per raw result, or exceptionally when the function
   *     fails (an exception that is not an {@code IreeException} arrives as the cause of an {@code
   *     IreeInvocationException})
   */
  CompletionStage<VmList> call(VmList arguments);
}
