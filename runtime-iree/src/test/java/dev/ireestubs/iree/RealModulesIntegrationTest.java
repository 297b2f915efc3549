package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.iree.models.Abs0d;
import dev.ireestubs.iree.models.AddF64;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.IdentityI64;
import dev.ireestubs.iree.models.Iree_Abs0d;
import dev.ireestubs.iree.models.Iree_AddF64;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.iree.models.Iree_IdentityI64;
import dev.ireestubs.iree.models.Iree_Matmul;
import dev.ireestubs.iree.models.Iree_MultiOutput;
import dev.ireestubs.iree.models.Iree_SimpleMul;
import dev.ireestubs.iree.models.Iree_VmvxMul;
import dev.ireestubs.iree.models.Matmul;
import dev.ireestubs.iree.models.MultiOutput;
import dev.ireestubs.iree.models.SimpleMul;
import dev.ireestubs.iree.models.VmvxMul;
import dev.ireestubs.ndarray.DoubleArray;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.LongArray;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every module in {@code ../shared/iree-reflection/vmfb} that an IREE v3.11.0 runtime on x86_64
 * loads (the README there lists them), called through its generated stub and through {@link
 * DynamicFunction}. The expected values are what {@code iree-run-module} of the same build printed
 * for the same inputs; each test quotes its command (run in {@code ../shared/iree-reflection}, with
 * the tool the build script installs beside the library). Skipped without a runtime library or
 * without the shared folder.
 */
class RealModulesIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  private static IreeSession session(String file) throws IOException {
    return session(file, Device.LOCAL_SYNC);
  }

  private static IreeSession session(String file, Device device) throws IOException {
    return IREE.runtime().newSession(device).load(Corpus.require(file));
  }

  /** The function in the format the runtime's own reflection gives ({@code DynamicFunction.of}). */
  private static DynamicFunction dynamic(IreeSession session, String name) {
    return DynamicFunction.of(session.function(name));
  }

  private static FloatArray floats(float... values) {
    return FloatArray.of(values, values.length);
  }

  private static float[] floatsOf(Object result) {
    assertThat(result).isInstanceOf(FloatArray.class);
    return ((FloatArray) result).toArray();
  }

  // iree-run-module --module=vmfb/2026-08_djl-iree-engine_add_bc17.vmfb --device=local-sync
  //   --function=add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40
  // -> 4xf32=11 22 33 44 (the same with --device=local-task)
  private static final float[] ADD_EXPECTED = {11, 22, 33, 44};

  @Test
  void add() throws IOException {
    for (Device device : Device.values()) {
      try (IreeSession session = session(Adder.FILE, device)) {
        FloatArray sum = new Iree_Adder(session).add(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
        assertThat(sum.shape()).isEqualTo(new long[] {4});
        assertThat(sum.toArray()).isEqualTo(ADD_EXPECTED);
        Object dynamicSum =
            dynamic(session, "module.add").call(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
        assertThat(floatsOf(dynamicSum)).isEqualTo(ADD_EXPECTED);
      }
    }
  }

  // iree-run-module --module=vmfb/2026-03_elodin_matmul_x86_64_bc17.vmfb --device=local-sync
  //   --function=matmul --input=3x4xf32=1,2,3,4,5,6,7,8,9,10,11,12
  //   --input=4x2xf32=1,0,0,1,2,-1,0.5,0.25
  // -> 3x2xf32=[9 0][23 1][37 2]
  @Test
  void matmul() throws IOException {
    float[][] a = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    float[][] b = {{1, 0}, {0, 1}, {2, -1}, {0.5f, 0.25f}};
    float[][] expected = {{9, 0}, {23, 1}, {37, 2}};
    try (IreeSession session = session(Matmul.FILE)) {
      assertThat(new Iree_Matmul(session).matmul(a, b)).isEqualTo(expected);
      Object c = dynamic(session, "module.matmul").call(a, b);
      assertThat(((FloatArray) c).shape()).isEqualTo(new long[] {3, 2});
      assertThat(floatsOf(c)).isEqualTo(new float[] {9, 0, 23, 1, 37, 2});
    }
  }

  // iree-run-module --module=vmfb/2026-03_elodin_multi_output_x86_64_bc17.vmfb --device=local-sync
  //   --function=multi_output --input=4xf32=1,2,3,4 --input=4xf32=5,6,7,8
  // -> result[0]: 4xf32=6 8 10 12, result[1]: 4xf32=5 12 21 32
  @Test
  void multiOutput() throws IOException {
    try (IreeSession session = session(MultiOutput.FILE)) {
      MultiOutput.SumAndProduct r =
          new Iree_MultiOutput(session).sumAndProduct(floats(1, 2, 3, 4), floats(5, 6, 7, 8));
      assertThat(r.sum().toArray()).isEqualTo(new float[] {6, 8, 10, 12});
      assertThat(r.product().toArray()).isEqualTo(new float[] {5, 12, 21, 32});
      Object both =
          dynamic(session, "module.multi_output").call(floats(1, 2, 3, 4), floats(5, 6, 7, 8));
      List<?> results = (List<?>) both;
      assertThat(results).hasSize(2);
      assertThat(floatsOf(results.get(0))).isEqualTo(new float[] {6, 8, 10, 12});
      assertThat(floatsOf(results.get(1))).isEqualTo(new float[] {5, 12, 21, 32});
    }
  }

  // iree-run-module --module=vmfb/2026-03_elodin_identity_i64_x86_64_bc17.vmfb --device=local-sync
  //   --function=identity_i64
  //   --input=4xi64=8589934592,-1099511627783,9223372036854775807,-9223372036854775807
  // -> 4xi64=8589934592 -1099511627783 9223372036854775807 -9223372036854775807
  @Test
  void identityI64BeyondThirtyTwoBits() throws IOException {
    long[] in = {8589934592L, -1099511627783L, 9223372036854775807L, -9223372036854775807L};
    long[] expected = {8589934592L, -1099511627783L, 9223372036854775807L, -9223372036854775807L};
    try (IreeSession session = session(IdentityI64.FILE)) {
      assertThat(new Iree_IdentityI64(session).identity(LongArray.of(in, 4)).toArray())
          .isEqualTo(expected);
      Object out = dynamic(session, "module.identity_i64").call(LongArray.of(in, 4));
      assertThat(((LongArray) out).toArray()).isEqualTo(expected);
    }
  }

  // iree-run-module --module=vmfb/2026-03_elodin_simple_add_f64_x86_64_bc17.vmfb
  //   --device=local-sync --function=simple_add_f64 --input=4xf64=0.1,1e300,-2.5,3
  //   --input=4xf64=0.2,1e300,2.5,1e-9 --output=@sum.npy
  // -> 4xf64=0.3 2E+300 0 3 as printed; sum.npy holds exactly 0.30000000000000004, 2e+300, 0.0,
  //    3.000000001
  @Test
  void simpleAddF64() throws IOException {
    double[] a = {0.1, 1e300, -2.5, 3};
    double[] b = {0.2, 1e300, 2.5, 1e-9};
    double[] expected = {0.30000000000000004, 2e+300, 0.0, 3.000000001};
    try (IreeSession session = session(AddF64.FILE)) {
      assertThat(new Iree_AddF64(session).add(a, b)).isEqualTo(expected);
      Object sum = dynamic(session, "module.simple_add_f64").call(a, b);
      assertThat(((DoubleArray) sum).toArray()).isEqualTo(expected);
    }
  }

  // iree-run-module --module=vmfb/2026-03_elodin_simple_mul_x86_64_bc17.vmfb --device=local-sync
  //   --function=simple_mul --input=4xf32=1.5,-2,3,0.25 --input=4xf32=2,4,-0.5,8
  // -> 4xf32=3 -8 -1.5 2
  @Test
  void simpleMul() throws IOException {
    float[] expected = {3, -8, -1.5f, 2};
    try (IreeSession session = session(SimpleMul.FILE)) {
      FloatArray product =
          new Iree_SimpleMul(session).multiply(floats(1.5f, -2, 3, 0.25f), floats(2, 4, -0.5f, 8));
      assertThat(product.toArray()).isEqualTo(expected);
      Object dynamicProduct =
          dynamic(session, "module.simple_mul")
              .call(floats(1.5f, -2, 3, 0.25f), floats(2, 4, -0.5f, 8));
      assertThat(floatsOf(dynamicProduct)).isEqualTo(expected);
    }
  }

  // iree-run-module --module=vmfb/2026-06_eerie_mul_vmvx_bc17.vmfb --device=local-sync
  //   --function=simple_mul --input=100xf32=0,1,2,...,99 --input=100xf32=0.5
  //   --output_max_element_count=100
  // -> 100xf32=0 0.5 1 1.5 2 ... 49 49.5
  @Test
  void vmvxMulWithItsOwnModuleName() throws IOException {
    float[] a = new float[100];
    float[] b = new float[100];
    float[] expected = new float[100];
    for (int i = 0; i < 100; i++) {
      a[i] = i;
      b[i] = 0.5f;
      expected[i] = i / 2f; // 0 0.5 1 1.5 ... 49.5, as iree-run-module printed
    }
    try (IreeSession session = session(VmvxMul.FILE)) {
      assertThat(session.functionNames()).contains("arithmetic.simple_mul");
      assertThat(new Iree_VmvxMul(session).multiply(floats(a), floats(b)).toArray())
          .isEqualTo(expected);
      Object product = dynamic(session, "arithmetic.simple_mul").call(floats(a), floats(b));
      assertThat(floatsOf(product)).isEqualTo(expected);
    }
  }

  // iree-run-module --module=vmfb/2026-06_iree-mlir-explorations_mips_simple_abs_0d_bc17.vmfb
  //   --device=local-sync --function=abs --input=f32=-2.5
  // -> f32=2.5
  @Test
  void absOfAZeroDimensionalTensor() throws IOException {
    try (IreeSession session = session(Abs0d.FILE)) {
      FloatArray out = new Iree_Abs0d(session).abs(FloatArray.scalar(-2.5f));
      assertThat(out.shape()).isEmpty();
      assertThat(out.get()).isEqualTo(2.5f);
      Object dynamicOut = dynamic(session, "module.abs").call(FloatArray.scalar(-2.5f));
      assertThat(((FloatArray) dynamicOut).shape()).isEmpty();
      assertThat(((FloatArray) dynamicOut).get()).isEqualTo(2.5f);
    }
  }
}
