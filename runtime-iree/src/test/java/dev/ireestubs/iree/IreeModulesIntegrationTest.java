package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.iree.models.Abs0d;
import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vm.VmValueType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real modules on a real IREE runtime, through generated stubs (whose declarations {@link
 * StubDeclarationsTest} checks against the files) and through the backend SPI. Runs only when
 * {@code IREE_RUNTIME_LIBRARY} names a runtime of IREE v3.11.0 (the release that compiled the
 * modules); skipped with a message otherwise.
 */
class IreeModulesIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  private static FloatArray floats(float... values) {
    return FloatArray.of(values, values.length);
  }

  @Test
  void addThroughTheBackendFunction() throws IOException {
    try (IreeSession session = IREE.load(Adder.FILE)) {
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
    byte[] bytes = Files.readAllBytes(Corpus.require(Adder.FILE));
    try (IreeSession session = IREE.runtime().newSession().load(bytes, "add.vmfb")) {
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
            Corpus.require(Adder.FILE),
            IreeBackend.Options.defaults().withLibrary(IREE.runtime().library().path()));
    try (session) {
      // iree-run-module ... --function=add --input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40
      //   ->  4xf32=11 22 33 44
      FloatArray sum = new Iree_Adder(session).add(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
      assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
    }
    assertThat(session.isClosed()).isTrue();
    assertThat(session.runtime().isClosed()).isTrue();
    assertThat(IREE.runtime().isClosed()).isFalse();
  }

  @Test
  void openAModuleShippedInsideAJar(@TempDir Path dir) throws IOException {
    Path jar = dir.resolve("app.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("models/add.vmfb"));
      out.write(Files.readAllBytes(Corpus.require(Adder.FILE)));
      out.closeEntry();
    }
    IreeBackend.Options options =
        IreeBackend.Options.defaults().withLibrary(IREE.runtime().library().path());
    try (URLClassLoader app = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      URL resource = app.getResource("models/add.vmfb");
      assertThat(resource.getProtocol()).isEqualTo("jar");
      try (IreeSession session = IreeBackend.open(resource, options)) {
        FloatArray sum = new Iree_Adder(session).add(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
        assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
        assertThat(session.modules().get(0).sourceName()).isEqualTo("add.vmfb");
      }
      try (IreeSessionPool pool = IreeBackend.openPool(resource, options, 2)) {
        FloatArray sum = new Iree_Adder(pool).add(floats(1, 2, 3, 4), floats(10, 20, 30, 40));
        assertThat(sum.toArray()).isEqualTo(new float[] {11, 22, 33, 44});
      }
      URL missing = new URL(resource, "nothing.vmfb");
      assertThrows(IOException.class, () -> IreeBackend.open(missing, options));
    }
  }

  @Test
  void aZeroDimensionalBufferViewThroughTheBackendFunction() throws IOException {
    // iree-run-module --module=vmfb/2026-06_iree-mlir-explorations_mips_simple_abs_0d_bc17.vmfb
    //   --device=local-sync --function=abs --input=f32=-7  ->  f32=7
    try (IreeSession session = IREE.load(Abs0d.FILE)) {
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
  void nestedListsRoundTripThroughIreesLists() throws IOException {
    // No module here takes lists, so convert to iree_vm_list_t and back without a call.
    BufferView view = BufferView.allocate(0x10000040, 2);
    view.data().putLong(0, 1L << 40).putLong(8, -3);
    VmList typed = VmList.ofValues(VmValueType.I32, 3);
    typed.push(VmValue.i32(7)).push(VmValue.i32(-8)).push(VmValue.i32(9));
    VmList views = VmList.ofRefs(BufferView.REF_TYPE, 1).push(view);
    VmList inner = VmList.of(VmValue.f64(2.5), null, VmValue.i8((byte) -1));
    VmList outer = VmList.of(VmValue.i64(1L << 35), typed, views, inner, view, null);
    try (IreeSession session = IREE.load(Adder.FILE);
        Arena arena = Arena.ofConfined()) {
      Marshaller marshaller = new Marshaller(session.natives(), arena, "round trip");
      long nativeList = marshaller.toNative(outer);
      VmList back;
      try {
        back = marshaller.fromNative(nativeList);
      } finally {
        session.natives().api().lists().listRelease(nativeList);
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
