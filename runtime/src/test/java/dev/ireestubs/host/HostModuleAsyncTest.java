package dev.ireestubs.host;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.invoke.AsyncCall;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.FencedFuture;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Asynchronous functions written in Java: calls return at once, complete when the body's stage
 * does, wait for their wait fence, and fail as IREE's would; a fake of a {@code .vmfb} with an
 * {@code f$async} export is asynchronous by itself.
 */
class HostModuleAsyncTest {

  private static final String DOUBLE_ABI =
      "{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}";
  private static final FunctionSignature DOUBLE = AbiJson.parseFunction(DOUBLE_ABI);

  @TempDir Path dir;

  /** An async value function whose calls complete when the test completes {@code gate}. */
  private static HostModule gated(CompletableFuture<Void> gate, AtomicInteger started) {
    return HostModule.builder("m")
        .asyncValueFunction(
            "double$async",
            DOUBLE,
            args -> {
              started.incrementAndGet();
              float[] x = ((FloatArray) args.get(0)).toArray();
              return gate.thenApply(
                  ready -> {
                    for (int i = 0; i < x.length; i++) {
                      x[i] *= 2;
                    }
                    return FloatArray.of(x, 4);
                  });
            })
        .build();
  }

  private static FloatArray input() {
    return FloatArray.of(new float[] {1, 2, 3, 4}, 4);
  }

  @Test
  void anAsyncFunctionHasTheFencesInItsCallingConventionAndTheModelInItsReflection() {
    HostModule m = gated(CompletableFuture.completedFuture(null), new AtomicInteger());
    BackendFunction f = m.function("m.double$async");
    assertThat(f.callingConvention()).isEqualTo("0rrr_r");
    assertThat(f.reflection()).containsEntry(Reflection.MODEL, Reflection.COARSE_FENCES);
    assertThat(m.signature("double$async").orElseThrow().model())
        .isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
  }

  @Test
  void aCallReturnsAtOnceAndCompletesWithTheBodysStage() throws Exception {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    HostModule m = gated(gate, new AtomicInteger());
    DynamicFunction f = DynamicFunction.of(m.function("m.double$async"));
    FencedFuture<Object> result = f.callAsync(input());
    assertThat(result.isDone()).isFalse();
    assertThat(result.signal().isReached()).isFalse();
    gate.complete(null);
    assertThat(((FloatArray) result.get()).toArray()).isEqualTo(new float[] {2, 4, 6, 8});
    assertThat(result.signal().isReached()).isTrue();
  }

  @Test
  void aSynchronousCallOfAnAsyncFunctionWaitsForIt() {
    HostModule m = gated(CompletableFuture.completedFuture(null), new AtomicInteger());
    Object r = DynamicFunction.of(m.function("m.double$async")).call(input());
    assertThat(((FloatArray) r).toArray()).isEqualTo(new float[] {2, 4, 6, 8});
  }

  @Test
  void aCallWaitsForItsWaitFenceBeforeTheBodyStarts() throws Exception {
    AtomicInteger started = new AtomicInteger();
    HostModule m = gated(CompletableFuture.completedFuture(null), started);
    DynamicFunction f = DynamicFunction.of(m.function("m.double$async"));
    CompletableFuture<Void> ready = new CompletableFuture<>();
    FencedFuture<Object> first = f.callAsync(List.of(input()), Map.of(), Fence.of(ready));
    FencedFuture<Object> second = f.callAsync(List.of(input()), Map.of(), first.signal());
    assertThat(started.get()).isEqualTo(0);
    assertThat(first.isDone() || second.isDone()).isFalse();
    ready.complete(null);
    assertThat(((FloatArray) second.get()).get(3)).isEqualTo(8f);
    assertThat(first.isDone()).isTrue();
    assertThat(started.get()).isEqualTo(2);
  }

  @Test
  void aFailedWaitFenceFailsTheCallWithoutRunningIt() {
    AtomicInteger started = new AtomicInteger();
    HostModule m = gated(CompletableFuture.completedFuture(null), started);
    CompletableFuture<Void> input = new CompletableFuture<>();
    FencedFuture<Object> r =
        DynamicFunction.of(m.function("m.double$async"))
            .callAsync(List.of(input()), Map.of(), Fence.of(input));
    input.completeExceptionally(new IllegalStateException("no frame"));
    ExecutionException e = assertThrows(ExecutionException.class, r::get);
    assertThat(e).hasCauseThat().isInstanceOf(IreeInvocationException.class);
    assertThat(e.getCause())
        .hasMessageThat()
        .contains("m.double$async did not run: the fence it waited for failed");
    assertThat(e.getCause()).hasCauseThat().hasMessageThat().isEqualTo("no frame");
    assertThat(started.get()).isEqualTo(0);
    assertThat(r.signal().isReached()).isFalse();
  }

  @Test
  void aBodyThatFailsFailsTheFutureWithAnInvocationException() {
    HostModule m =
        HostModule.builder("m")
            .asyncFunction(
                "f$async",
                DOUBLE,
                args -> CompletableFuture.failedFuture(new ArithmeticException("overflow")))
            .asyncFunction(
                "g$async",
                DOUBLE,
                args -> {
                  throw new ArithmeticException("at once");
                })
            .build();
    for (String name : List.of("m.f$async", "m.g$async")) {
      FencedFuture<Object> r = DynamicFunction.of(m.function(name)).callAsync(input());
      ExecutionException e = assertThrows(ExecutionException.class, r::get);
      assertThat(e).hasCauseThat().isInstanceOf(IreeInvocationException.class);
      assertThat(e.getCause()).hasMessageThat().startsWith("host function " + name + " failed");
      assertThat(e.getCause()).hasCauseThat().isInstanceOf(ArithmeticException.class);
      IreeInvocationException sync =
          assertThrows(
              IreeInvocationException.class,
              () -> DynamicFunction.of(m.function(name)).call(input()));
      assertThat(sync).hasCauseThat().isInstanceOf(ArithmeticException.class);
    }
  }

  @Test
  void resultsAreCheckedWhenTheStageCompletesAndArgumentsAtOnce() {
    HostModule m =
        HostModule.builder("m")
            .asyncFunction(
                "f$async",
                DOUBLE,
                args -> CompletableFuture.completedFuture(VmList.of(VmValue.i32(1))))
            .build();
    DynamicFunction f = DynamicFunction.of(m.function("m.f$async"));
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.callAsync(input()).get());
    assertThat(e).hasCauseThat().isInstanceOf(IreeValueException.class);
    assertThat(((IreeValueException) e.getCause()).side())
        .isEqualTo(IreeValueException.Side.RESULT);
    IreeValueException wrong =
        assertThrows(
            IreeValueException.class, () -> f.callAsync(FloatArray.of(new float[] {1, 2}, 2)));
    assertThat(wrong.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
  }

  @Test
  void aSynchronousFunctionCalledAsynchronouslyRunsAtOnce() throws Exception {
    HostModule m =
        HostModule.builder("m")
            .function(
                "add",
                "{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"]}",
                args -> VmList.of(VmValue.i32(args.getValue(0).asI32() + args.getValue(1).asI32())))
            .build();
    AsyncCall call =
        m.function("m.add").invokeAsync(VmList.of(VmValue.i32(2), VmValue.i32(3)), null);
    assertThat(call.signal().isReached()).isTrue();
    assertThat(call.results().get().getValue(0).asI32()).isEqualTo(5);
    FencedFuture<Object> r = DynamicFunction.of(m.function("m.add")).callAsync(2, 3);
    assertThat(r.get()).isEqualTo(5);
  }

  @Test
  void aClosedModuleRefusesAsyncCalls() {
    HostModule m = gated(CompletableFuture.completedFuture(null), new AtomicInteger());
    BackendFunction f = m.function("m.double$async");
    m.close();
    assertThrows(
        IllegalStateException.class, () -> f.invokeAsync(VmList.of(input().asBufferView()), null));
  }

  /** A module like micro_speech: f (0r_r) and its twin f$async (0rrr_r), no reflection. */
  private Path twins() throws IOException {
    TestModules.Spec spec =
        TestModules.spec()
            .name("module")
            .bytecodeVersion(17, 0)
            .function("f$async", "0rrr_r")
            .function("f", "0r_r");
    spec.export("f$async", 0, null);
    spec.export("f", 1, null);
    return Files.write(dir.resolve("twins.vmfb"), spec.ireeZip());
  }

  @Test
  void aFakeOfAModuleWithAnAsyncTwinIsAsynchronous() throws Exception {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    HostModule fake =
        HostModule.fake(
            twins(),
            Map.of(
                "f$async", args -> gate.thenApply(ready -> args.get(0)),
                "f", args -> args.get(0)));
    BackendFunction async = fake.function("module.f$async");
    assertThat(async.callingConvention()).isEqualTo("0rrr_r");
    assertThat(fake.signature("f$async").orElseThrow().model())
        .isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
    FloatArray x = input();
    FencedFuture<Object> r = DynamicFunction.of(async).callAsync(x);
    assertThat(r.isDone()).isFalse();
    gate.complete(null);
    try (FloatArray y = FloatArray.fromBufferView((dev.ireestubs.vm.BufferView) r.get())) {
      assertThat(y.toArray()).isEqualTo(new float[] {1, 2, 3, 4});
    }
    assertThat(DynamicFunction.of(fake.function("module.f")).call(x)).isNotNull();
  }

  @Test
  void anAsyncBodyForASynchronousExportIsRefused() throws IOException {
    HostModule.Builder b = HostModule.builder(dev.ireestubs.vmfb.VmfbReader.read(twins()));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> b.asyncFunction("f", args -> CompletableFuture.completedFuture(args)));
    assertThat(e).hasMessageThat().contains("export 'f' is synchronous (calling convention 0r_r");
    assertThat(e).hasMessageThat().contains("fake its asynchronous twin f$async");
  }
}
