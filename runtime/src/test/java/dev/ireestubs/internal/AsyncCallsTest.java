package dev.ireestubs.internal;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import java.nio.ByteOrder;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What an asynchronous call owns and when it lets go: argument copies are ended when the backend
 * completes the call, not when its future is cancelled or times out; results nobody takes are
 * released; results that fail their checks are closed.
 */
class AsyncCallsTest {

  /** 16,384 floats (64 KiB): large enough that a call frees its copy on every JDK. */
  private static final int N = 16384;

  private static final FunctionSignature F32_N =
      AbiJson.parseFunction(
          "{\"a\":[[\"ndarray\",\"f32\",1,"
              + N
              + "]],\"r\":[[\"ndarray\",\"f32\",1,"
              + N
              + "]],\"v\":1}");
  private static final FunctionSignature F32_4 =
      AbiJson.parseFunction(
          "{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}");

  private static float[] values(float... head) {
    return java.util.Arrays.copyOf(head, N);
  }

  private static final FunctionSignature REF =
      AbiJson.parseFunction("{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[null]}");

  /**
   * An async function that remembers its argument view and completes when {@code gate} does,
   * reading the argument then (as a device reads its inputs while the call runs).
   */
  private static BackendFunction gated(
      CompletableFuture<Void> gate, AtomicReference<BufferView> seen, AtomicReference<Float> read) {
    return HostModule.builder("m")
        .asyncFunction(
            "f$async",
            F32_N,
            args -> {
              BufferView x = args.getBufferView(0);
              seen.set(x);
              return gate.thenApply(
                  ready -> {
                    try (MemoryLease.Pin pin = x.pin()) {
                      read.set(pin.data().order(ByteOrder.nativeOrder()).getFloat(12));
                    }
                    return VmList.of(FloatArray.of(values(1, 2, 3, 4), N).asBufferView());
                  });
            })
        .build()
        .function("m.f$async");
  }

  @Test
  void aJavaArrayCopyLivesUntilTheCallIsOverThoughItsFutureWasCancelled() {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    AtomicReference<BufferView> seen = new AtomicReference<>();
    AtomicReference<Float> read = new AtomicReference<>();
    DynamicFunction f = DynamicFunction.of(gated(gate, seen, read), F32_N);
    FencedFuture<Object> r = f.callAsync((Object) values(5, 6, 7, 8));
    assertThat(seen.get().isLent()).isTrue();
    assertThat(r.cancel(true)).isTrue();
    // The call goes on: its argument is still the call's.
    seen.get().pin().close();
    gate.complete(null);
    assertThat(read.get()).isEqualTo(8f);
    assertThat(r.signal().isReached()).isTrue();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> seen.get().pin());
    assertThat(e).hasMessageThat().contains("already freed");
    assertThrows(CancellationException.class, r::join);
  }

  @Test
  void aTimeoutDoesNotEndTheCall() throws Exception {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    AtomicReference<BufferView> seen = new AtomicReference<>();
    AtomicReference<Float> read = new AtomicReference<>();
    DynamicFunction f = DynamicFunction.of(gated(gate, seen, read), F32_N);
    CompletableFuture<Object> r =
        f.callAsync((Object) values(5, 6, 7, 8)).orTimeout(10, TimeUnit.MILLISECONDS);
    ExecutionException timedOut = assertThrows(ExecutionException.class, r::get);
    assertThat(timedOut).hasCauseThat().isInstanceOf(TimeoutException.class);
    seen.get().pin().close();
    gate.complete(null);
    assertThat(read.get()).isEqualTo(8f);
    assertThrows(IllegalStateException.class, () -> seen.get().pin());
  }

  @Test
  void resultsThatArriveAfterACancellationAreReleased() {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    AtomicBoolean released = new AtomicBoolean();
    BackendFunction f =
        HostModule.builder("m")
            .asyncFunction(
                "f$async",
                REF,
                args ->
                    gate.thenApply(
                        ready ->
                            VmList.of(
                                OpaqueRef.withRelease("x.handle", null, () -> released.set(true)))))
            .build()
            .function("m.f$async");
    FencedFuture<Object> r =
        DynamicFunction.of(f, REF).callAsync(FloatArray.of(new float[] {1, 2, 3, 4}, 4));
    r.cancel(false);
    gate.complete(null);
    assertThat(released.get()).isTrue();
  }

  @Test
  void aResultThatFailsItsChecksFailsTheFutureAndClosesTheList() {
    AtomicBoolean released = new AtomicBoolean();
    BackendFunction f =
        HostModule.builder("m")
            .asyncFunction(
                "f$async",
                REF,
                args ->
                    CompletableFuture.completedFuture(
                        VmList.of(
                            OpaqueRef.withRelease("x.handle", null, () -> released.set(true)))))
            .build()
            .function("m.f$async");
    FencedFuture<Object> r =
        AsyncCalls.submit(
            f,
            VmList.of(FloatArray.of(new float[] {1, 2, 3, 4}, 4).asBufferView()),
            null,
            results -> failing());
    ExecutionException e = assertThrows(ExecutionException.class, r::get);
    assertThat(e).hasCauseThat().isInstanceOf(IreeValueException.class);
    assertThat(released.get()).isTrue();
  }

  private static Object failing() {
    throw IreeValueException.of(IreeValueException.Side.RESULT, "f$async: result", "not wanted");
  }

  @Test
  void theResultCountIsChecked() {
    BackendFunction f =
        HostModule.builder("m")
            .asyncFunction(
                "f$async",
                F32_4,
                args ->
                    CompletableFuture.completedFuture(
                        VmList.of(FloatArray.of(new float[] {1, 2, 3, 4}, 4).asBufferView())))
            .build()
            .function("m.f$async");
    FencedFuture<Object> r =
        AsyncCalls.submit(
            f,
            VmList.of(FloatArray.of(new float[] {1, 2, 3, 4}, 4).asBufferView()),
            null,
            results -> Marshal.results(results, 2, "f$async"));
    ExecutionException e = assertThrows(ExecutionException.class, r::get);
    assertThat(e)
        .hasCauseThat()
        .hasMessageThat()
        .isEqualTo("f$async: expected 2 results but the function returned 1");
  }

  @Test
  void aRefusedSubmissionEndsTheCallsCopiesAndThrows() {
    BackendFunction f =
        HostModule.builder("m")
            .asyncFunction("f$async", F32_4, args -> new CompletableFuture<>())
            .build()
            .function("m.f$async");
    AbiType.NdArray longer =
        (AbiType.NdArray)
            AbiJson.parseFunction("{\"a\":[[\"ndarray\",\"f32\",1," + (N + 1) + "]],\"r\":[]}")
                .arguments()
                .get(0);
    BufferView copy =
        CallMemory.copyArgument(java.util.Arrays.copyOf(values(), N + 1), longer, "f$async: x");
    assertThrows(
        IreeValueException.class,
        () -> AsyncCalls.submit(f, VmList.of(copy), null, results -> results));
    assertThrows(IllegalStateException.class, copy::pin);
  }
}
