package dev.ireestubs.host;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ValueFailures;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fakes of compiled modules: named and typed by the module's own exports. */
class HostModuleFakeTest {

  private static final String ADD =
      "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0: tensor<4xf32>)";

  @TempDir Path dir;

  private Path module() throws IOException {
    TestModules.Spec spec =
        TestModules.spec()
            .name("adder")
            .bytecodeVersion(17, 0)
            .function("add", "0rr_r", "iree.abi.declaration", ADD)
            .function("count", "0i_i");
    spec.export("add", 0, null);
    spec.export("count", 1, null);
    return Files.write(dir.resolve("adder.vmfb"), spec.ireeZip());
  }

  @Test
  void aFakeInOneCallTakesNameAndSignaturesFromTheModule() throws IOException {
    HostModule fake =
        HostModule.fake(
            module(),
            Map.of(
                "add",
                args -> {
                  float[] a = ((FloatArray) args.get(0)).toArray();
                  float[] b = ((FloatArray) args.get(1)).toArray();
                  float[] sum = new float[4];
                  for (int i = 0; i < 4; i++) {
                    sum[i] = a[i] + b[i];
                  }
                  return FloatArray.of(sum, 4);
                }));

    assertThat(fake.name()).isEqualTo("adder");
    assertThat(fake.functionNames()).containsExactly("adder.add");
    DynamicFunction add =
        DynamicFunction.of(
            fake.lookup("adder.add").orElseThrow(), fake.signature("add").orElseThrow());
    FloatArray sum = (FloatArray) add.call(vector(1, 2, 3, 4), vector(10, 20, 30, 40));
    assertThat(sum.toArray()).usingExactEquality().containsExactly(11f, 22f, 33f, 44f).inOrder();

    // The module's own signature is enforced: a 5-vector is refused before the body runs.
    IreeValueException e =
        ValueFailures.argument(() -> add.call(vector(1, 2, 3, 4, 5), vector(1, 2, 3, 4)));
    assertThat(e).hasMessageThat().contains("tensor<4xf32>");
  }

  private static FloatArray vector(float... values) {
    return FloatArray.of(values, values.length);
  }

  @Test
  void theBuilderRegistersNativeBodiesByExportName() throws IOException {
    HostModule fake =
        HostModule.builder(VmfbReader.read(module()))
            .function("count", args -> VmList.of(VmValue.i32(args.getValue(0).asI32() + 1)))
            .build();

    assertThat(fake.functionNames()).containsExactly("adder.count");
    assertThat(fake.lookup("adder.count").orElseThrow().callingConvention()).isEqualTo("0i_i");
    assertThat(
            fake.lookup("adder.count")
                .orElseThrow()
                .invoke(VmList.of(VmValue.i32(41)))
                .getValue(0)
                .asI32())
        .isEqualTo(42);
  }

  @Test
  void anUnknownExportIsNamedWithTheModulesExports() throws IOException {
    Path module = module();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> HostModule.fake(module, Map.of("sub", args -> null)));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(module + " has no export 'sub'; its exports: add, count");
  }

  @Test
  void aBuilderWithoutAModuleSaysHowToGiveTheSignature() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> HostModule.builder("m").valueFunction("f", args -> null));
    assertThat(e).hasMessageThat().contains("use HostModule.builder(VmfbModule)");
  }
}
