package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.ElementType;
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
import dev.ireestubs.iree.models.Iree_VmvxMul;
import dev.ireestubs.iree.models.Matmul;
import dev.ireestubs.iree.models.MultiOutput;
import dev.ireestubs.iree.models.VmvxMul;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.LongArray;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real modules on a real IREE runtime, through generated stubs (whose declarations {@link
 * StubDeclarationsTest} checks against the files) and through the backend SPI. Runs only when
 * {@code IREE_RUNTIME_LIBRARY} names a runtime of IREE v3.11.0 (the release that compiled the
 * modules); skipped with a message otherwise.
 */
class IreeModulesIntegrationTest {

  private static IreeRuntime runtime;

  @BeforeAll
  static void start() {
    runtime = RequireIree.runtimeOrNull();
  }

  @BeforeEach
  void requireRuntime() {
    RequireIree.assumeLibrary();
  }

  @AfterAll
  static void stop() {
    if (runtime != null) {
      runtime.close();
    }
  }

  private static IreeSession session(String file) throws IOException {
    return runtime.newSession().load(SharedData.require(file));
  }

  private static FloatArray floats(float... values) {
    return FloatArray.of(values, values.length);
  }

  @Test
  void addThroughAGeneratedStub() throws IOException {
    try (IreeSession session = session(Adder.FILE)) {
      Adder adder = new Iree_Adder(session);
      FloatArray sum = adder.add(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
      assertThat(sum.shape()).isEqualTo(new long[] {4});
      assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
    }
  }

  @Test
  void addOnLocalTask() throws IOException {
    try (IreeSession session =
        runtime.newSession(Device.LOCAL_TASK).load(SharedData.require(Adder.FILE))) {
      assertThat(session.device()).isEqualTo(Device.LOCAL_TASK);
      FloatArray sum = new Iree_Adder(session).add(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
      assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
    }
  }

  @Test
  void addThroughTheBackendFunction() throws IOException {
    try (IreeSession session = session(Adder.FILE)) {
      assertThat(session.functionNames()).containsExactly("module.__init", "module.add");
      BackendFunction add = session.function("module.add");
      assertThat(add.qualifiedName()).isEqualTo("module.add");
      assertThat(add.callingConvention()).isEqualTo("0rr_r");
      // From iree_vm_function_get_attr: on a 3.11 module, exactly the declaration.
      assertThat(add.reflection()).containsExactly("iree.abi.declaration", Adder.DECLARATION);
      assertThat(session.lookup("module.add")).hasValue(add); // looked up once, then cached

      BufferView direct = BufferView.allocate(0x21000020, 4);
      direct.data().asFloatBuffer().put(new float[] {1, 2, 3, 4});
      ByteBuffer heap = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
      heap.asFloatBuffer().put(new float[] {10, 20, 30, 40});
      BufferView onHeap = BufferView.wrap(0x21000020, new long[] {4}, heap);
      VmList arguments = VmList.of(direct, onHeap);

      try (VmList results = add.invoke(arguments)) {
        assertThat(results.size()).isEqualTo(1);
        BufferView sum = results.getBufferView(0);
        assertThat(sum.elementType()).hasValue(ElementType.F32);
        assertThat(sum.shape()).isEqualTo(new long[] {4});
        assertThat(sum.isDirect()).isTrue();
        float[] out = new float[4];
        sum.data().asFloatBuffer().get(out);
        assertThat(out).isEqualTo(new float[] {11, 22, 33, 44});
      }
      // The caller's list and data are untouched.
      assertThat(arguments.size()).isEqualTo(2);
      assertThat(direct.data().getFloat(12)).isEqualTo(4f);
    }
  }

  @Test
  void addLoadedFromMemory() throws IOException {
    byte[] bytes = Files.readAllBytes(SharedData.require(Adder.FILE));
    try (IreeSession session = runtime.newSession().load(bytes, "add.vmfb")) {
      Arrays.fill(bytes, (byte) 0); // the session keeps its own aligned copy
      FloatArray sum = new Iree_Adder(session).add(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
      assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
      assertThat(session.modules()).hasSize(1);
      assertThat(session.modules().get(0).sourceName()).isEqualTo("add.vmfb");
    }
  }

  @Test
  void openGivesASessionThatOwnsItsRuntime() throws IOException {
    IreeSession session =
        IreeBackend.open(
            SharedData.require(Adder.FILE),
            IreeBackend.Options.defaults().withLibrary(runtime.library().path()));
    try (session) {
      FloatArray sum = new Iree_Adder(session).add(floats(1, 1, 1, 1), floats(2, 2, 2, 2));
      assertThat(sum.toArray()).isEqualTo(new float[] {3, 3, 3, 3});
    }
    assertThat(session.isClosed()).isTrue();
    assertThat(session.runtime().isClosed()).isTrue();
    assertThat(runtime.isClosed()).isFalse();
  }

  @Test
  void matmul() throws IOException {
    float[][] a = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    float[][] b = {{1, 0}, {0, 1}, {2, -1}, {0.5f, 0.25f}};
    float[][] expected = new float[3][2];
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 2; j++) {
        for (int k = 0; k < 4; k++) {
          expected[i][j] += a[i][k] * b[k][j];
        }
      }
    }
    try (IreeSession session = session(Matmul.FILE)) {
      float[][] c = new Iree_Matmul(session).matmul(a, b);
      assertThat(c).hasLength(3);
      for (int i = 0; i < 3; i++) {
        assertThat(c[i]).usingTolerance(1e-5).containsExactly(expected[i]).inOrder();
      }
    }
  }

  @Test
  void multiOutputReturnsTwoResults() throws IOException {
    try (IreeSession session = session(MultiOutput.FILE)) {
      MultiOutput.SumAndProduct r =
          new Iree_MultiOutput(session).sumAndProduct(floats(1, 2, 3, 4), floats(5, 6, 7, 8));
      assertThat(r.sum().toArray()).isEqualTo(new float[] {6, 8, 10, 12});
      assertThat(r.product().toArray()).isEqualTo(new float[] {5, 12, 21, 32});
    }
  }

  @Test
  void identityI64KeepsValuesBeyond32Bits() throws IOException {
    long[] values = {1L << 33, -(1L << 40) - 7, Long.MAX_VALUE, Long.MIN_VALUE + 1};
    try (IreeSession session = session(IdentityI64.FILE)) {
      LongArray out = new Iree_IdentityI64(session).identity(LongArray.of(values, 4));
      assertThat(out.toArray()).isEqualTo(values);
    }
  }

  @Test
  void simpleAddF64() throws IOException {
    try (IreeSession session = session(AddF64.FILE)) {
      double[] sum =
          new Iree_AddF64(session)
              .add(new double[] {0.1, 1e300, -2.5, 3}, new double[] {0.2, 1e300, 2.5, 1e-9});
      assertThat(sum).isEqualTo(new double[] {0.1 + 0.2, 2e300, 0.0, 3 + 1e-9});
    }
  }

  @Test
  void absOfAZeroDimensionalTensor() throws IOException {
    try (IreeSession session = session(Abs0d.FILE)) {
      FloatArray out = new Iree_Abs0d(session).abs(FloatArray.scalar(-2.5f));
      assertThat(out.shape()).isEmpty();
      assertThat(out.get()).isEqualTo(2.5f);

      BufferView x = BufferView.allocate(0x21000020);
      x.data().putFloat(0, -7f);
      try (VmList results = session.function("module.abs").invoke(VmList.of(x))) {
        BufferView y = results.getBufferView(0);
        assertThat(y.rank()).isEqualTo(0);
        assertThat(y.byteLength()).isEqualTo(4);
        assertThat(y.data().getFloat(0)).isEqualTo(7f);
      }
    }
  }

  @Test
  void vmvxModuleWithItsOwnModuleName() throws IOException {
    float[] a = new float[100];
    float[] b = new float[100];
    for (int i = 0; i < 100; i++) {
      a[i] = i;
      b[i] = 0.5f;
    }
    try (IreeSession session = session(VmvxMul.FILE)) {
      assertThat(session.functionNames()).contains("arithmetic.simple_mul");
      float[] product = new Iree_VmvxMul(session).multiply(floats(a), floats(b)).toArray();
      for (int i = 0; i < 100; i++) {
        assertThat(product[i]).isEqualTo(i * 0.5f);
      }
    }
  }

  @Test
  void nestedListsRoundTripThroughIreesLists() throws IOException {
    // No module here takes lists, so convert to iree_vm_list_t and back without a call.
    BufferView view = BufferView.allocate(0x10000040, 2);
    view.data().putLong(0, 1L << 40).putLong(8, -3);
    VmList typed = VmList.ofValues(VmValueType.I32, 3);
    typed.push(VmValue.i32(7)).push(VmValue.i32(-8)).push(VmValue.i32(9));
    VmList views = VmList.ofRefs(BufferView.REF_TYPE, 1).push(view);
    VmList inner = VmList.of(VmValue.f64(2.5), null, VmValue.i8((byte) -1));
    VmList outer = VmList.of(VmValue.i64(1L << 35), typed, views, inner, view, null);
    try (IreeSession session = session(Adder.FILE);
        Arena arena = Arena.ofConfined()) {
      Marshaller marshaller = new Marshaller(session, arena, "round trip");
      MemorySegment nativeList = marshaller.toNative(outer);
      VmList back;
      try {
        back = marshaller.fromNative(nativeList);
      } finally {
        session.api().listRelease(nativeList);
      }
      assertThat(back.size()).isEqualTo(6);
      assertThat(back.get(0)).isEqualTo(VmValue.i64(1L << 35));
      assertThat(back.getList(1)).isEqualTo(typed);
      assertThat(back.getList(1).elementType()).isEqualTo(typed.elementType());
      VmList backViews = back.getList(2);
      assertThat(backViews.elementType()).isEqualTo(views.elementType());
      assertThat(backViews.getBufferView(0).data().getLong(0)).isEqualTo(1L << 40);
      assertThat(back.getList(3)).isEqualTo(inner);
      BufferView backView = back.getBufferView(4);
      assertThat(backView.shape()).isEqualTo(new long[] {2});
      assertThat(backView.elementTypeCode()).isEqualTo(0x10000040);
      assertThat(backView.data().getLong(8)).isEqualTo(-3L);
      assertThat(back.get(5)).isNull();
    }
  }
}
