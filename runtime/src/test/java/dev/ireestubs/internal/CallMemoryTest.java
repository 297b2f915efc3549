package dev.ireestubs.internal;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.host.HostFunction;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.VmList;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A stub's call owning the copies of its Java-array arguments, called here as generated code calls
 * it: copy, invoke, decode, end. The copy is freed when the call ends unless a result or the
 * backend still holds it; whoever kept it gets its bytes or a clear error, never freed memory.
 */
class CallMemoryTest {

  /** 16,384 floats (64 KiB): large enough that the call frees its copy on every JDK. */
  private static final int N = 16384;

  private static final String ABI =
      "{\"a\":[[\"ndarray\",\"f32\",1,"
          + N
          + "]],\"r\":[[\"ndarray\",\"f32\",1,"
          + N
          + "]],\"v\":1}";

  /** {@code N} floats starting with {@code head}, zeros after. */
  private static float[] values(float... head) {
    return java.util.Arrays.copyOf(head, N);
  }

  private static final AbiType.NdArray F32_N =
      (AbiType.NdArray) AbiJson.parseFunction(ABI).arguments().get(0);

  /**
   * {@code f(float[] x) -> float[]} as a stub makes the call, the result decoded to a Java array.
   */
  private static float[] callToJavaArray(BackendFunction f, float[] x) {
    VmList arguments = VmList.variant(1);
    arguments.push(CallMemory.copyArgument(x, F32_N, "f: x"));
    VmList results = Marshal.results(f.invoke(arguments), 1, "f");
    try {
      return (float[])
          CallMemory.toJavaArray(StubMarshal.floatArray(results, 0, F32_N, "f: result"));
    } finally {
      CallMemory.endCall(arguments);
    }
  }

  /** The same call returning the result array itself. */
  private static FloatArray callToArray(BackendFunction f, float[] x) {
    VmList arguments = VmList.variant(1);
    arguments.push(CallMemory.copyArgument(x, F32_N, "f: x"));
    VmList results = Marshal.results(f.invoke(arguments), 1, "f");
    try {
      return StubMarshal.floatArray(results, 0, F32_N, "f: result");
    } finally {
      CallMemory.endCall(arguments);
    }
  }

  private static BackendFunction function(HostFunction body) {
    return HostModule.builder("m").function("f", ABI, body).build().function("m.f");
  }

  @Test
  void theCopyIsFreedWhenTheCallEnds() {
    AtomicReference<BufferView> seen = new AtomicReference<>();
    BackendFunction f =
        function(
            args -> {
              BufferView x = args.getBufferView(0);
              seen.set(x);
              float first;
              try (MemoryLease.Pin pin = x.pin()) { // read for the call: no escape
                first = pin.data().order(java.nio.ByteOrder.nativeOrder()).getFloat(0);
              }
              return VmList.of(FloatArray.of(values(first)).asBufferView());
            });
    assertThat(callToJavaArray(f, values(1f, 2f, 3f))).isEqualTo(values(1f, 0f, 0f));
    // The function kept the view: it cannot reach the freed bytes, it gets an error instead.
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> seen.get().pin());
    assertThat(e).hasMessageThat().contains("already freed");
    assertThrows(IllegalStateException.class, () -> seen.get().data());
  }

  @Test
  void anIdentityFunctionsResultKeepsTheCopyAlive() {
    AtomicReference<BufferView> seen = new AtomicReference<>();
    BackendFunction identity =
        function(
            args -> {
              seen.set(args.getBufferView(0));
              return VmList.of(args.getBufferView(0));
            });
    FloatArray result = callToArray(identity, values(1f, 2f, 3f));
    assertThat(result.toArray()).isEqualTo(values(1f, 2f, 3f)); // read after the call ended
    try (MemoryLease.Pin stillThere = seen.get().pin()) {
      assertThat(stillThere.data().capacity()).isEqualTo(4 * N);
    }
    result.close();
    assertThrows(IllegalStateException.class, () -> seen.get().pin()); // now freed
    assertThat(callToJavaArray(identity, values(4f, 5f, 6f))).isEqualTo(values(4f, 5f, 6f));
    assertThrows(IllegalStateException.class, () -> seen.get().pin()); // decoded, closed, freed
  }

  @Test
  void rawBytesAFunctionKeptStayReadable() {
    AtomicReference<ByteBuffer> kept = new AtomicReference<>();
    BackendFunction f =
        function(
            args -> {
              kept.set(args.getBufferView(0).data()); // handed out: escapes
              return VmList.of(FloatArray.zeros(N).asBufferView());
            });
    callToJavaArray(f, values(1f, 2f, 3f));
    assertThat(kept.get().asFloatBuffer().get(2)).isEqualTo(3f); // never freed under it
  }

  @Test
  void aValueFunctionThatKeepsItsArgumentGetsItsBytesOrAClearError() {
    AtomicReference<NdArray> kept = new AtomicReference<>();
    BackendFunction f =
        HostModule.builder("m")
            .valueFunction(
                "f",
                ABI,
                args -> {
                  kept.set((NdArray) args.get(0));
                  return args.get(0); // an identity function, written with Java values
                })
            .build()
            .function("m.f");
    assertThat(callToJavaArray(f, values(1f, 2f, 3f))).isEqualTo(values(1f, 2f, 3f));
    if (Runtime.version().feature() >= 22) {
      // Arena memory: the argument array was closed when the function returned.
      assertThrows(IllegalStateException.class, () -> ((FloatArray) kept.get()).toArray());
    } else {
      // JDK 17-21: the argument stays open and pins its memory, left to the garbage collector.
      assertThat(((FloatArray) kept.get()).toArray()).isEqualTo(values(1f, 2f, 3f));
    }
  }

  @Test
  void aCopyThatDoesNotFitIsClosedAndReported() {
    IreeValueException e =
        assertThrows(
            IreeValueException.class,
            () -> CallMemory.copyArgument(new float[] {1f, 2f}, F32_N, "f: x"));
    assertThat(e).hasMessageThat().contains("f: x");
  }

  @Test
  void endCallLeavesTheCallersOwnArraysAlone() {
    FloatArray mine = FloatArray.of(values(1f, 2f, 3f));
    VmList arguments = VmList.variant(2);
    arguments.push(Marshal.array(mine, F32_N, "f: x"));
    VmList nested = VmList.variant(1);
    nested.push(CallMemory.copyArgument(values(1f, 2f, 3f), F32_N, "f: y"));
    arguments.push(nested);
    BufferView copy = nested.getBufferView(0);
    CallMemory.endCall(arguments);
    assertThat(mine.isClosed()).isFalse();
    assertThrows(IllegalStateException.class, copy::pin); // the nested copy was ended and freed
  }

  @Test
  void endCallEndsAListThatHoldsItselfAndIgnoresAClosedOne() {
    VmList arguments = VmList.variant(2);
    arguments.push(CallMemory.copyArgument(values(1f), F32_N, "f: x"));
    arguments.push(arguments); // ended as far as the depth bound, then left
    BufferView copy = arguments.getBufferView(0);
    arguments.endCall();
    assertThrows(IllegalStateException.class, copy::pin);
    VmList closed = VmList.variant(1);
    closed.push(CallMemory.copyArgument(values(2f), F32_N, "f: y"));
    closed.close();
    closed.endCall(); // nothing to end, and no use of the closed list: closing released it
    assertThat(closed.isClosed()).isTrue();
  }
}
