package dev.ireestubs.internal;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeFunctionNotFoundException;
import dev.ireestubs.invoke.IreeSignatureMismatchException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.vm.VmList;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FunctionBinderTest {

  private static final String JSON =
      "{\"a\":[[\"ndarray\",\"f32\",1,4],[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}";

  private static HostModule module(String reflection) {
    return HostModule.builder("module")
        .function("add", reflection, args -> VmList.variant(0))
        .build();
  }

  @Test
  void bindsWhenTheModuleAgrees() {
    FunctionSignature expected = FunctionBinder.signature("iree.abi", JSON);
    HostModule sameJson = module(JSON);
    assertThat(FunctionBinder.bind(sameJson, "module.add", expected, "test").qualifiedName())
        .isEqualTo("module.add");
    HostModule declared =
        module(
            "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
                + " tensor<4xf32>)");
    FunctionBinder.bind(declared, "module.add", expected, "test");
  }

  @Test
  void aStaleStubFailsAtBindTime() {
    FunctionSignature expected = FunctionBinder.signature("iree.abi", JSON);
    HostModule changed =
        module(
            "sync func @add(%input0: tensor<8xf32>, %input1: tensor<8xf32>) -> (%output0:"
                + " tensor<8xf32>)");
    IreeSignatureMismatchException e =
        assertThrows(
            IreeSignatureMismatchException.class,
            () -> FunctionBinder.bind(changed, "module.add", expected, "model.abi.json"));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "module.add: the stub was compiled against (tensor<4xf32>, tensor<4xf32>) ->"
                + " (tensor<4xf32>) (from model.abi.json) but the loaded module's function differs"
                + " (by its iree.abi.declaration): argument 0: expected tensor<4xf32> but the"
                + " module's function has tensor<8xf32>; argument 1: expected tensor<4xf32> but the"
                + " module's function has tensor<8xf32>; result 0: expected tensor<4xf32> but the"
                + " module's function has tensor<8xf32>. Regenerate the stub from this module's"
                + " reflection, or load the module it was compiled for");
  }

  @Test
  void theCallingConventionAloneCatchesArityAndKinds() {
    FunctionSignature expected = FunctionBinder.signature("iree.abi", JSON);
    HostModule scalar = module("{\"a\":[\"i32\",\"i32\"],\"r\":[\"i32\"]}");
    IreeSignatureMismatchException e =
        assertThrows(
            IreeSignatureMismatchException.class,
            () -> FunctionBinder.bind(scalar, "module.add", expected, "test"));
    assertThat(e)
        .hasMessageThat()
        .contains(
            "argument 0: the reflection says tensor<4xf32> (cconv r) but the function takes i");
  }

  @Test
  void missingFunctionsAreNamed() {
    FunctionSignature expected = FunctionBinder.signature("iree.abi", JSON);
    assertThat(
            assertThrows(
                IreeFunctionNotFoundException.class,
                () -> FunctionBinder.bind(module(JSON), "module.mul", expected, "test")))
        .hasMessageThat()
        .isEqualTo("no function 'module.mul' is loaded; loaded: module.add");
    assertThat(
            FunctionBinder.bind(
                    HostModule.builder("module")
                        .function(
                            "add", Map.of("fv", "1", "f", "I11!B3!d4B3!d4R6!B3!d4"), a -> null)
                        .build(),
                    "module.add",
                    expected,
                    "test")
                .qualifiedName())
        .isEqualTo("module.add");
  }

  @Test
  void coarseFencesHostFunctionsBindAndUnreadableCallingConventionsAreSkipped() {
    FunctionSignature fenced =
        FunctionBinder.signature("iree.abi", JSON)
            .withModel(FunctionSignature.CallingModel.COARSE_FENCES);
    HostModule host =
        HostModule.builder("module").function("add", fenced, args -> VmList.variant(0)).build();
    assertThat(host.function("module.add").reflection())
        .containsEntry("iree.abi.model", "coarse-fences");
    assertThat(host.function("module.add").callingConvention()).isEqualTo("0rrrr_r");
    FunctionBinder.bind(host, "module.add", fenced, "test");

    BackendFunction odd =
        new BackendFunction() {
          @Override
          public String qualifiedName() {
            return "module.add";
          }

          @Override
          public String callingConvention() {
            return "0zz";
          }

          @Override
          public Map<String, String> reflection() {
            return Map.of("iree.abi", JSON);
          }

          @Override
          public VmList invoke(VmList arguments) {
            return VmList.variant(0);
          }
        };
    ModuleBackend backend =
        new ModuleBackend() {
          @Override
          public java.util.Optional<BackendFunction> lookup(String name) {
            return java.util.Optional.of(odd);
          }

          @Override
          public java.util.List<String> functionNames() {
            return java.util.List.of("module.add");
          }

          @Override
          public void close() {}
        };
    assertThat(
            FunctionBinder.bind(
                backend, "module.add", FunctionBinder.signature("iree.abi", JSON), "t"))
        .isSameInstanceAs(odd);
  }
}
