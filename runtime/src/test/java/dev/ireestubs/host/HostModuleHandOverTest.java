package dev.ireestubs.host;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.MemoryLease;
import dev.ireestubs.vm.VmList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The arrays a value function returns pass to the caller with their memory: the caller's close of
 * the result frees it (no memory left to the garbage collector), arguments returned stay the
 * caller's, and an array the function keeps cannot be returned twice.
 */
class HostModuleHandOverTest {

  private static final String VECTOR = "[\"ndarray\",\"f32\",1,4]";
  private static final FunctionSignature ONE =
      AbiJson.parseFunction("{\"a\":[" + VECTOR + "],\"r\":[" + VECTOR + "],\"v\":1}");
  private static final FunctionSignature TWO =
      AbiJson.parseFunction(
          "{\"a\":[" + VECTOR + "],\"r\":[" + VECTOR + "," + VECTOR + "],\"v\":1}");
  private static final FunctionSignature NESTED =
      AbiJson.parseFunction(
          "{\"a\":["
              + VECTOR
              + "],\"r\":[[\"sdict\",[\"scaled\","
              + VECTOR
              + "],[\"parts\",[\"slist\","
              + VECTOR
              + ","
              + VECTOR
              + "]]]],\"v\":1}");

  /** What the bodies made, to look at after the call. */
  private final List<NdArray> made = new ArrayList<>();

  private final List<BufferView> lent = new ArrayList<>();

  /** A new array of {@code x + add}, recorded with the view the result list carries. */
  private FloatArray plus(Object x, float add) {
    float[] values = ((FloatArray) x).toArray();
    for (int i = 0; i < values.length; i++) {
      values[i] += add;
    }
    FloatArray out = FloatArray.of(values, 4);
    made.add(out);
    lent.add(out.asBufferView());
    return out;
  }

  private static FloatArray input() {
    return FloatArray.of(new float[] {1, 2, 3, 4}, 4);
  }

  private static DynamicFunction function(HostModule m, String name, FunctionSignature s) {
    return DynamicFunction.of(m.lookup("m." + name).orElseThrow(), s);
  }

  /**
   * True once the memory under {@code view} was freed (given back to the pool). Takes a hold and
   * releases it: only after the caller has read the result, whose first hold is the hand-over's.
   */
  private static boolean freed(BufferView view) {
    try {
      view.pin().close();
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  @Test
  void aNewResultArrayIsFreedWhenTheCallerClosesTheResult() {
    HostModule m = HostModule.builder("m").valueFunction("f", ONE, a -> plus(a.get(0), 1)).build();
    try (FloatArray x = input()) {
      FloatArray result = (FloatArray) function(m, "f", ONE).call(x);
      assertThat(result.toArray()).isEqualTo(new float[] {2, 3, 4, 5});
      NdArray returned = made.get(0);
      assertThat(returned.isClosed()).isTrue(); // the function's array is the caller's now
      assertThat(
              assertThrows(IllegalStateException.class, () -> ((FloatArray) returned).getFlat(0)))
          .hasMessageThat()
          .contains("was handed over");
      assertThat(freed(lent.get(0))).isFalse();
      result.close();
      assertThat(freed(lent.get(0))).isTrue(); // back in the pool, not left to the collector
    }
  }

  /**
   * A hold taken on the array before it was returned (a backend that imported it and releases it
   * later, on its own schedule) does not free the handed-over memory under the caller.
   */
  @Test
  void aPinFromBeforeTheHandOverReleasedFirstDoesNotFreeTheResult() {
    List<MemoryLease.Pin> pins = new ArrayList<>();
    HostModule m =
        HostModule.builder("m")
            .valueFunction(
                "f",
                ONE,
                a -> {
                  FloatArray out = plus(a.get(0), 1);
                  pins.add(out.asBufferView().pin());
                  return out;
                })
            .build();
    try (FloatArray x = input()) {
      VmList results = m.lookup("m.f").orElseThrow().invoke(VmList.of(x.asBufferView()));
      pins.get(0).close(); // released before the caller reads the result
      FloatArray result = FloatArray.fromBufferView(results.getBufferView(0));
      assertThat(result.toArray()).isEqualTo(new float[] {2, 3, 4, 5});
      result.close();
      assertThat(freed(lent.get(0))).isTrue();
    }
  }

  @Test
  void anArgumentReturnedStaysTheCallers() {
    HostModule m = HostModule.builder("m").valueFunction("f", ONE, a -> a.get(0)).build();
    FloatArray x = input();
    BufferView xView = x.asBufferView();
    FloatArray result = (FloatArray) function(m, "f", ONE).call(x);
    result.close();
    assertThat(x.isClosed()).isFalse();
    assertThat(x.toArray()).isEqualTo(new float[] {1, 2, 3, 4});
    assertThat(freed(xView)).isFalse();
    x.close();
    // Below JDK 22 the function's argument array stays open (DynamicHostFunction) and keeps it.
    assertThat(freed(xView)).isEqualTo(Runtime.version().feature() >= 22);
  }

  @Test
  void theSameArrayTwiceInOneResultIsFreedWhenBothAreClosed() {
    HostModule m =
        HostModule.builder("m")
            .valueFunction(
                "f",
                TWO,
                a -> {
                  FloatArray once = plus(a.get(0), 1);
                  return List.of(once, once);
                })
            .build();
    try (FloatArray x = input()) {
      List<?> results = (List<?>) function(m, "f", TWO).call(x);
      FloatArray first = (FloatArray) results.get(0);
      FloatArray second = (FloatArray) results.get(1);
      first.close();
      assertThat(second.toArray()).isEqualTo(new float[] {2, 3, 4, 5});
      assertThat(freed(lent.get(0))).isFalse();
      second.close();
      assertThat(freed(lent.get(0))).isTrue();
    }
  }

  @Test
  void anArrayKeptAndReturnedAgainFailsClearly() {
    FloatArray kept = FloatArray.of(new float[] {7, 7, 7, 7}, 4);
    HostModule m = HostModule.builder("m").valueFunction("f", ONE, a -> kept).build();
    DynamicFunction f = function(m, "f", ONE);
    try (FloatArray x = input()) {
      FloatArray first = (FloatArray) f.call(x);
      assertThat(first.toArray()).isEqualTo(new float[] {7, 7, 7, 7});
      IreeInvocationException e = assertThrows(IreeInvocationException.class, () -> f.call(x));
      assertThat(e).hasCauseThat().isInstanceOf(IllegalStateException.class);
      assertThat(e)
          .hasMessageThat()
          .contains("was handed over: a host module's value function returned it");
      assertThat(e).hasMessageThat().contains("return a new array or a copy()");
      // The first caller's result is untouched by the failed call.
      assertThat(first.toArray()).isEqualTo(new float[] {7, 7, 7, 7});
      first.close();
    }
  }

  record Scaled(FloatArray scaled, List<FloatArray> parts) {}

  @Test
  void arraysNestedInMapsListsAndRecordsAreHandedOver() {
    HostModule m =
        HostModule.builder("m")
            .valueFunction(
                "asMap",
                NESTED,
                a ->
                    Map.of(
                        "scaled",
                        plus(a.get(0), 1),
                        "parts",
                        List.of(plus(a.get(0), 2), plus(a.get(0), 3))))
            .valueFunction(
                "asRecord",
                NESTED,
                a -> new Scaled(plus(a.get(0), 4), List.of(plus(a.get(0), 5), plus(a.get(0), 6))))
            .build();
    try (FloatArray x = input()) {
      for (String name : List.of("asMap", "asRecord")) {
        made.clear();
        lent.clear();
        Map<?, ?> result = (Map<?, ?>) function(m, name, NESTED).call(x);
        assertThat(made).hasSize(3);
        assertThat(made.stream().allMatch(NdArray::isClosed)).isTrue();
        ((FloatArray) result.get("scaled")).close();
        ((List<?>) result.get("parts")).forEach(part -> ((FloatArray) part).close());
        for (BufferView view : lent) {
          assertThat(freed(view)).isTrue();
        }
      }
    }
  }

  @Test
  void anAsynchronousFunctionsResultIsHandedOverToo() throws Exception {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    HostModule m =
        HostModule.builder("m")
            .asyncValueFunction("f$async", ONE, a -> gate.thenApply(ready -> plus(a.get(0), 1)))
            .build();
    try (FloatArray x = input()) {
      var call = function(m, "f$async", m.signature("f$async").orElseThrow()).callAsync(x);
      gate.complete(null);
      FloatArray result = (FloatArray) call.get();
      assertThat(result.toArray()).isEqualTo(new float[] {2, 3, 4, 5});
      assertThat(made.get(0).isClosed()).isTrue();
      result.close();
      assertThat(freed(lent.get(0))).isTrue();
    }
  }

  @Test
  void aResultThatFailsToPackClosesTheArraysBeforeItAndLeavesArgumentsAlone() {
    HostModule m =
        HostModule.builder("m")
            .valueFunction(
                "f",
                TWO,
                a -> {
                  List<Object> both = new ArrayList<>();
                  both.add(plus(a.get(0), 1));
                  both.add(a.get(0)); // the argument, passed as it is
                  both.add("not an array");
                  return both; // three values for two results
                })
            .valueFunction(
                "g",
                TWO,
                a -> {
                  List<Object> both = new ArrayList<>();
                  both.add(plus(a.get(0), 1));
                  both.add("not an array");
                  return both;
                })
            .build();
    try (FloatArray x = input()) {
      for (String name : List.of("f", "g")) {
        made.clear();
        lent.clear();
        DynamicFunction f = function(m, name, TWO);
        IreeValueException e = assertThrows(IreeValueException.class, () -> f.call(x));
        assertThat(e).hasMessageThat().contains(name + ": result");
        assertThat(made.get(0).isClosed()).isTrue();
        assertThat(freed(lent.get(0))).isTrue(); // freed at once: neither leaked nor handed over
        assertThat(x.toArray()).isEqualTo(new float[] {1, 2, 3, 4}); // the caller's, untouched
      }
    }
  }
}
