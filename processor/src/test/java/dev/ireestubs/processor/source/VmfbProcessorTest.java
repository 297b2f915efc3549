package dev.ireestubs.processor.source;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.ireestubs.processor.CompiledClasses.call;
import static dev.ireestubs.processor.ProcessorTester.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature.CallingModel;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.invoke.IreeSignatureMismatchException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.HalfArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.processor.CompiledClasses;
import dev.ireestubs.processor.CompiledModuleBackend;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.processor.model.ArrayBinding;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.JavaArrayBinding;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.RefBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.testing.TestModules;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @IreeModule(vmfb = ...)}: interfaces checked against compiled modules that the tests build
 * with FlatBufferBuilder ({@link TestModules}, from the test-support module), so no real file is
 * needed. Every accepted interface's stub is also compiled, and one is called against a backend
 * that shows it the module's own exports.
 */
class VmfbProcessorTest {

  static final String MATMUL =
      "sync func @matmul(%input0: tensor<3x4xf32>, %input1: tensor<4x2xf32>) -> (%output0:"
          + " tensor<3x2xf32>)";
  static final String INDEX_RESULT =
      "sync func @test(%input0: tensor<1x?xf32>, %input1: tensor<?xf32>) -> (%output0: index)";
  static final String FENCED =
      "async func @fenced(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)";
  static final String JSON =
      "{\"a\":[[\"sdict\",[\"image\",[\"ndarray\",\"f32\",2,1,4]],[\"label\",\"i32\"]]],"
          + "\"r\":[[\"ndarray\",\"f32\",2,1,4]],\"v\":1}";

  /**
   * A module of today's layout (ZIP archive, function_signatures, bytecode 17) with every kind of
   * reflection: declarations (one with an index result, one async), iree.abi JSON, coarse fences
   * with no other reflection, and torch-style exports with only a calling convention.
   */
  static TestModules.Spec classifier() {
    return classifier(MATMUL);
  }

  static TestModules.Spec classifier(String matmulDeclaration) {
    TestModules.Spec spec =
        TestModules.spec()
            .name("classifier")
            .bytecodeVersion(17, 0)
            .function("matmul", "0rr_r", "iree.abi.declaration", matmulDeclaration)
            .function("test", "0rr_I", "iree.abi.declaration", INDEX_RESULT)
            .function("main$async", "0rrrr_r")
            .function("main", "0rr_r")
            .function("filter", "0rrr_r", "iree.abi.model", "coarse-fences")
            .function(
                "fenced",
                "0rrr_r",
                "iree.abi.declaration",
                FENCED,
                "iree.abi.model",
                "coarse-fences")
            .function("json_fn", "0r_r", "iree.abi", JSON)
            .function("scalars", "0iIfF_i")
            .function("__init", "0v_v");
    List<String> names =
        List.of(
            "matmul",
            "test",
            "main$async",
            "main",
            "filter",
            "fenced",
            "json_fn",
            "scalars",
            "__init");
    for (int i = 0; i < names.size(); i++) {
      spec.export(names.get(i), i, null);
    }
    return spec;
  }

  static final String[] CLASSIFIER = {
    "@IreeModule(vmfb = \"models/classifier.vmfb\")",
    "public interface CompiledClassifier {",
    "  record Features(FloatArray image, int label) {}",
    "  float[][] matmul(float[][] a, FloatArray b);",
    "  long test(FloatArray a, FloatArray b);",
    "  @IreeFunction(\"main\") VmRef mainSync(FloatArray x, VmList y);",
    "  @IreeFunction(\"main$async\") NdArray mainAsync(NdArray a, IntArray d);",
    "  FloatArray filter(HalfArray image);",
    "  FloatArray fenced(FloatArray x);",
    "  @IreeFunction(\"json_fn\") FloatArray jsonFn(Features features);",
    "  int scalars(int a, long b, float c, Double d);",
    "}"
  };

  @TempDir Path dir;
  ProcessorTester t;

  @BeforeEach
  void setUp() {
    t = new ProcessorTester(dir);
  }

  private void write(String name, byte[] bytes) {
    try {
      Path p = dir.resolve(name);
      Files.createDirectories(p.getParent());
      Files.write(p, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> ours(Compilation c, Diagnostic.Kind kind) {
    return c.diagnostics().stream()
        .filter(d -> d.getKind() == kind)
        .map(d -> d.getMessage(null))
        .filter(m -> m.startsWith("[Iree"))
        .collect(Collectors.toList());
  }

  // ------------------------------------------------------------------------------ matches

  @Test
  void anInterfaceThatMatchesTheCompiledModuleBindsWithEachFunctionsBestReflection() {
    write("models/classifier.vmfb", classifier().ireeZip());
    t.compileClean(source("CompiledClassifier", CLASSIFIER));
    StubModel model = t.model();
    // The module name is the one compiled into the module.
    assertThat(model.moduleName()).isEqualTo("classifier");

    CallPlan matmul = t.function("matmul");
    assertThat(matmul.reflectionSource())
        .isEqualTo("models/classifier.vmfb (iree.abi.declaration)");
    assertThat(matmul.boundSignature().format()).isEqualTo(ReflectionFormat.DECLARATION);
    assertThat(matmul.parameters().get(0).binding()).isInstanceOf(JavaArrayBinding.class);

    // index: JSON cannot state it; the stub's signature, written as code, keeps it.
    CallPlan test = t.function("test");
    assertThat(test.signature().results()).containsExactly(new AbiType.Scalar(ElementType.INDEX));
    assertThat(test.boundSignature().results())
        .containsExactly(new AbiType.Scalar(ElementType.INDEX));

    // Calling convention only: refs bind to n-d arrays (any element type and shape), VmRef and
    // its subtypes; each is a buffer view or ref at run time.
    CallPlan main = t.function("mainSync");
    assertThat(main.reflectionSource()).isEqualTo("models/classifier.vmfb (calling convention)");
    assertThat(main.signature().format()).isEqualTo(ReflectionFormat.CALLING_CONVENTION);
    ArrayBinding x = (ArrayBinding) main.parameters().get(0).binding();
    assertThat(x.type()).isEqualTo(AbiType.NdArray.anyBufferView());
    assertThat(x.arrayClass().simpleName()).isEqualTo("FloatArray");
    assertThat(main.parameters().get(1).binding()).isInstanceOf(RefBinding.class);
    // main$async (0rrrr_r, no reflection) takes fences by IREE's naming of the twin: a synchronous
    // method passes its two arguments, and the backend the fences.
    CallPlan async = t.function("mainAsync");
    assertThat(async.signature().model()).isEqualTo(CallingModel.COARSE_FENCES);
    assertThat(async.parameters()).hasSize(2);
    assertThat(((ArrayBinding) async.parameters().get(0).binding()).isAnyElementType()).isTrue();
    assertThat(async.result()).isInstanceOf(ResultModel.Single.class);

    // Coarse fences: the stub passes the described arguments only.
    CallPlan filter = t.function("filter");
    assertThat(filter.signature().model()).isEqualTo(CallingModel.COARSE_FENCES);
    assertThat(filter.signature().arguments()).containsExactly(AbiType.Ref.any());
    assertThat(filter.parameters()).hasSize(1);
    CallPlan fenced = t.function("fenced");
    assertThat(fenced.signature().model()).isEqualTo(CallingModel.COARSE_FENCES);
    assertThat(fenced.parameters()).hasSize(1);

    CallPlan json = t.function("jsonFn");
    assertThat(json.reflectionSource()).isEqualTo("models/classifier.vmfb (iree.abi)");
    assertThat(json.parameters().get(0).binding()).isInstanceOf(RecordBinding.class);

    CallPlan scalars = t.function("scalars");
    assertThat(
            scalars.parameters().stream()
                .map(p -> p.binding().type().toString())
                .collect(Collectors.toList()))
        .containsExactly("i32", "i64", "f32", "f64")
        .inOrder();
  }

  @Test
  void generatedSourceMatchesTheGoldenFile() throws IOException {
    write("models/classifier.vmfb", classifier().ireeZip());
    Compilation c = t.compileClean(source("CompiledClassifier", CLASSIFIER));
    String actual = ProcessorTester.generatedSource(c, "Iree_CompiledClassifier");
    ProcessorTester.assertGolden(actual, "Iree_CompiledClassifier.java");
  }

  /** Java bodies for the classifier's exports. */
  private static Map<String, UnaryOperator<VmList>> bodies() {
    return Map.of(
        "matmul",
        args -> {
          FloatArray a = FloatArray.fromBufferView((BufferView) args.get(0));
          FloatArray b = FloatArray.fromBufferView((BufferView) args.get(1));
          float[][] c = new float[3][2];
          for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 2; j++) {
              for (int k = 0; k < 4; k++) {
                c[i][j] += a.get(i, k) * b.get(k, j);
              }
            }
          }
          return VmList.of(FloatArray.of(c).asBufferView());
        },
        "test",
        args -> VmList.of(VmValue.i64(((BufferView) args.get(1)).shape()[0])),
        "main",
        args -> VmList.of(args.get(1)),
        "main$async",
        args -> VmList.of(args.get(1)),
        "filter",
        args -> {
          HalfArray image = HalfArray.fromBufferView((BufferView) args.get(0));
          return VmList.of(
              FloatArray.of(new float[] {image.get(0), image.get(1)}, 2).asBufferView());
        },
        "fenced",
        args -> VmList.of(args.get(0)),
        "json_fn",
        args -> VmList.of(((VmList) args.get(0)).get(0)),
        "scalars",
        args ->
            VmList.of(
                VmValue.i32(
                    (int)
                        (((VmValue) args.get(0)).asI32()
                            + ((VmValue) args.get(1)).asI64()
                            + ((VmValue) args.get(2)).asF32()
                            + ((VmValue) args.get(3)).asF64()))));
  }

  @Test
  void theStubBindsToTheModuleItWasCompiledFromAndCallsIt() throws Exception {
    byte[] module = classifier().ireeZip();
    write("models/classifier.vmfb", module);
    CompiledClasses classes =
        new CompiledClasses(t.compileClean(source("CompiledClassifier", CLASSIFIER)));
    Class<?> iface = classes.load("test.CompiledClassifier");
    CompiledModuleBackend backend =
        new CompiledModuleBackend(VmfbReader.read(module, "classifier.vmfb"), bodies());
    Object stub =
        classes
            .load("test.Iree_CompiledClassifier")
            .getConstructor(ModuleBackend.class)
            .newInstance(backend);

    float[][] a = {{1, 2, 3, 4}, {0, 1, 0, 1}, {2, 0, 0, 0}};
    FloatArray b = FloatArray.of(new float[][] {{1, 0}, {0, 1}, {1, 1}, {0, 2}});
    assertThat((float[][]) call(iface, stub, "matmul", a, b))
        .isEqualTo(new float[][] {{4, 13}, {0, 3}, {2, 0}});
    assertThat(call(iface, stub, "test", FloatArray.zeros(1, 3), FloatArray.zeros(5)))
        .isEqualTo(5L);

    VmList list = VmList.variant(0);
    assertThat(call(iface, stub, "mainSync", FloatArray.zeros(2), list)).isSameInstanceAs(list);
    IntArray ints = IntArray.of(new int[] {7});
    NdArray back = (NdArray) call(iface, stub, "mainAsync", FloatArray.zeros(1), ints);
    assertThat(back).isInstanceOf(NdArray.class);
    assertThat(back.shape()).isEqualTo(new long[] {1});

    FloatArray filtered =
        (FloatArray) call(iface, stub, "filter", HalfArray.of(new float[] {1.5f, -2f}, 2));
    assertThat(filtered.toArray()).isEqualTo(new float[] {1.5f, -2f});
    assertThat(((FloatArray) call(iface, stub, "fenced", FloatArray.zeros(4))).shape())
        .isEqualTo(new long[] {4});

    Object features =
        classes
            .load("test.CompiledClassifier$Features")
            .getConstructors()[0]
            .newInstance(FloatArray.of(new float[][] {{1, 2, 3, 4}}), 3);
    assertThat(((FloatArray) call(iface, stub, "jsonFn", features)).toArray2D())
        .isEqualTo(new float[][] {{1, 2, 3, 4}});
    assertThat(call(iface, stub, "scalars", 1, 2L, 3f, 4.0)).isEqualTo(10);

    // Coarse-fences functions got the described arguments only (the backend appends fences).
    assertThat(backend.calls).contains("filter/1");
    assertThat(backend.calls).contains("fenced/1");
  }

  @Test
  void theStubRefusesAModuleThatChangedSinceItWasCompiled() throws Exception {
    write("models/classifier.vmfb", classifier().ireeZip());
    CompiledClasses classes =
        new CompiledClasses(t.compileClean(source("CompiledClassifier", CLASSIFIER)));
    byte[] changed = classifier(MATMUL.replace("tensor<4x2xf32>", "tensor<4x5xf32>")).ireeZip();
    CompiledModuleBackend backend =
        new CompiledModuleBackend(VmfbReader.read(changed, "changed.vmfb"), bodies());
    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class,
            () ->
                classes
                    .load("test.Iree_CompiledClassifier")
                    .getConstructor(ModuleBackend.class)
                    .newInstance(backend));
    assertThat(e).hasCauseThat().isInstanceOf(IreeSignatureMismatchException.class);
    assertThat(e.getCause())
        .hasMessageThat()
        .isEqualTo(
            "classifier.matmul: the stub was compiled against (tensor<3x4xf32>, tensor<4x2xf32>)"
                + " -> (tensor<3x2xf32>) (from models/classifier.vmfb (iree.abi.declaration)) but"
                + " the loaded module's function differs (by its iree.abi.declaration): argument"
                + " 1: expected tensor<4x2xf32> but the module's function has tensor<4x5xf32>."
                + " Regenerate the stub from this module's reflection, or load the module it was"
                + " compiled for");
  }

  @Test
  void everyEraOfModuleIsReadable() {
    // 2020: V0 "f" on the internal function; 2022-08: iree.abi JSON on the export, coarse fences.
    write("old/v0.vmfb", TestModules.typical(TestModules.Schema.S2020).bare());
    write(
        "old/json.vmfb",
        TestModules.spec()
            .schema(TestModules.Schema.S2022_08)
            .bytecodeVersion(13, 0)
            .function("predict", "0rrr_r")
            .export(
                "predict",
                0,
                "0rrr_r",
                "iree.abi",
                "{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}",
                "iree.abi.model",
                "coarse-fences")
            .sizePrefixed());
    t.compileClean(
        source(
            "V0",
            "@IreeModule(vmfb = \"old/v0.vmfb\")",
            "interface V0 { @IreeFunction(\"simple_mul\") FloatArray mul(float[] a, FloatArray b); }"),
        source(
            "Json",
            "@IreeModule(vmfb = \"old/json.vmfb\")",
            "interface Json { FloatArray predict(float[] x); }"));
    assertThat(t.models).hasSize(2);
    CallPlan mul = t.models.get(1).functions().get(0);
    assertThat(mul.reflectionSource()).isEqualTo("old/v0.vmfb (f)");
    assertThat(mul.boundSignature())
        .isEqualTo(dev.ireestubs.abi.V0RawSignature.parse("I11!B3!d4B3!d4R6!B3!d4"));
    CallPlan predict = t.models.get(0).functions().get(0);
    assertThat(predict.reflectionSource()).isEqualTo("old/json.vmfb (iree.abi)");
    assertThat(predict.signature().model()).isEqualTo(CallingModel.COARSE_FENCES);
  }

  @Test
  void anInlineSignatureOverridesTheModulesReflection() {
    write("models/classifier.vmfb", classifier().ireeZip());
    t.compileClean(
        source(
            "Inline",
            "@IreeModule(vmfb = \"models/classifier.vmfb\")",
            "interface Inline {",
            "  @IreeFunction(abi = \"sync func @main(%input0: tensor<4xf32>, %input1: tensor<4xf32>)"
                + " -> (%output0: tensor<4xf32>)\")",
            "  FloatArray main(float[] a, float[] b);",
            "}"));
    CallPlan main = t.function("main");
    assertThat(main.reflectionSource()).isEqualTo(SignatureSources.INLINE_SOURCE);
    assertThat(main.boundSignature().format()).isEqualTo(ReflectionFormat.DECLARATION);
  }

  @Test
  void theModuleIsFoundOnTheClassPathAsAFileOrInsideAJar() throws IOException {
    Path classes = dir.resolve("classes");
    Path module = classes.resolve("models/cp.vmfb");
    Files.createDirectories(module.getParent());
    Files.write(module, classifier().ireeZip());
    Path jar = dir.resolve("models.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream j = new JarOutputStream(out)) {
      j.putNextEntry(new JarEntry("models/injar.vmfb"));
      j.write(classifier().sizePrefixed());
      j.closeEntry();
    }
    Path empty = dir.resolve("empty");
    Files.createDirectories(empty);
    ProcessorTester cp =
        new ProcessorTester(empty)
            .option(
                "-classpath",
                String.join(
                    java.io.File.pathSeparator,
                    System.getProperty("java.class.path"),
                    classes.toString(),
                    jar.toString()));
    cp.compileClean(
        source(
            "OnDisk",
            "@IreeModule(vmfb = \"models/cp.vmfb\")",
            "interface OnDisk { float[][] matmul(float[][] a, float[][] b); }"),
        source(
            "InJar",
            "@IreeModule(vmfb = \"/models/injar.vmfb\")",
            "interface InJar { float[][] matmul(float[][] a, float[][] b); }"));
    assertThat(cp.models).hasSize(2);
  }

  // ------------------------------------------------------------------------------ mismatches

  @Test
  void mismatchesAreReportedPreciselyOnTheirLines() {
    write("models/classifier.vmfb", classifier().ireeZip());
    JavaFileObject s =
        source(
            "Wrong",
            "@IreeModule(vmfb = \"models/classifier.vmfb\")",
            "interface Wrong {",
            "  record Features(FloatArray image, int label) {}",
            "  float[][] matmul(float[][] onlyOne);",
            "  @IreeFunction(\"matmul\") float[][] elements(float[][] a, DoubleArray b);",
            "  @IreeFunction(\"matmul\") float[][] rank(float[] a, FloatArray b);",
            "  @IreeFunction(\"matmul\") void noResult(FloatArray a, FloatArray b);",
            "  float[][] matmull(FloatArray a, FloatArray b);",
            "  @IreeFunction(\"main\") VmRef record(Features x, VmList y);",
            "  @IreeFunction(\"main\") VmRef list(List<FloatArray> x, float[] y);",
            "  @IreeFunction(\"main\") VmRef string(String x, VmRef y);",
            "  int scalars(boolean a, long b, float c, double d);",
            "  FloatArray filter(HalfArray image, VmRef wait, VmRef signal);",
            "}");
    Compilation c = t.compile(s);
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] matmul: the function takes 2 arguments in the module"
                + " (tensor<3x4xf32>, tensor<4x2xf32>), but method matmul has 1 parameter; declare"
                + " one parameter per argument, in order")
        .inFile(s)
        .onLineContaining("matmul(float[][] onlyOne)");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] matmul: b is tensor<4x2xf32> in the module, which binds to"
                + " FloatArray or float[][], but the parameter is DoubleArray; change its type to"
                + " FloatArray")
        .inFile(s)
        .onLineContaining("DoubleArray b");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] matmul: a is tensor<3x4xf32> in the module, of rank 2, which"
                + " binds to FloatArray or float[][], but the parameter is float[] (rank 1); change"
                + " its type to float[][]")
        .inFile(s)
        .onLineContaining("rank(float[] a");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] matmul: the function returns (tensor<3x2xf32>) in the module,"
                + " but method noResult returns void; change the return type to FloatArray")
        .inFile(s)
        .onLineContaining("void noResult");
    assertThat(c)
        .hadErrorContaining(
            "[IreeUnknownFunction] matmull: the compiled module \"models/classifier.vmfb\" has no"
                + " function \"matmull\" (functions: matmul, test, main$async, main, filter, fenced,"
                + " json_fn, scalars, __init); did you mean \"matmul\"? rename the method or"
                + " annotate it @IreeFunction(\"matmul\")")
        .inFile(s)
        .onLineContaining("matmull(");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] main: x is a ref of unknown type in the module (the module has"
                + " no reflection for main, only its calling convention 0rr_r), so the module"
                + " carries no structure information to check record Features against; change its"
                + " type to VmList and build the list yourself, or to VmRef")
        .inFile(s)
        .onLineContaining("record(Features x");
    assertThat(c)
        .hadErrorContaining(
            "so the module carries no structure information to check List<FloatArray> against")
        .inFile(s)
        .onLineContaining("list(List<FloatArray> x");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] main: y is a ref of unknown type in the module (the module has"
                + " no reflection for main, only its calling convention 0rr_r), so a Java array,"
                + " which needs a known element type and rank, cannot bind to it, but the parameter"
                + " is float[]; change its type to FloatArray or NdArray")
        .inFile(s)
        .onLineContaining("float[] y");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] main: x is ref in the module, which binds to an n-d array"
                + " (NdArray or a typed array such as FloatArray), VmList or VmRef, but the"
                + " parameter is String; change its type to NdArray (or a typed array such as"
                + " FloatArray), VmList or VmRef")
        .inFile(s)
        .onLineContaining("String x");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] scalars: a is i32 in the module, which binds to int or"
                + " Integer, but the parameter is boolean; change its type to int")
        .inFile(s)
        .onLineContaining("boolean a");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] filter: the function takes 1 argument in the module (ref), but"
                + " method filter has 3 parameters; declare one parameter per argument, in order"
                + " (not the wait and signal fences of its coarse-fences model, which the backend"
                + " passes itself)")
        .inFile(s)
        .onLineContaining("VmRef signal");
    assertThat(c).hadErrorCount(11);
    assertThat(t.models).isEmpty();
  }

  @Test
  void anExplicitModuleNameMustBeTheCompiledOne() {
    write("models/classifier.vmfb", classifier().ireeZip());
    JavaFileObject s =
        source(
            "Named",
            "@IreeModule(",
            "    name = \"module\",",
            "    vmfb = \"models/classifier.vmfb\")",
            "interface Named { long test(FloatArray a, FloatArray b); }");
    Compilation c = t.compile(s);
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] @IreeModule(name = \"module\") differs from the name compiled"
                + " into \"models/classifier.vmfb\", \"classifier\", under which a runtime that loads"
                + " it finds its functions; remove name (it defaults to the module's) or set it to"
                + " \"classifier\"")
        .inFile(s)
        .onLineContaining("name = \"module\"");
    assertThat(c).hadErrorCount(1);

    JavaFileObject same =
        source(
            "Same",
            "@IreeModule(name = \"classifier\", vmfb = \"models/classifier.vmfb\")",
            "interface Same { long test(FloatArray a, FloatArray b); }");
    t.compileClean(same);
    assertThat(t.model().moduleName()).isEqualTo("classifier");
  }

  // ------------------------------------------------------------------------------ bad input

  @Test
  void aFileThatIsNotAModuleIsAnErrorOnTheAnnotationValueWithTheReadersMessage() {
    byte[] good = classifier().sizePrefixed();
    write("bad/truncated.vmfb", Arrays.copyOf(good, 40));
    write(
        "bad/lfs.vmfb",
        ("version https://git-lfs.github.com/spec/v1\n"
                + "oid sha256:1bcccda308f6ad8a737774a0b8030a05eb59f2ef9a095cd46b94d1ee346ae006\n"
                + "size 2780411\n")
            .getBytes(StandardCharsets.US_ASCII));
    write("bad/json.vmfb", "{\"f\": {\"a\": [], \"r\": []}}".getBytes(StandardCharsets.UTF_8));
    JavaFileObject truncated =
        source(
            "Truncated",
            "@IreeModule(vmfb = \"bad/truncated.vmfb\")",
            "interface Truncated { void f(); }");
    JavaFileObject lfs =
        source("Lfs", "@IreeModule(vmfb = \"bad/lfs.vmfb\")", "interface Lfs { void f(); }");
    JavaFileObject json =
        source("Json", "@IreeModule(vmfb = \"bad/json.vmfb\")", "interface Json { void f(); }");
    JavaFileObject missing =
        source(
            "Missing", "@IreeModule(vmfb = \"nowhere.vmfb\")", "interface Missing { void f(); }");
    Compilation c = t.compile(truncated, lfs, json, missing);
    assertThat(c)
        .hadErrorContaining(
            "[IreeBadReflection] compiled module \"bad/truncated.vmfb\" ("
                + dir.resolve("bad/truncated.vmfb")
                + ") of @IreeModule Truncated is not a readable IREE module: the input: the size"
                + " prefix says the FlatBuffer has")
        .inFile(truncated)
        .onLineContaining("bad/truncated.vmfb");
    assertThat(c)
        .hadErrorContaining(
            "the file is truncated or corrupt; point vmfb at the .vmfb file the IREE compiler wrote")
        .inFile(truncated)
        .onLineContaining("bad/truncated.vmfb");
    assertThat(c)
        .hadErrorContaining(
            "of @IreeModule Lfs is not a readable IREE module: this is a Git LFS pointer file (132"
                + " bytes of text), not the module itself (the real file: 2780411 bytes,"
                + " sha256:1bcccda308f6ad8a737774a0b8030a05eb59f2ef9a095cd46b94d1ee346ae006); fetch"
                + " it with `git lfs pull` (or install Git LFS before cloning)")
        .inFile(lfs)
        .onLineContaining("bad/lfs.vmfb");
    assertThat(c)
        .hadErrorContaining("(JSON text: IREE can write a module as FlatBuffer JSON for debugging")
        .inFile(json)
        .onLineContaining("bad/json.vmfb");
    assertThat(c)
        .hadErrorContaining(
            "[IreeBadReflection] compiled module \"nowhere.vmfb\" of @IreeModule Missing: not found;"
                + " looked in -Airee.reflectionDir (")
        .inFile(missing)
        .onLineContaining("nowhere.vmfb");
    // One error per file; the methods that needed it are not reported again.
    assertThat(c).hadErrorCount(4);
  }

  @Test
  void anInlineSignatureMustNameAnExportAndFitItsCallingConvention() {
    write("models/classifier.vmfb", classifier().ireeZip());
    JavaFileObject s =
        source(
            "InlineBad",
            "@IreeModule(vmfb = \"models/classifier.vmfb\")",
            "interface InlineBad {",
            "  @IreeFunction(value = \"matmull\",",
            "      abi = \"{\\\"a\\\":[\\\"i32\\\"],\\\"r\\\":[]}\")",
            "  void missing(int x);",
            "  @IreeFunction(",
            "      abi = \"{\\\"a\\\":[\\\"i32\\\",\\\"i64\\\"],\\\"r\\\":[\\\"f32\\\"]}\")",
            "  float scalars(int a, long b);",
            "  @IreeFunction(value = \"main\",",
            "      abi = \"{\\\"a\\\":[\\\"i32\\\",null],\\\"r\\\":[null]}\")",
            "  VmRef kinds(int a, VmRef b);",
            "}");
    Compilation c = t.compile(s);
    assertThat(c)
        .hadErrorContaining(
            "[IreeUnknownFunction] matmull: the compiled module \"models/classifier.vmfb\" has no"
                + " function \"matmull\" (functions: ")
        .inFile(s)
        .onLineContaining("\"matmull\"");
    assertThat(c)
        .hadErrorContaining("did you mean \"matmul\"? change it to @IreeFunction(\"matmul\")");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] scalars: @IreeFunction(abi) of method scalars does not fit the"
                + " calling convention 0iIfF_i of \"scalars\" in the compiled module"
                + " \"models/classifier.vmfb\": the reflection describes 2 arguments but the calling"
                + " convention 0iIfF_i takes 4; result 0: the reflection says f32 (cconv f) but the"
                + " function returns i; fix the signature, or remove abi to check the method against"
                + " the module's own reflection")
        .inFile(s)
        .onLineContaining("[\\\"f32\\\"]");
    assertThat(c)
        .hadErrorContaining(
            "[IreeSignatureMismatch] main: @IreeFunction(abi) of method kinds does not fit the"
                + " calling convention 0rr_r of \"main\" in the compiled module"
                + " \"models/classifier.vmfb\": argument 0: the reflection says i32 (cconv i) but the"
                + " function takes r; fix the signature")
        .inFile(s)
        .onLineContaining("null],");
    assertThat(c).hadErrorCount(3);
    assertThat(t.models).isEmpty();
  }

  @Test
  void abiAndVmfbTogetherAreAnErrorThatSaysWhichToKeep() {
    write("models/classifier.vmfb", classifier().ireeZip());
    t.file("m.json", "{'f':{'a':[],'r':[]}}");
    JavaFileObject s =
        source(
            "Both",
            "@IreeModule(abi = \"m.json\",",
            "    vmfb = \"models/classifier.vmfb\")",
            "interface Both {",
            "  void f();",
            "  @IreeFunction(abi = \"{\\\"a\\\":[\\\"i32\\\"],\\\"r\\\":[]}\") void g(String wrong);",
            "}");
    Compilation c = t.compile(s);
    assertThat(c)
        .hadErrorContaining(
            "[IreeBadInterface] @IreeModule sets both abi = \"m.json\" and vmfb ="
                + " \"models/classifier.vmfb\", but an interface is checked against one of them; keep"
                + " vmfb (the compiled module that runs) and remove abi, or remove vmfb to check"
                + " against the JSON file")
        .inFile(s)
        .onLineContaining("vmfb = \"models/classifier.vmfb\"");
    // Methods with their own signature are still checked; the others are not reported again.
    assertThat(c)
        .hadErrorContaining("g: wrong is \"i32\" in the module")
        .inFile(s)
        .onLineContaining("String wrong");
    assertThat(c).hadErrorCount(2);
  }

  @Test
  void aDeclarationThatDoesNotParseIsAWarningAndTheCallingConventionIsUsed() {
    String text = "sync func @odd(%input0: tensor<4xf32> -> (%output0: tensor<4xf32>)";
    write(
        "models/odd.vmfb",
        TestModules.spec()
            .function("odd", "0rr_r", "iree.abi.declaration", text)
            .export("odd", 0, null)
            .ireeZip());
    JavaFileObject s =
        source(
            "Odd",
            "@IreeModule(vmfb = \"models/odd.vmfb\")",
            "interface Odd {",
            "  FloatArray odd(FloatArray a, NdArray b);",
            "}");
    Compilation c = t.compileClean(s);
    assertThat(c)
        .hadWarningContaining(
            "[IreeReflectionFallback] odd: in the compiled module \"models/odd.vmfb\", the"
                + " iree.abi.declaration does not parse (iree.abi.declaration at")
        .inFile(s)
        .onLineContaining("FloatArray odd(");
    assertThat(c)
        .hadWarningContaining(
            "; it was ignored, so method odd is checked against its calling convention 0rr_r alone"
                + " (the number of arguments and results and their VM kinds; no element types or"
                + " shapes); the declaration is \""
                + text
                + "\"");
    assertThat(ours(c, Diagnostic.Kind.WARNING)).hasSize(1);
    assertThat(t.function("odd").reflectionSource())
        .isEqualTo("models/odd.vmfb (calling convention)");
  }

  @Test
  void reflectionThatCannotBeUsedAtAllIsAnErrorOnTheMethod() {
    write(
        "models/broken.vmfb",
        TestModules.spec()
            .function("f", "0r_r", "iree.abi", "{\"a\":[[\"ndarray\",\"f32\",\"x\"]],\"r\":[]}")
            .function("g", "0r_r")
            .export("f", 0, null)
            .export("g", 1, null)
            .ireeZip());
    // 2019 modules: no calling convention, and no reflection on this export.
    write("models/ancient.vmfb", TestModules.typical(TestModules.Schema.S2019).bare());
    JavaFileObject s =
        source(
            "Broken",
            "@IreeModule(vmfb = \"models/broken.vmfb\")",
            "interface Broken {",
            "  void f(FloatArray a);",
            "  VmRef g(VmRef a);",
            "}");
    JavaFileObject ancient =
        source(
            "Ancient",
            "@IreeModule(vmfb = \"models/ancient.vmfb\")",
            "interface Ancient {",
            "  void __init();",
            "}");
    Compilation c = t.compile(s, ancient);
    assertThat(c)
        .hadErrorContaining(
            "[IreeBadReflection] f: the reflection of \"f\" in the compiled module"
                + " \"models/broken.vmfb\" does not parse: iree.abi JSON at $.a[0][2]")
        .inFile(s)
        .onLineContaining("void f(");
    assertThat(c)
        .hadErrorContaining(
            "; recompile the module, or state the signature in @IreeFunction(abi = ...) on method f")
        .inFile(s)
        .onLineContaining("void f(");
    assertThat(c)
        .hadErrorContaining(
            "[IreeBadReflection] __init: the compiled module \"models/ancient.vmfb\" states no"
                + " usable signature for \"__init\": no usable reflection among the attributes []")
        .inFile(ancient)
        .onLineContaining("void __init()");
    assertThat(c).hadErrorCount(2);
  }
}
