package dev.ireestubs.host;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.invoke.AbiValues;
import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.CallRecorder;
import dev.ireestubs.invoke.IreeException;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One function of a {@link HostModule}: checks the arguments against its signature, runs its body
 * (synchronous, or asynchronous with a stage of its results), and checks the results.
 */
final class RegisteredFunction implements BackendFunction {

  /** A function as registered, before the module exists: exactly one body is non-null. */
  record Registration(
      String localName,
      FunctionSignature signature,
      Map<String, String> reflection,
      BytecodeTypes bytecodeTypes,
      HostFunction body,
      AsyncHostFunction asyncBody) {}

  private final String moduleName;
  private final AtomicBoolean closed;
  private final CallRecorder recorder;
  private final String qualifiedName;
  private final String localName;
  private final FunctionSignature signature;
  private final Map<String, String> reflection;
  private final BytecodeTypes bytecodeTypes;
  private final String callingConvention;
  private final HostFunction body; // null for an asynchronous function
  private final AsyncHostFunction asyncBody; // null for a synchronous function

  RegisteredFunction(
      String moduleName, AtomicBoolean closed, CallRecorder recorder, Registration r) {
    this.moduleName = moduleName;
    this.closed = closed;
    this.recorder = recorder;
    this.qualifiedName = moduleName + "." + r.localName();
    this.localName = r.localName();
    this.signature = r.signature();
    this.reflection = Collections.unmodifiableMap(new LinkedHashMap<>(r.reflection()));
    this.bytecodeTypes = r.bytecodeTypes();
    this.callingConvention =
        CallingConvention.expectedFor(signature).map(CallingConvention::toString).orElse("");
    this.body = r.body();
    this.asyncBody = r.asyncBody();
  }

  @Override
  public String qualifiedName() {
    return qualifiedName;
  }

  @Override
  public String callingConvention() {
    return callingConvention;
  }

  @Override
  public Map<String, String> reflection() {
    return reflection;
  }

  @Override
  public BytecodeTypes bytecodeTypes() {
    return bytecodeTypes;
  }

  /** Calls the body (an asynchronous one is waited for), recording the call. */
  @Override
  public VmList invoke(VmList arguments) {
    checkOpen();
    long start = System.nanoTime();
    Object event = CallRecorder.begin();
    long bytesIn = 0;
    VmList results;
    try {
      AbiValues.checkArguments(signature, arguments, localName);
      bytesIn = CallRecorder.bytes(arguments);
      try {
        results =
            body != null
                ? body.call(arguments)
                : asyncBody.call(arguments).toCompletableFuture().join();
      } catch (RuntimeException e) {
        throw failure(e);
      }
      AbiValues.checkResults(signature, results, localName);
    } catch (RuntimeException e) {
      recorder.failed(qualifiedName, start, event, bytesIn, e, false);
      throw e;
    }
    recorder.succeeded(qualifiedName, start, event, bytesIn, CallRecorder.bytes(results), false);
    return results;
  }

  /**
   * Starts an asynchronous body once {@code wait} is reached; its results are checked when its
   * stage completes. A synchronous body runs as {@link BackendFunction#invokeAsync}'s default.
   */
  @Override
  public AsyncCall invokeAsync(VmList arguments, Fence wait) {
    if (asyncBody == null) {
      return BackendFunction.super.invokeAsync(arguments, wait);
    }
    checkOpen();
    AbiValues.checkArguments(signature, arguments, localName);
    long start = System.nanoTime();
    Object event = CallRecorder.begin();
    long bytesIn = CallRecorder.bytes(arguments);
    CompletionStage<VmList> started =
        wait == null || wait.isReached()
            ? start(arguments)
            : wait.whenReached()
                .handle(
                    (reached, failure) ->
                        failure == null
                            ? start(arguments)
                            : CompletableFuture.<VmList>failedFuture(waitFailed(failure)))
                .thenCompose(stage -> stage);
    return AsyncCall.of(
        started.handle(
            (results, failure) -> {
              RuntimeException failed = null;
              if (failure != null) {
                failed = failure(failure);
              } else {
                try {
                  AbiValues.checkResults(signature, results, localName);
                } catch (RuntimeException e) {
                  failed = e;
                }
              }
              if (failed != null) {
                recorder.failed(qualifiedName, start, event, bytesIn, failed, true);
                throw failed;
              }
              recorder.succeeded(
                  qualifiedName, start, event, bytesIn, CallRecorder.bytes(results), true);
              return results;
            }));
  }

  /** The body's stage, or a failed one when the body throws instead of returning it. */
  private CompletionStage<VmList> start(VmList arguments) {
    try {
      return asyncBody.call(arguments);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException(
          "host module " + moduleName + " is closed; " + qualifiedName + " cannot be called");
    }
  }

  /** The failure of a call whose wait fence failed: it never ran. */
  private IreeInvocationException waitFailed(Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    return new IreeInvocationException(
        qualifiedName + " did not run: the fence it waited for failed: " + cause, cause);
  }

  /** What a body's failure reaches the caller as: an {@link IreeException} as it is. */
  private RuntimeException failure(Throwable thrown) {
    Throwable e =
        thrown instanceof CompletionException && thrown.getCause() != null
            ? thrown.getCause()
            : thrown;
    if (e instanceof IreeException ireeException) {
      return ireeException;
    }
    return new IreeInvocationException("host function " + qualifiedName + " failed: " + e, e);
  }

  /** The signature the function was registered with (what its calls are checked against). */
  FunctionSignature registeredSignature() {
    return signature;
  }

  @Override
  public String toString() {
    return qualifiedName + signature;
  }
}
