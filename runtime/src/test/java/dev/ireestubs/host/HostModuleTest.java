package dev.ireestubs.host;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.IreeFunctionNotFoundException;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.invoke.ValueFailures;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostModuleTest {

  private static final String ADD = "{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"],\"v\":1}";
  private static final String SCALE =
      "{\"a\":[[\"ndarray\",\"f32\",1,null],[\"named\",\"factor\",\"f32\"]],"
          + "\"r\":[[\"sdict\",[\"scaled\",[\"ndarray\",\"f32\",1,null]],[\"sum\",\"f32\"]]],\"v\":1}";

  private static HostModule module() {
    return HostModule.builder("module")
        .function(
            "add",
            ADD,
            args -> VmList.of(VmValue.i32(args.getValue(0).asI32() + args.getValue(1).asI32())))
        .valueFunction(
            "scale",
            SCALE,
            args -> {
              FloatArray x = (FloatArray) args.get(0);
              float factor = (Float) args.get(1);
              FloatArray out = FloatArray.zeros(x.shape());
              float sum = 0;
              for (int i = 0; i < x.size(); i++) {
                out.setFlat(x.getFlat(i) * factor, i);
                sum += out.getFlat(i);
              }
              return Map.of("scaled", out, "sum", sum);
            })
        .build();
  }

  @Test
  void functionsAreCalledThroughTheDynamicInvoker() {
    try (HostModule m = module()) {
      BackendFunction add = m.function("module.add");
      assertThat(add.callingConvention()).isEqualTo("0ii_i");
      assertThat(add.reflection()).containsExactly("iree.abi", ADD);
      DynamicFunction f = DynamicFunction.of(add, AbiJson.parseFunction(ADD));
      assertThat(f.call(2, 3)).isEqualTo(5);

      FunctionSignature s = AbiJson.parseFunction(SCALE);
      Object r =
          DynamicFunction.of(m.function("module.scale"), s)
              .call(List.of(FloatArray.of(new float[] {1, 2, 3})), Map.of("factor", 2f));
      assertThat(r).isEqualTo(Map.of("scaled", FloatArray.of(new float[] {2, 4, 6}), "sum", 12f));
    }
  }

  @Test
  void lookupFailuresListTheLoadedFunctions() {
    HostModule m = module();
    assertThat(m.functionNames()).containsExactly("module.add", "module.scale").inOrder();
    assertThat(m.lookup("module.mul")).isEmpty();
    assertThat(assertThrows(IreeFunctionNotFoundException.class, () -> m.function("module.mul")))
        .hasMessageThat()
        .isEqualTo("no function 'module.mul' is loaded; loaded: module.add, module.scale");
  }

  @Test
  void argumentsAreCheckedBeforeTheBodyRuns() {
    boolean[] ran = {false};
    HostModule m =
        HostModule.builder("m")
            .function(
                "f",
                ADD,
                args -> {
                  ran[0] = true;
                  return VmList.of(VmValue.i32(0));
                })
            .build();
    assertThat(
            ValueFailures.argument(
                () -> m.function("m.f").invoke(VmList.of(VmValue.i32(1), VmValue.f32(2)))))
        .hasMessageThat()
        .isEqualTo("f: arg1: expected an i32 value but got the value f32 2.0");
    assertThat(ran[0]).isFalse();
  }

  @Test
  void whatTheBodyReturnsIsCheckedAgainstTheResults() {
    HostModule wrongCount =
        HostModule.builder("m").function("f", ADD, args -> VmList.variant(0)).build();
    assertThat(
            ValueFailures.result(
                () -> wrongCount.function("m.f").invoke(VmList.of(VmValue.i32(1), VmValue.i32(2)))))
        .hasMessageThat()
        .isEqualTo("f: expected 1 result but the function returned 0");

    HostModule wrongShape =
        HostModule.builder("m")
            .valueFunction(
                "scale", SCALE, args -> Map.of("scaled", FloatArray.zeros(2, 2), "sum", 0f))
            .build();
    BackendFunction scale = wrongShape.function("m.scale");
    assertThat(
            ValueFailures.result(
                () -> scale.invoke(VmList.of(FloatArray.zeros(3).asBufferView(), VmValue.f32(1)))))
        .hasMessageThat()
        .isEqualTo(
            "scale: result.scaled: expected tensor<?xf32> but got tensor<2x2xf32> (rank 2, not 1)");

    HostModule missingKey =
        HostModule.builder("m").valueFunction("scale", SCALE, args -> Map.of("sum", 0f)).build();
    assertThat(
            ValueFailures.result(
                () ->
                    missingKey
                        .function("m.scale")
                        .invoke(VmList.of(FloatArray.zeros(3).asBufferView(), VmValue.f32(1)))))
        .hasMessageThat()
        .isEqualTo("scale: result: missing key 'scaled'; expected keys [scaled, sum]");
  }

  @Test
  void bodyFailuresBecomeInvocationExceptions() {
    HostModule m =
        HostModule.builder("m")
            .function(
                "f",
                ADD,
                args -> {
                  throw new ArithmeticException("boom");
                })
            .build();
    IreeInvocationException e =
        assertThrows(
            IreeInvocationException.class,
            () -> m.function("m.f").invoke(VmList.of(VmValue.i32(1), VmValue.i32(2))));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("host function m.f failed: java.lang.ArithmeticException: boom");
    assertThat(e).hasCauseThat().isInstanceOf(ArithmeticException.class);
  }

  @Test
  void closedModulesRefuseCalls() {
    HostModule m = module();
    BackendFunction add = m.function("module.add");
    m.close();
    m.close();
    assertThat(
            assertThrows(
                IllegalStateException.class,
                () -> add.invoke(VmList.of(VmValue.i32(1), VmValue.i32(2)))))
        .hasMessageThat()
        .isEqualTo("host module module is closed; module.add cannot be called");
  }

  @Test
  void registrationErrors() {
    HostModule.Builder b = HostModule.builder("m").function("f", ADD, args -> null);
    assertThat(
            assertThrows(IllegalArgumentException.class, () -> b.function("f", ADD, args -> null)))
        .hasMessageThat()
        .isEqualTo("function m.f is registered twice");
    assertThrows(IllegalArgumentException.class, () -> HostModule.builder("a.b"));
    assertThrows(IllegalArgumentException.class, () -> b.function("g", "{\"a\":[", args -> null));
  }

  @Test
  void reflectionInEveryFormat() {
    HostModule m =
        HostModule.builder("m")
            .function(
                "decl",
                "sync func @decl(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)",
                args -> VmList.of(args.get(0)))
            .function(
                "v0", Map.of("fv", "1", "f", "I6!B3!d4R6!B3!d4"), args -> VmList.of(args.get(0)))
            .build();
    FloatArray x = FloatArray.zeros(4);
    VmList args = VmList.of(x.asBufferView());
    assertThat(m.function("m.decl").invoke(args).get(0)).isSameInstanceAs(args.get(0));
    assertThat(m.function("m.decl").callingConvention()).isEqualTo("0r_r");
    assertThat(m.function("m.v0").invoke(args).size()).isEqualTo(1);
    assertThat(
            ValueFailures.argument(
                () -> m.function("m.decl").invoke(VmList.of(FloatArray.zeros(5).asBufferView()))))
        .hasMessageThat()
        .isEqualTo(
            "decl: arg0: expected tensor<4xf32> but got tensor<5xf32> (dimension 0 is 5, not 4)");
  }
}
