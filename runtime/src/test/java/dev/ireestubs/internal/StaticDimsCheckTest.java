package dev.ireestubs.internal;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ValueFailures;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A stub leaving a size open where the module fixes it: checked at each call, not by IREE. */
class StaticDimsCheckTest {

  private static final int F32 = 0x21000020;
  private static final String MODULE =
      "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0: tensor<4xf32>)";

  private final AtomicInteger calls = new AtomicInteger();

  private HostModule module(String declaration) {
    return HostModule.builder("module")
        .function(
            "add",
            declaration,
            args -> {
              calls.incrementAndGet();
              return VmList.of(BufferView.allocate(F32, 4));
            })
        .build();
  }

  private static FunctionSignature stub(String declaration) {
    return FunctionBinder.signature("iree.abi.declaration", declaration);
  }

  @Test
  void aDynamicStubDimIsCheckedAgainstTheModulesStaticDim() {
    BackendFunction add =
        FunctionBinder.bind(
            module(MODULE),
            "module.add",
            stub(
                "sync func @add(%input0: tensor<?xf32>, %input1: tensor<4xf32>) -> (%output0:"
                    + " tensor<?xf32>)"),
            "test");
    IreeValueException e =
        ValueFailures.argument(
            () -> add.invoke(VmList.of(BufferView.allocate(F32, 3), BufferView.allocate(F32, 4))));
    assertThat(e.path()).isEqualTo("module.add: arg0");
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "module.add: arg0: the module declares tensor<4xf32> but the argument has shape [3]"
                + " (the stub declares tensor<?xf32>, which leaves the size open, so it is checked"
                + " against the module's static dims at bind time); pass an array of the module's"
                + " shape");
    assertThat(calls.get()).isEqualTo(0); // the backend never saw it

    IreeValueException rank =
        ValueFailures.argument(
            () ->
                add.invoke(VmList.of(BufferView.allocate(F32, 2, 2), BufferView.allocate(F32, 4))));
    assertThat(rank).hasMessageThat().contains("has shape [2, 2]");

    try (VmList ok =
        add.invoke(VmList.of(BufferView.allocate(F32, 4), BufferView.allocate(F32, 4)))) {
      assertThat(ok.size()).isEqualTo(1);
    }
    assertThat(calls.get()).isEqualTo(1);
    assertThat(add.qualifiedName()).isEqualTo("module.add");
    assertThat(add.reflection()).containsEntry("iree.abi.declaration", MODULE);
  }

  @Test
  void anUnrankedStubArgumentIsCheckedToo() {
    BackendFunction add =
        FunctionBinder.bind(
            module(MODULE),
            "module.add",
            stub(
                "sync func @add(%input0: !hal.buffer_view, %input1: !hal.buffer_view) ->"
                    + " (%output0: !hal.buffer_view)"),
            "test");
    IreeValueException e =
        ValueFailures.argument(
            () -> add.invoke(VmList.of(BufferView.allocate(F32, 4), BufferView.allocate(F32, 5))));
    assertThat(e.path()).isEqualTo("module.add: arg1");
  }

  @Test
  void noWrapperWhenTheStubIsAsStaticAsTheModuleOrTheModuleIsDynamic() {
    HostModule staticModule = module(MODULE);
    BackendFunction same = FunctionBinder.bind(staticModule, "module.add", stub(MODULE), "test");
    assertThat(same).isSameInstanceAs(staticModule.function("module.add"));

    String dynamic =
        "sync func @add(%input0: tensor<?xf32>, %input1: tensor<?xf32>) -> (%output0:"
            + " tensor<?xf32>)";
    HostModule dynamicModule = module(dynamic);
    assertThat(FunctionBinder.bind(dynamicModule, "module.add", stub(dynamic), "test"))
        .isSameInstanceAs(dynamicModule.function("module.add"));
  }

  /** An asynchronous function's static dims are checked too, before anything is submitted. */
  @Test
  void anAsyncCallIsCheckedBeforeItIsSubmitted() throws Exception {
    HostModule module =
        HostModule.builder("module")
            .asyncFunction(
                "add$async",
                FunctionBinder.signature("iree.abi.declaration", MODULE),
                args -> {
                  calls.incrementAndGet();
                  return java.util.concurrent.CompletableFuture.completedFuture(
                      VmList.of(BufferView.allocate(F32, 4)));
                })
            .build();
    BackendFunction add =
        FunctionBinder.bind(
            module,
            "module.add$async",
            stub(
                "async func @add(%input0: tensor<?xf32>, %input1: tensor<4xf32>) -> (%output0:"
                    + " tensor<?xf32>)"),
            "test");
    IreeValueException e =
        ValueFailures.argument(
            () ->
                add.invokeAsync(
                    VmList.of(BufferView.allocate(F32, 3), BufferView.allocate(F32, 4)), null));
    assertThat(e).hasMessageThat().contains("the module declares tensor<4xf32>");
    assertThat(calls.get()).isEqualTo(0);
    assertThat(
            add.invokeAsync(
                    VmList.of(BufferView.allocate(F32, 4), BufferView.allocate(F32, 4)), null)
                .results()
                .get()
                .size())
        .isEqualTo(1);
    assertThat(calls.get()).isEqualTo(1);
  }

  /** The wrapper answers for its function: name, reflection and the types read from bytecode. */
  @Test
  void theWrapperForwardsWhatItsFunctionSays() {
    BytecodeTypes types = BytecodeTypes.unreadable("a test's bytecode");
    BackendFunction function =
        new BackendFunction() {
          @Override
          public String qualifiedName() {
            return "module.add";
          }

          @Override
          public String callingConvention() {
            return "";
          }

          @Override
          public Map<String, String> reflection() {
            return Map.of("iree.abi.declaration", MODULE);
          }

          @Override
          public BytecodeTypes bytecodeTypes() {
            return types;
          }

          @Override
          public VmList invoke(VmList arguments) {
            throw new AssertionError("not called");
          }
        };
    BackendFunction wrapped =
        StaticDimsCheck.wrap(
            function,
            stub(
                "sync func @add(%input0: tensor<?xf32>, %input1: tensor<4xf32>) -> (%output0:"
                    + " tensor<?xf32>)"),
            stub(MODULE));
    assertThat(wrapped).isNotSameInstanceAs(function);
    assertThat(wrapped.bytecodeTypes()).isSameInstanceAs(types);
    assertThat(wrapped.qualifiedName()).isEqualTo("module.add");
    assertThat(wrapped.reflection()).containsEntry("iree.abi.declaration", MODULE);
  }
}
