package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostFunction;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.VmList;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The dynamic invoker's copies of Java-array arguments are the call's, as a stub's are: freed once
 * the results are decoded (also when the backend or the decoding throws), unless a result still
 * holds them; whoever kept a view of one gets a clear error, never freed memory.
 */
class DynamicCallMemoryTest {

  /** 16,384 floats (64 KiB): large enough that the call frees its copy on every JDK. */
  private static final int N = 16384;

  private static final String ABI =
      "{\"a\":[[\"ndarray\",\"f32\",1,"
          + N
          + "]],\"r\":[[\"ndarray\",\"f32\",1,"
          + N
          + "]],\"v\":1}";

  /** The same function through the V0 structured ABI: inputs {x: raw 0}, results {r: raw 0}. */
  private static final Map<String, String> SIP_REFLECTION =
      Map.of("f", "I10!B7!d" + N + "R10!B7!d" + N, "sip", "I10!D7!K2!x_0R10!D7!K2!r_0");

  private static float[] values(float... head) {
    return Arrays.copyOf(head, N);
  }

  private static BackendFunction function(HostFunction body) {
    return HostModule.builder("m").function("f", ABI, body).build().function("m.f");
  }

  /** A body that remembers its argument view and reads its first float under a pin. */
  private static HostFunction remembering(AtomicReference<BufferView> seen, boolean identity) {
    return args -> {
      BufferView x = args.getBufferView(0);
      seen.set(x);
      if (identity) {
        return VmList.of(x);
      }
      float first;
      try (MemoryLease.Pin pin = x.pin()) {
        first = pin.data().order(ByteOrder.nativeOrder()).getFloat(0);
      }
      return VmList.of(FloatArray.of(values(first)).asBufferView());
    };
  }

  @Test
  void aJavaArrayArgumentsCopyIsFreedAfterTheCall() {
    AtomicReference<BufferView> seen = new AtomicReference<>();
    DynamicFunction f =
        DynamicFunction.of(function(remembering(seen, false)), AbiJson.parseFunction(ABI));
    FloatArray result = (FloatArray) f.call((Object) values(7f, 8f));
    assertThat(result.get(0)).isEqualTo(7f);
    assertThat(seen.get().isLent()).isTrue();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> seen.get().pin());
    assertThat(e).hasMessageThat().contains("already freed");
  }

  @Test
  void anIdentityFunctionsResultStaysReadableUntilClosed() {
    AtomicReference<BufferView> seen = new AtomicReference<>();
    DynamicFunction f =
        DynamicFunction.of(function(remembering(seen, true)), AbiJson.parseFunction(ABI));
    FloatArray result = (FloatArray) f.call((Object) values(1f, 2f, 3f));
    assertThat(result.toArray()).isEqualTo(values(1f, 2f, 3f)); // read after the call ended
    try (MemoryLease.Pin stillThere = seen.get().pin()) {
      assertThat(stillThere.data().capacity()).isEqualTo(4 * N);
    }
    result.close();
    assertThrows(IllegalStateException.class, () -> seen.get().pin()); // the result let it go
  }

  @Test
  void theCopyIsFreedWhenTheBackendThrows() {
    AtomicReference<BufferView> seen = new AtomicReference<>();
    DynamicFunction f =
        DynamicFunction.of(
            function(
                args -> {
                  seen.set(args.getBufferView(0));
                  throw new IllegalStateException("the body failed");
                }),
            AbiJson.parseFunction(ABI));
    assertThrows(RuntimeException.class, () -> f.call((Object) values(1f)));
    assertThrows(IllegalStateException.class, () -> seen.get().pin());
  }

  @Test
  void theCopyIsFreedWhenDecodingFails() {
    AtomicReference<BufferView> seen = new AtomicReference<>();
    BackendFunction body =
        function(
            args -> {
              seen.set(args.getBufferView(0));
              return VmList.of(FloatArray.zeros(N).asBufferView());
            });
    // Decoded as a signature whose result has another shape: the result does not fit.
    FunctionSignature wrongResult =
        AbiJson.parseFunction(
            ABI.replace("\"r\":[[\"ndarray\",\"f32\",1," + N, "\"r\":[[\"ndarray\",\"f32\",1,3"));
    DynamicFunction f = DynamicFunction.of(body, wrongResult);
    IreeValueException e =
        assertThrows(IreeValueException.class, () -> f.call((Object) values(1f)));
    assertThat(e.side()).isEqualTo(IreeValueException.Side.RESULT);
    assertThrows(IllegalStateException.class, () -> seen.get().pin());
  }

  @Test
  void theSipCodecsCopiesAreTheCallsToo() {
    AtomicReference<BufferView> seen = new AtomicReference<>();
    BackendFunction raw = function(remembering(seen, false));
    DynamicFunction f = DynamicFunction.of(new Reflecting(raw, SIP_REFLECTION));
    Object result = f.call(List.of(), Map.of("x", values(5f)));
    assertThat(((FloatArray) ((Map<?, ?>) result).get("r")).get(0)).isEqualTo(5f);
    assertThrows(IllegalStateException.class, () -> seen.get().pin());
  }

  @Test
  void arraysAndViewsTheCallerPassedAreLeftAlone() {
    AtomicReference<BufferView> seen = new AtomicReference<>();
    DynamicFunction f =
        DynamicFunction.of(function(remembering(seen, false)), AbiJson.parseFunction(ABI));
    try (FloatArray mine = FloatArray.of(values(3f))) {
      f.call(mine);
      try (MemoryLease.Pin pin = seen.get().pin()) { // the caller's array is still open
        assertThat(pin.data().order(ByteOrder.nativeOrder()).getFloat(0)).isEqualTo(3f);
      }
      assertThat(mine.get(0)).isEqualTo(3f);
    }
  }

  /** A function with other reflection (the V0 structured ABI), calling through to {@code raw}. */
  private static final class Reflecting implements BackendFunction {
    private final BackendFunction raw;
    private final Map<String, String> reflection;

    Reflecting(BackendFunction raw, Map<String, String> reflection) {
      this.raw = raw;
      this.reflection = reflection;
    }

    @Override
    public String qualifiedName() {
      return raw.qualifiedName();
    }

    @Override
    public String callingConvention() {
      return raw.callingConvention();
    }

    @Override
    public Map<String, String> reflection() {
      return reflection;
    }

    @Override
    public VmList invoke(VmList arguments) {
      return raw.invoke(arguments);
    }
  }
}
