package dev.ireestubs.processor.writing;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.processor.CompiledClasses.call;
import static dev.ireestubs.processor.ProcessorTester.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.BoolArray;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.processor.CompiledClasses;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.OpaqueRef;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The defects of issue 19 through a generated stub: an {@code i1} result in 8-bit storage, the
 * index of a failing list element in the message, and the result list closed when a result fails to
 * decode. (The same through the dynamic invoker: the runtime's {@code DynamicFunctionTest}.)
 */
class StubValueChecksTest {

  static final String JSON =
      "{'mask': {'a': [['ndarray', 'f32', 1, 3]], 'r': [['ndarray', 'i1', 1, 3]]},"
          + " 'grid': {'a': [['py_homogeneous_list', ['py_homogeneous_list', ['ndarray', 'f32', 1, 2]]]],"
          + "  'r': [['py_homogeneous_list', ['py_homogeneous_list', 'i32']]]},"
          + " 'pair': {'a': [], 'r': [['ndarray', 'f32', 1, 2], 'i32']}}";

  static final String[] INTERFACE = {
    "@IreeModule(name = \"module\", abi = \"checks.abi.json\")",
    "public interface Checks {",
    "  record Pair(FloatArray x, int n) {}",
    "  BoolArray mask(FloatArray x);",
    "  List<List<Integer>> grid(List<List<FloatArray>> rows);",
    "  Pair pair();",
    "}"
  };

  @TempDir Path dir;

  private CompiledClasses compile() {
    return new CompiledClasses(
        new ProcessorTester(dir)
            .file("checks.abi.json", JSON)
            .compileClean(source("Checks", INTERFACE)));
  }

  private static Object stub(CompiledClasses classes, ModuleBackend backend) throws Exception {
    try {
      return classes
          .load("test.Iree_Checks")
          .getConstructor(ModuleBackend.class)
          .newInstance(backend);
    } catch (InvocationTargetException e) {
      throw (Exception) e.getCause();
    }
  }

  /** A backend of one function per name, with no reflection: the stub checks everything itself. */
  private static ModuleBackend backend(Map<String, Function<VmList, VmList>> bodies) {
    return new ModuleBackend() {
      @Override
      public Optional<BackendFunction> lookup(String qualifiedName) {
        if (!functionNames().contains(qualifiedName)) {
          return Optional.empty();
        }
        Function<VmList, VmList> body =
            bodies.getOrDefault(qualifiedName.substring("module.".length()), args -> args);
        return Optional.of(
            new BackendFunction() {
              @Override
              public String qualifiedName() {
                return qualifiedName;
              }

              @Override
              public String callingConvention() {
                return "";
              }

              @Override
              public Map<String, String> reflection() {
                return Map.of();
              }

              @Override
              public VmList invoke(VmList arguments) {
                return body.apply(arguments);
              }
            });
      }

      @Override
      public List<String> functionNames() {
        return List.of("module.mask", "module.grid", "module.pair");
      }

      @Override
      public void close() {}
    };
  }

  private static BufferView bytes(int halCode, byte... values) {
    ByteBuffer data = ByteBuffer.allocateDirect(values.length).order(ByteOrder.nativeOrder());
    data.put(values).flip();
    return BufferView.wrap(halCode, new long[] {values.length}, data);
  }

  @Test
  void anI1ResultInEightBitStorageIsABoolArray() throws Exception {
    CompiledClasses classes = compile();
    Class<?> iface = classes.load("test.Checks");
    for (int code : new int[] {0x10000008, 0x12000008}) { // i8, ui8: how IREE may type i1 data
      // Through a host module (which checks the result itself first) and a bare backend.
      HostModule host =
          HostModule.builder("module")
              .function(
                  "mask",
                  "{\"a\":[[\"ndarray\",\"f32\",1,3]],\"r\":[[\"ndarray\",\"i1\",1,3]]}",
                  args -> VmList.of(bytes(code, (byte) 1, (byte) 0, (byte) 1)))
              .function(
                  "grid",
                  "{\"a\":[[\"py_homogeneous_list\",[\"py_homogeneous_list\",[\"ndarray\",\"f32\",1,2]]]],\"r\":[[\"py_homogeneous_list\",[\"py_homogeneous_list\",\"i32\"]]]}",
                  args -> args)
              .function(
                  "pair", "{\"a\":[],\"r\":[[\"ndarray\",\"f32\",1,2],\"i32\"]}", args -> args)
              .build();
      ModuleBackend bare =
          backend(Map.of("mask", args -> VmList.of(bytes(code, (byte) 1, (byte) 0, (byte) 1))));
      for (ModuleBackend backend : List.of(host, bare)) {
        BoolArray mask =
            (BoolArray) call(iface, stub(classes, backend), "mask", FloatArray.zeros(3));
        assertThat(mask.toArray()).isEqualTo(new boolean[] {true, false, true});
      }
    }
    // A 16-bit view is still refused, naming the result.
    ModuleBackend wide =
        backend(
            Map.of(
                "mask",
                args -> {
                  ByteBuffer data = ByteBuffer.allocateDirect(6).order(ByteOrder.nativeOrder());
                  return VmList.of(BufferView.wrap(0x10000010, new long[] {3}, data));
                }));
    IreeValueException e =
        assertThrows(
            IreeValueException.class,
            () -> call(iface, stub(classes, wide), "mask", FloatArray.zeros(3)));
    assertThat(e.side()).isEqualTo(IreeValueException.Side.RESULT);
    assertThat(e)
        .hasMessageThat()
        .startsWith("mask: result: expected tensor<3xi1> but got tensor<3xi16>");
  }

  @Test
  void aFailingListElementIsNamedByItsIndex() throws Exception {
    CompiledClasses classes = compile();
    Class<?> iface = classes.load("test.Checks");
    Object stub =
        stub(
            classes,
            backend(
                Map.of(
                    "grid",
                    args ->
                        VmList.of(
                            VmList.of(
                                VmList.of(VmValue.i32(1)),
                                VmList.of(VmValue.i32(2), VmValue.f32(0.5f)))))));
    FloatArray ok = FloatArray.zeros(2);
    List<List<FloatArray>> rows =
        List.of(List.of(ok), List.of(ok, ok, FloatArray.zeros(3)), List.of(ok));
    IreeValueException argument =
        assertThrows(IreeValueException.class, () -> call(iface, stub, "grid", rows));
    assertThat(argument.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    assertThat(argument.path()).isEqualTo("grid: rows[1][2]");
    assertThat(argument)
        .hasMessageThat()
        .isEqualTo(
            "grid: rows[1][2]: expected tensor<2xf32> but got tensor<3xf32> (dimension 0 is 3, not 2)");
    List<List<FloatArray>> withNull = new java.util.ArrayList<>(List.of(List.of(ok), List.of(ok)));
    withNull.add(null);
    assertThat(assertThrows(IreeValueException.class, () -> call(iface, stub, "grid", withNull)))
        .hasMessageThat()
        .isEqualTo("grid: rows[2]: is null");

    // The result's second list has a float where an i32 belongs.
    IreeValueException result =
        assertThrows(
            IreeValueException.class, () -> call(iface, stub, "grid", List.of(List.of(ok))));
    assertThat(result.side()).isEqualTo(IreeValueException.Side.RESULT);
    assertThat(result).hasMessageThat().startsWith("grid: result[1][1]: expected an i32 value");
  }

  @Test
  void aResultThatFailsToDecodeClosesTheResultList() throws Exception {
    CompiledClasses classes = compile();
    Class<?> iface = classes.load("test.Checks");
    AtomicInteger released = new AtomicInteger();
    VmList[] returned = new VmList[1];
    Object stub =
        stub(
            classes,
            backend(
                Map.of(
                    "pair",
                    args -> {
                      // A buffer view, then a ref (a fence, say) where the i32 result belongs.
                      returned[0] =
                          VmList.of(
                              FloatArray.zeros(2).asBufferView(),
                              OpaqueRef.withRelease(
                                  "hal.fence", "fence", released::incrementAndGet));
                      return returned[0];
                    },
                    "grid",
                    args -> {
                      returned[0] =
                          VmList.of(
                              VmList.of(
                                  VmList.of(
                                      OpaqueRef.withRelease(
                                          "hal.fence", "fence", released::incrementAndGet))));
                      return returned[0];
                    })));
    IreeValueException e = assertThrows(IreeValueException.class, () -> call(iface, stub, "pair"));
    assertThat(e)
        .hasMessageThat()
        .contains("expected an i32 value but got a ref of type hal.fence");
    assertThat(returned[0].isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(1);

    // Nested: the failing element is two lists down; the whole result list is released.
    assertThrows(
        IreeValueException.class,
        () -> call(iface, stub, "grid", List.of(List.of(FloatArray.zeros(2)))));
    assertThat(returned[0].isClosed()).isTrue();
    assertThat(released.get()).isEqualTo(2);
  }
}
