package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.Fence;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A backend that makes the caller's future itself ({@link BackendFunction#submitAsync} overridden,
 * a {@link FencedFuture} subclass completed by {@link FencedFuture#completeCall}) keeps what {@link
 * FencedFuture#submit} promises: the argument copies live until the call is over, results nobody
 * takes are released, a list the decoder fails on is closed.
 */
class FencedFutureSubclassTest {

  /** The backend's record of a call, which is the caller's future. */
  private static final class Call<T> extends FencedFuture<T> {
    private final VmList arguments;
    private final Function<? super VmList, ? extends T> decoder;

    Call(Fence signal, VmList arguments, Function<? super VmList, ? extends T> decoder) {
      super(signal);
      this.arguments = arguments;
      this.decoder = decoder;
    }

    void over(VmList results, Throwable failure) {
      completeCall(arguments, results, failure, decoder);
    }
  }

  /** A function whose calls stay in flight until the test ends them ({@link Call#over}). */
  private static final class Deferred implements BackendFunction {
    final AtomicReference<Call<?>> last = new AtomicReference<>();

    @Override
    public <T> FencedFuture<T> submitAsync(
        VmList arguments, Fence wait, Function<? super VmList, ? extends T> decoder) {
      Call<T> call = new Call<>(Fence.of(new CompletableFuture<>()), arguments, decoder);
      last.set(call);
      return call;
    }

    @Override
    public String qualifiedName() {
      return "m.f$async";
    }

    @Override
    public String callingConvention() {
      return "0rrr_r";
    }

    @Override
    public Map<String, String> reflection() {
      return Map.of();
    }

    @Override
    public VmList invoke(VmList arguments) {
      throw new UnsupportedOperationException();
    }
  }

  private static BufferView copy() {
    return FloatArray.of(new float[] {1, 2, 3, 4}, 4).asCallArgument();
  }

  @Test
  void theBackendsFutureIsTheCallersAndDecodesWhenTheCallIsOver() throws Exception {
    Deferred f = new Deferred();
    BufferView argument = copy();
    FencedFuture<Object> r =
        FencedFuture.submit(f, VmList.of(argument), null, results -> results.size());
    assertThat(r).isSameInstanceAs(f.last.get());
    argument.pin().close(); // the call's until it is over
    ((Call<?>) r).over(VmList.of(FloatArray.of(new float[] {5}, 1).asBufferView()), null);
    assertThat(r.get()).isEqualTo(1);
    assertThrows(IllegalStateException.class, argument::pin);
  }

  @Test
  void resultsOfACancelledCallAreReleasedAndItsCopiesEndOnlyWhenItIsOver() {
    Deferred f = new Deferred();
    BufferView argument = copy();
    FencedFuture<Object> r = FencedFuture.submit(f, VmList.of(argument), null, results -> results);
    assertThat(r.cancel(false)).isTrue();
    argument.pin().close(); // cancelling the future does not end the call
    AtomicBoolean released = new AtomicBoolean();
    ((Call<?>) r)
        .over(VmList.of(OpaqueRef.withRelease("x.handle", null, () -> released.set(true))), null);
    assertThat(released.get()).isTrue();
    assertThrows(IllegalStateException.class, argument::pin);
    assertThrows(CancellationException.class, r::join);
  }

  @Test
  void aListTheDecoderFailsOnIsClosedAndAFailureFailsTheFuture() {
    Deferred f = new Deferred();
    FencedFuture<Object> decodeFails =
        FencedFuture.submit(
            f,
            VmList.of(copy()),
            null,
            results -> {
              throw IreeValueException.of(IreeValueException.Side.RESULT, "f: result", "no");
            });
    AtomicBoolean released = new AtomicBoolean();
    ((Call<?>) decodeFails)
        .over(VmList.of(OpaqueRef.withRelease("x.handle", null, () -> released.set(true))), null);
    ExecutionException e = assertThrows(ExecutionException.class, decodeFails::get);
    assertThat(e).hasCauseThat().isInstanceOf(IreeValueException.class);
    assertThat(released.get()).isTrue();

    FencedFuture<Object> failed = FencedFuture.submit(f, VmList.of(copy()), null, results -> 1);
    IreeInvocationException why = new IreeInvocationException("m.f$async failed", 13);
    ((Call<?>) failed).over(null, why);
    e = assertThrows(ExecutionException.class, failed::get);
    assertThat(e).hasCauseThat().isSameInstanceAs(why);
  }

  @Test
  void aCheckedExceptionThrownSneakilyByTheDecoderStillFailsTheFutureAndClosesTheList() {
    Deferred f = new Deferred();
    Exception checked = new java.io.IOException("read past the end");
    FencedFuture<Object> r =
        FencedFuture.submit(f, VmList.of(copy()), null, results -> sneakyThrow(checked));
    AtomicBoolean released = new AtomicBoolean();
    ((Call<?>) r)
        .over(VmList.of(OpaqueRef.withRelease("x.handle", null, () -> released.set(true))), null);

    ExecutionException e = assertThrows(ExecutionException.class, r::get);
    assertThat(e).hasCauseThat().isSameInstanceAs(checked);
    assertThat(released.get()).isTrue();
  }

  /** Throws {@code t} unchecked, as Kotlin code or Lombok's {@code @SneakyThrows} can. */
  @SuppressWarnings("unchecked")
  private static <T, X extends Throwable> T sneakyThrow(Throwable t) throws X {
    throw (X) t;
  }

  @Test
  void theDefaultSubmitsThroughInvokeAsync() throws Exception {
    BackendFunction f =
        HostModule.builder("m")
            .asyncFunction(
                "f$async",
                AbiJson.parseFunction(
                    "{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}"),
                args -> CompletableFuture.completedFuture(VmList.of(args.get(0))))
            .build()
            .function("m.f$async");
    BufferView argument = copy();
    FencedFuture<Integer> r = f.submitAsync(VmList.of(argument), null, results -> results.size());
    assertThat(r.get()).isEqualTo(1);
  }
}
