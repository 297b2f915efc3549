package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checks a function makes before anything reaches IREE; no library needed. */
class IreeFunctionTest {

  private static IreeFunction function(String name, String cconv, Map<String, String> attrs) {
    return new IreeFunction(name, MemorySegment.NULL, cconv, attrs);
  }

  private static BufferView vector() {
    return BufferView.allocate(0x21000020, 4);
  }

  @Test
  void exposesCallingConventionAndReflection() {
    Map<String, String> attrs =
        Map.of(
            "iree.abi.declaration",
            "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
                + " tensor<4xf32>)");
    IreeFunction f = function("module.add", "0rr_r", attrs);
    assertThat(f.qualifiedName()).isEqualTo("module.add");
    assertThat(f.callingConvention()).isEqualTo("0rr_r");
    assertThat(f.reflection()).isEqualTo(attrs);
    assertThat(f.resultCount()).isEqualTo(1);
    assertThat(function("module.multi_output", "0rr_rr", Map.of()).resultCount()).isEqualTo(2);
    assertThat(f.toString()).isEqualTo("module.add 0rr_r");
    assertThrows(UnsupportedOperationException.class, () -> f.reflection().put("k", "v"));
  }

  @Test
  void argumentCountMustMatchTheCallingConvention() {
    IreeFunction f = function("module.add", "0rr_r", Map.of());
    IreeValueException e =
        assertThrows(IreeValueException.class, () -> f.checkArguments(VmList.of(vector())));
    assertThat(e.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "module.add: arguments: expected 2 arguments (calling convention 0rr_r) but got 1");
    f.checkArguments(VmList.of(vector(), vector()));
    f.checkArguments(VmList.of(vector(), null)); // a null ref is for IREE to judge
  }

  @Test
  void aValueCannotGoWhereARefGoes() {
    IreeFunction f = function("module.abs", "0r_r", Map.of());
    IreeValueException e =
        assertThrows(IreeValueException.class, () -> f.checkArguments(VmList.of(VmValue.f32(1f))));
    assertThat(e.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(e.path()).isEqualTo("module.abs: arg0");
    assertThat(e).hasMessageThat().contains("expected a ref (cconv 'r') but got the value f32 1.0");
  }

  @Test
  void integersAndFloatsAreNotSilentlyZeroed() {
    IreeFunction f = function("module.scale", "0if_I", Map.of());
    f.checkArguments(VmList.of(VmValue.i8((byte) 3), VmValue.f64(2.0))); // widths convert
    IreeValueException floatForInt =
        assertThrows(
            IreeValueException.class,
            () -> f.checkArguments(VmList.of(VmValue.f32(1f), VmValue.f32(2f))));
    assertThat(floatForInt.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(floatForInt.path()).isEqualTo("module.scale: arg0");
    assertThat(floatForInt).hasMessageThat().contains("expected an integer value (cconv 'i')");
    assertThat(floatForInt).hasMessageThat().contains("it would pass 0");
    IreeValueException intForFloat =
        assertThrows(
            IreeValueException.class,
            () -> f.checkArguments(VmList.of(VmValue.i32(1), VmValue.i64(2))));
    assertThat(intForFloat.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(intForFloat.path()).isEqualTo("module.scale: arg1");
    assertThat(intForFloat).hasMessageThat().contains("expected a float value (cconv 'f')");
    IreeValueException missing =
        assertThrows(
            IreeValueException.class, () -> f.checkArguments(VmList.of(VmValue.i32(1), null)));
    assertThat(missing.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(missing).hasMessageThat().contains("but got an empty slot");
    IreeValueException ref =
        assertThrows(
            IreeValueException.class, () -> f.checkArguments(VmList.of(VmValue.i32(1), vector())));
    assertThat(ref.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(ref).hasMessageThat().contains("but got hal.buffer_view<4xf32>");
  }

  @Test
  void anUnreadableCallingConventionLeavesTheChecksToIree() {
    IreeFunction f = function("module.odd", "9??", Map.of());
    assertThat(f.resultCount()).isEqualTo(0);
    f.checkArguments(VmList.of(VmValue.i32(1), VmValue.i32(2), VmValue.i32(3)));
  }

  @Test
  void aCoarseFencesFunctionIsCheckedWithoutItsFences() {
    IreeFunction async =
        function("module.main$async", "0rrr_r", Map.of("iree.abi.model", "coarse-fences"));
    assertThat(async.isCoarseFences()).isTrue();
    async.checkArguments(VmList.of(vector()));
    IreeValueException e =
        assertThrows(
            IreeValueException.class, () -> async.checkArguments(VmList.of(vector(), vector())));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "module.main$async: arguments: expected 1 argument (calling convention 0rrr_r, whose"
                + " last two refs are the fences the backend passes) but got 2");
  }

  @Test
  void anAsyncTwinIsCoarseFencesByItsNameAlone() {
    assertThat(function("module.tf2onnx$async", "0rrr_r", Map.of()).isCoarseFences()).isTrue();
    assertThat(function("module.tf2onnx", "0r_r", Map.of()).isCoarseFences()).isFalse();
    assertThat(function("module.odd$async", "0ri_r", Map.of()).isCoarseFences()).isFalse();
  }

  @Test
  void aSynchronousFunctionSaysWhichTwinToCallAsynchronously() {
    IreeFunction sync = function("module.main", "0r_r", Map.of());
    assertThat(sync.notAsync(List.of("module.main", "module.main$async")))
        .isEqualTo(
            "module.main (calling convention 0r_r) takes no wait and signal fences, so it cannot"
                + " be called asynchronously: IREE runs it to the end inside the call; call its"
                + " asynchronous twin module.main$async instead");
    assertThat(sync.notAsync(List.of("module.main")))
        .endsWith("call it synchronously, or an asynchronous (coarse-fences) export of the module");
  }
}
