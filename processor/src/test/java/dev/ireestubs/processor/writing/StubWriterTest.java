package dev.ireestubs.processor.writing;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.processor.CompiledClasses.call;
import static dev.ireestubs.processor.ProcessorTester.assertGolden;
import static dev.ireestubs.processor.ProcessorTester.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import com.palantir.javapoet.ClassName;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.IreeSignatureMismatchException;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.IntArray;
import dev.ireestubs.processor.CompiledClasses;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.processor.ValueFailures;
import dev.ireestubs.processor.model.StubModel;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated stubs: their source against golden files (set {@code -Dgolden.update=true} to
 * rewrite them), and their behaviour, by compiling an interface and calling the stub against a host
 * module.
 */
class StubWriterTest {

  /** The module of the example: an sdict argument, an inlined sdict result, named args. */
  static final String CLASSIFIER_JSON =
      "{'predict': {'a': [['sdict', ['image', ['ndarray', 'f32', 3, 1, 2, 2]], ['label', 'i32']]],"
          + "  'r': [['sdict', ['logits', ['ndarray', 'f32', 2, 1, 3]], ['probs', ['ndarray', 'f32', 2, 1, 3]]]], 'v': 1},"
          + " 'embed': {'a': [['named', 'tokens', ['ndarray', 'i32', 2, 1, null]]],"
          + "  'r': [['ndarray', 'f32', 2, 1, 4]], 'v': 1},"
          + " 'batch': {'a': [['py_homogeneous_list', ['ndarray', 'f32', 1, 2]], 'f64'],"
          + "  'r': [['py_homogeneous_list', 'f64']], 'v': 1},"
          + " 'pairs': {'a': [['stuple', 'i64', 'i1'], ['slist', 'f32', 'f32']],"
          + "  'r': ['i64', ['ndarray', 'f64', 2, 2, 2], 'i1'], 'v': 1}}";

  static final String[] CLASSIFIER = {
    "@IreeModule(name = \"module\", abi = \"classifier.abi.json\")",
    "public interface Classifier {",
    "  record Features(FloatArray image, int label) {}",
    "  record Scores(FloatArray probs, FloatArray logits) {}",
    "  record Pair(long count, boolean flag) {}",
    "  record Triple(long total, double[][] grid, boolean any) {}",
    "  Scores predict(Features features);",
    "  FloatArray embed(@IreeKey(\"tokens\") IntArray ids);",
    "  List<Double> batch(List<FloatArray> rows, double scale);",
    "  Triple pairs(Pair pair, List<Float> xy);",
    "  default String describe() { return \"classifier\"; }",
    "}"
  };

  /** The rest of the descriptor kinds: void, nesting, lists of records, refs, boxed, NdArray. */
  static final String MISC_JSON =
      "{'log': {'a': [['ndarray', 'f32', 1, null]], 'r': []},"
          + " 'nested': {'a': [['sdict', ['inner', ['sdict', ['a', 'i32'], ['b', ['ndarray', 'i64', 0]]]],"
          + "   ['items', ['py_homogeneous_list', ['stuple', 'i32', 'f64']]]]],"
          + "  'r': [['slist', 'i32', 'i32']]},"
          + " 'opaque': {'a': [null, ['ndarray', 'f16', 2, null, null]], 'r': [null, 'unknown']},"
          + " 'anyType': {'a': [['ndarray', 'i8', 1, 3]], 'r': [['ndarray', 'bf16', 1, 2]]}}";

  static final String[] MISC = {
    "@IreeModule(abi = \"misc.abi.json\")",
    "public interface Misc {",
    "  record Inner(Integer a, LongArray b) {}",
    "  record Item(int id, double score) {}",
    "  record Outer(List<Item> items, Inner inner) {}",
    "  record Refs(VmRef first, VmRef second) {}",
    "  void log(float[] values);",
    "  List<Integer> nested(Outer outer);",
    "  Refs opaque(VmRef handle, HalfArray half);",
    "  BFloat16Array anyType(NdArray x);",
    "}"
  };

  /** sdicts whose values have one Java type, as {@code Map<String, V>}: arguments and results. */
  static final String MAPS_JSON =
      "{'count': {'a': [['sdict', ['a', 'i32'], ['b', 'i32']]], 'r': [['sdict', ['max', 'i64'], ['min', 'i64']]]},"
          + " 'scale': {'a': [['sdict', ['factors', ['sdict', ['x', 'f32'], ['y', 'f32']]],"
          + "   ['images', ['sdict', ['left', ['ndarray', 'f32', 1, 2]], ['right', ['ndarray', 'f32', 1, 2]]]]]],"
          + "  'r': [['ndarray', 'f32', 1, 2], ['sdict', ['left', ['ndarray', 'f32', 1, 2]], ['right', ['ndarray', 'f32', 1, 2]]]]},"
          + " 'batch': {'a': [['py_homogeneous_list', ['sdict', ['a', 'i32']]]],"
          + "  'r': [['py_homogeneous_list', ['sdict', ['a', 'i32']]]]}}";

  static final String[] MAPS = {
    "import java.util.Map;",
    "@IreeModule(abi = \"maps.abi.json\")",
    "public interface Maps {",
    "  record Input(Map<String, Float> factors, Map<String, FloatArray> images) {}",
    "  record Output(FloatArray sum, Map<String, FloatArray> scaled) {}",
    "  Map<String, Long> count(Map<String, Integer> counts);",
    "  Output scale(Input input);",
    "  List<Map<String, Integer>> batch(List<Map<String, Integer>> rows);",
    "}"
  };

  @TempDir Path dir;

  private Compilation compileClassifier() {
    ProcessorTester t = new ProcessorTester(dir).file("classifier.abi.json", CLASSIFIER_JSON);
    return t.compileClean(source("Classifier", CLASSIFIER));
  }

  @Test
  void generatedSourceMatchesTheGoldenFile() throws IOException {
    Compilation c = compileClassifier();
    JavaFileObject stub =
        c.generatedFile(StandardLocation.SOURCE_OUTPUT, "test", "Iree_Classifier.java")
            .orElseThrow();
    assertGolden(stub.getCharContent(false).toString(), "Iree_Classifier.java");
  }

  @Test
  void generatedSourceOfTheOtherKindsMatchesTheGoldenFile() throws IOException {
    ProcessorTester t = new ProcessorTester(dir).file("misc.abi.json", MISC_JSON);
    Compilation c = t.compileClean(source("Misc", MISC));
    JavaFileObject stub =
        c.generatedFile(StandardLocation.SOURCE_OUTPUT, "test", "Iree_Misc.java").orElseThrow();
    assertGolden(stub.getCharContent(false).toString(), "Iree_Misc.java");
  }

  @Test
  void metadataTextCannotBreakTheGeneratedSource() {
    // A module name and a key that would close a Javadoc comment or form a unicode escape.
    ProcessorTester t = new ProcessorTester(dir);
    t.compileClean(
        source(
            "Odd",
            "@IreeModule(name = \"m*/x\\\\uZZZZ\")",
            "interface Odd {",
            "  record In(@IreeKey(\"a\\\\uZZZZ*/\") int a) {}",
            "  @IreeFunction(abi = \"{\\\"a\\\":[[\\\"sdict\\\",[\\\"a\\\\\\\\uZZZZ*/\\\",\\\"i32\\\"]]],\\\"r\\\":[]}\")",
            "  void f(In in);",
            "  @IreeFunction(value = \"f\", abi = \"{\\\"a\\\":[[\\\"sdict\\\",[\\\"a\\\\\\\\uZZZZ*/\\\",\\\"i32\\\"]]],\\\"r\\\":[]}\")",
            "  void g(java.util.Map<String, Integer> in);",
            "}"));
  }

  private Compilation compileMaps() {
    ProcessorTester t = new ProcessorTester(dir).file("maps.abi.json", MAPS_JSON);
    return t.compileClean(source("Maps", MAPS));
  }

  @Test
  void generatedSourceOfMapsMatchesTheGoldenFile() throws IOException {
    JavaFileObject stub =
        compileMaps()
            .generatedFile(StandardLocation.SOURCE_OUTPUT, "test", "Iree_Maps.java")
            .orElseThrow();
    assertGolden(stub.getCharContent(false).toString(), "Iree_Maps.java");
  }

  /** A host module implementing the classifier with real arithmetic. */
  static HostModule classifierModule() {
    Map<String, dev.ireestubs.abi.FunctionSignature> sig =
        AbiJson.parseModule(ProcessorTester.json(CLASSIFIER_JSON));
    return HostModule.builder("module")
        .valueFunction(
            "predict",
            sig.get("predict"),
            args -> {
              Map<?, ?> features = (Map<?, ?>) args.get(0);
              FloatArray image = (FloatArray) features.get("image");
              int label = (Integer) features.get("label");
              float sum = 0;
              for (int i = 0; i < image.size(); i++) {
                sum += image.getFlat(i);
              }
              FloatArray logits = FloatArray.of(new float[][] {{sum, label, -sum}});
              FloatArray probs = FloatArray.of(new float[][] {{0.5f, 0.25f, 0.25f}});
              return Map.of("logits", logits, "probs", probs);
            })
        .valueFunction(
            "embed",
            sig.get("embed"),
            args -> {
              IntArray ids = (IntArray) args.get(0);
              return FloatArray.of(new float[][] {{ids.size(), ids.get(0, 0), 0, 1}});
            })
        .valueFunction(
            "batch",
            sig.get("batch"),
            args -> {
              double scale = (Double) args.get(1);
              return ((List<?>) args.get(0))
                  .stream()
                      .map(
                          r -> (double) (((FloatArray) r).get(0) + ((FloatArray) r).get(1)) * scale)
                      .collect(java.util.stream.Collectors.toList());
            })
        .valueFunction(
            "pairs",
            sig.get("pairs"),
            args -> {
              List<?> pair = (List<?>) args.get(0);
              List<?> xy = (List<?>) args.get(1);
              return List.of(
                  (Long) pair.get(0) * 2,
                  dev.ireestubs.ndarray.DoubleArray.of(
                      new double[][] {{(Float) xy.get(0), (Float) xy.get(1)}, {0, 0}}),
                  !(Boolean) pair.get(1));
            })
        .build();
  }

  /** A host module for {@link #MAPS_JSON}; it receives sdicts as maps and returns maps. */
  static HostModule mapsModule() {
    Map<String, dev.ireestubs.abi.FunctionSignature> sig =
        AbiJson.parseModule(ProcessorTester.json(MAPS_JSON));
    return HostModule.builder("module")
        .valueFunction(
            "count",
            sig.get("count"),
            args -> {
              Map<?, ?> counts = (Map<?, ?>) args.get(0);
              long a = (Integer) counts.get("a");
              long b = (Integer) counts.get("b");
              return Map.of("min", Math.min(a, b), "max", Math.max(a, b));
            })
        .valueFunction(
            "scale",
            sig.get("scale"),
            args -> {
              Map<?, ?> input = (Map<?, ?>) args.get(0);
              Map<?, ?> factors = (Map<?, ?>) input.get("factors");
              Map<?, ?> images = (Map<?, ?>) input.get("images");
              FloatArray left = (FloatArray) images.get("left");
              FloatArray right = (FloatArray) images.get("right");
              float x = (Float) factors.get("x");
              float y = (Float) factors.get("y");
              FloatArray sum =
                  FloatArray.of(
                      new float[] {left.get(0) + right.get(0), left.get(1) + right.get(1)});
              return List.of(
                  sum,
                  Map.of(
                      "right", FloatArray.of(new float[] {right.get(0) * y, right.get(1) * y}),
                      "left", FloatArray.of(new float[] {left.get(0) * x, left.get(1) * x})));
            })
        .valueFunction(
            "batch",
            sig.get("batch"),
            args ->
                ((List<?>) args.get(0))
                    .stream()
                        .map(r -> Map.of("a", (Integer) ((Map<?, ?>) r).get("a") * 10))
                        .collect(java.util.stream.Collectors.toList()))
        .build();
  }

  @Test
  void bufferViewsOfADeclarationPassAndReturnTypedArrays() throws Exception {
    String declaration =
        "sync func @twice(%input0: !hal.buffer_view) -> (%output0: !hal.buffer_view)";
    ProcessorTester t = new ProcessorTester(dir);
    CompiledClasses classes =
        new CompiledClasses(
            t.compileClean(
                source(
                    "Views",
                    "@IreeModule(name = \"module\")",
                    "public interface Views {",
                    "  @IreeFunction(abi = " + ProcessorTester.lit(declaration) + ")",
                    "  FloatArray twice(FloatArray x);",
                    "}")));
    Class<?> iface = classes.load("test.Views");
    java.util.function.Function<HostModule, Object> stub =
        module -> {
          try {
            return classes
                .load("test.Iree_Views")
                .getConstructor(ModuleBackend.class)
                .newInstance(module);
          } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
          }
        };
    HostModule doubling =
        HostModule.builder("module")
            .function(
                "twice",
                declaration,
                args -> {
                  FloatArray x = FloatArray.fromBufferView(args.getBufferView(0));
                  FloatArray y = FloatArray.zeros(x.shape());
                  for (int i = 0; i < x.size(); i++) {
                    y.setFlat(2 * x.getFlat(i), i);
                  }
                  return dev.ireestubs.vm.VmList.of(y.asBufferView());
                })
            .build();
    FloatArray y =
        (FloatArray) call(iface, stub.apply(doubling), "twice", FloatArray.of(new float[] {1, 2}));
    assertThat(y.toArray()).isEqualTo(new float[] {2, 4});

    // The declaration states no element type: the array class checks the result's.
    HostModule ints =
        HostModule.builder("module")
            .function(
                "twice",
                declaration,
                args -> dev.ireestubs.vm.VmList.of(IntArray.zeros(2).asBufferView()))
            .build();
    IreeValueException e =
        ValueFailures.result(() -> call(iface, stub.apply(ints), "twice", FloatArray.zeros(2)));
    assertThat(e).hasMessageThat().startsWith("twice: result: ");
    assertThat(e).hasMessageThat().contains("FloatArray holds f32");
    assertThat(e).hasMessageThat().contains("the buffer view holds i32");
  }

  @Test
  void theStubPassesAndReturnsMapsInDescriptorOrder() throws Exception {
    CompiledClasses classes = new CompiledClasses(compileMaps());
    Class<?> iface = classes.load("test.Maps");
    Object stub =
        classes
            .load("test.Iree_Maps")
            .getConstructor(ModuleBackend.class)
            .newInstance(mapsModule());

    Map<?, ?> count = (Map<?, ?>) call(iface, stub, "count", Map.of("b", 3, "a", 8));
    assertThat(count).containsExactly("max", 8L, "min", 3L).inOrder();
    assertThrows(UnsupportedOperationException.class, () -> count.clear());

    Object input =
        classes
            .load("test.Maps$Input")
            .getConstructors()[0]
            .newInstance(
                Map.of("y", 10f, "x", 2f),
                Map.of(
                    "left", FloatArray.of(new float[] {1, 2}),
                    "right", FloatArray.of(new float[] {3, 4})));
    Object output = call(iface, stub, "scale", input);
    FloatArray sum = (FloatArray) output.getClass().getMethod("sum").invoke(output);
    assertThat(sum.toArray()).isEqualTo(new float[] {4, 6});
    Map<?, ?> scaled = (Map<?, ?>) output.getClass().getMethod("scaled").invoke(output);
    assertThat(List.copyOf(scaled.keySet())).containsExactly("left", "right").inOrder();
    assertThat(((FloatArray) scaled.get("left")).toArray()).isEqualTo(new float[] {2, 4});
    assertThat(((FloatArray) scaled.get("right")).toArray()).isEqualTo(new float[] {30, 40});

    Object batch = call(iface, stub, "batch", List.of(Map.of("a", 1), Map.of("a", 2)));
    assertThat(batch).isEqualTo(List.of(Map.of("a", 10), Map.of("a", 20)));
  }

  @Test
  void wrongMapsAreClearErrorsNamingTheKey() throws Exception {
    CompiledClasses classes = new CompiledClasses(compileMaps());
    Class<?> iface = classes.load("test.Maps");
    Object stub =
        classes
            .load("test.Iree_Maps")
            .getConstructor(ModuleBackend.class)
            .newInstance(mapsModule());
    assertThat(ValueFailures.argument(() -> call(iface, stub, "count", Map.of("a", 1))))
        .hasMessageThat()
        .isEqualTo("count: counts: missing key 'b'; expected keys [a, b]");
    assertThat(
            ValueFailures.argument(
                () -> call(iface, stub, "count", Map.of("a", 1, "b", 2, "c", 3))))
        .hasMessageThat()
        .isEqualTo("count: counts: unexpected keys [c]; expected exactly [a, b]");
    Map<String, Integer> nullValue = new java.util.HashMap<>();
    nullValue.put("a", 1);
    nullValue.put("b", null);
    assertThat(ValueFailures.argument(() -> call(iface, stub, "count", nullValue)))
        .hasMessageThat()
        .isEqualTo("count: counts.b: is null");
    assertThat(ValueFailures.argument(() -> call(iface, stub, "count", (Object) null)))
        .hasMessageThat()
        .isEqualTo("count: counts: is null");
    Object wrongShape =
        classes
            .load("test.Maps$Input")
            .getConstructors()[0]
            .newInstance(
                Map.of("x", 1f, "y", 1f),
                Map.of("left", FloatArray.zeros(2), "right", FloatArray.zeros(3)));
    assertThat(ValueFailures.argument(() -> call(iface, stub, "scale", wrongShape)))
        .hasMessageThat()
        .isEqualTo(
            "scale: input.images.right: expected tensor<2xf32> but got tensor<3xf32> (dimension 0"
                + " is 3, not 2)");
    assertThat(
            ValueFailures.argument(
                () -> call(iface, stub, "batch", List.of(Map.of("a", 1), Map.of("b", 2)))))
        .hasMessageThat()
        .isEqualTo("batch: rows[1]: missing key 'a'; expected keys [a]");
  }

  @Test
  void theStubCallsTheModuleWithRecordsListsAndArrays() throws Exception {
    CompiledClasses classes = new CompiledClasses(compileClassifier());
    Class<?> iface = classes.load("test.Classifier");
    Class<?> stubClass = classes.load("test.Iree_Classifier");
    Object stub = stubClass.getConstructor(ModuleBackend.class).newInstance(classifierModule());

    Class<?> features = classes.load("test.Classifier$Features");
    Object f =
        features.getConstructors()[0].newInstance(
            FloatArray.of(new float[][][] {{{1, 2}, {3, 4}}}), 7);
    Object scores = call(iface, stub, "predict", f);
    FloatArray logits = (FloatArray) scores.getClass().getMethod("logits").invoke(scores);
    assertThat(logits.toArray2D()).isEqualTo(new float[][] {{10, 7, -10}});

    FloatArray embedded =
        (FloatArray) call(iface, stub, "embed", IntArray.of(new int[][] {{5, 6, 7}}));
    assertThat(embedded.toArray2D()).isEqualTo(new float[][] {{3, 5, 0, 1}});

    Object batch =
        call(
            iface,
            stub,
            "batch",
            List.of(FloatArray.of(new float[] {1, 2}), FloatArray.of(new float[] {3, 4})),
            2.0);
    assertThat(batch).isEqualTo(List.of(6.0, 14.0));

    Class<?> pairClass = classes.load("test.Classifier$Pair");
    Object triple =
        call(
            iface,
            stub,
            "pairs",
            pairClass.getConstructors()[0].newInstance(21L, true),
            List.of(1.5f, 2.5f));
    assertThat(triple.getClass().getMethod("total").invoke(triple)).isEqualTo(42L);
    assertThat(triple.getClass().getMethod("any").invoke(triple)).isEqualTo(false);
    assertThat((double[][]) triple.getClass().getMethod("grid").invoke(triple))
        .isEqualTo(new double[][] {{1.5, 2.5}, {0, 0}});

    assertThat(call(iface, stub, "describe")).isEqualTo("classifier");
  }

  @Test
  void wrongArgumentsAndResultsAreClearErrors() throws Exception {
    CompiledClasses classes = new CompiledClasses(compileClassifier());
    Class<?> iface = classes.load("test.Classifier");
    Object stub =
        classes
            .load("test.Iree_Classifier")
            .getConstructor(ModuleBackend.class)
            .newInstance(classifierModule());
    Class<?> features = classes.load("test.Classifier$Features");
    Object wrongShape = features.getConstructors()[0].newInstance(FloatArray.zeros(1, 2, 3), 7);
    IreeValueException shape =
        ValueFailures.argument(() -> call(iface, stub, "predict", wrongShape));
    assertThat(shape)
        .hasMessageThat()
        .isEqualTo(
            "predict: features.image: expected tensor<1x2x2xf32> but got tensor<1x2x3xf32>"
                + " (dimension 2 is 3, not 2)");
    IreeValueException nul =
        ValueFailures.argument(() -> call(iface, stub, "predict", (Object) null));
    assertThat(nul).hasMessageThat().isEqualTo("predict: features: is null");
    IreeValueException xy =
        ValueFailures.argument(
            () ->
                call(
                    iface,
                    stub,
                    "pairs",
                    classes.load("test.Classifier$Pair").getConstructors()[0].newInstance(1L, true),
                    List.of(1f)));
    assertThat(xy).hasMessageThat().isEqualTo("pairs: xy: expected 2 elements but got 1");

    // A module that returns the wrong shape: the result is named.
    HostModule lying =
        HostModule.builder("module")
            .function(
                "embed",
                AbiJson.parseModule(ProcessorTester.json(CLASSIFIER_JSON)).get("embed"),
                args -> dev.ireestubs.vm.VmList.of(FloatArray.zeros(1, 5).asBufferView()))
            .build();
    // The host module itself checks what its function returns.
    ValueFailures.result(
        () ->
            lying
                .function("module.embed")
                .invoke(dev.ireestubs.vm.VmList.of(IntArray.zeros(1, 2).asBufferView())));
  }

  @Test
  void bindingToAModuleThatDiffersFailsAtConstruction() throws Exception {
    CompiledClasses classes = new CompiledClasses(compileClassifier());
    HostModule other =
        HostModule.builder("module")
            .function("predict", "{\"a\":[\"i32\"],\"r\":[\"i32\"]}", args -> args)
            .function(
                "embed",
                "{\"a\":[[\"ndarray\",\"i32\",2,1,null]],\"r\":[[\"ndarray\",\"f32\",2,1,8]]}",
                args -> args)
            .function(
                "batch",
                "{\"a\":[[\"py_homogeneous_list\",[\"ndarray\",\"f32\",1,2]],\"f64\"],\"r\":[[\"py_homogeneous_list\",\"f64\"]]}",
                args -> args)
            .function(
                "pairs",
                "{\"a\":[[\"stuple\",\"i64\",\"i1\"],[\"slist\",\"f32\",\"f32\"]],\"r\":[\"i64\",[\"ndarray\",\"f64\",2,2,2],\"i1\"]}",
                args -> args)
            .build();
    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class,
            () ->
                classes
                    .load("test.Iree_Classifier")
                    .getConstructor(ModuleBackend.class)
                    .newInstance(other));
    assertThat(e).hasCauseThat().isInstanceOf(IreeSignatureMismatchException.class);
    assertThat(e.getCause())
        .hasMessageThat()
        .startsWith("module.predict: the stub was compiled against");
  }

  /**
   * In a named module that does not read java.compiler ({@code marksGenerated} false) the stub
   * carries no {@code @Generated}, which would not compile there.
   */
  @Test
  void aStubIsMarkedGeneratedOnlyWhereItsModuleReadsJavaCompiler() {
    StubWriter writer = new StubWriter("dev.ireestubs.processor.IreeStubsProcessor");
    ClassName iface = ClassName.get("com.acme", "Empty");
    ClassName stub = ClassName.get("com.acme", "Iree_Empty");
    String marked = writer.source(new StubModel(iface, stub, "module", List.of(), Set.of(), true));
    String unmarked =
        writer.source(new StubModel(iface, stub, "module", List.of(), Set.of(), false));
    assertThat(marked).contains("import javax.annotation.processing.Generated;");
    assertThat(marked).contains("@Generated(");
    assertThat(unmarked).doesNotContain("javax.annotation.processing");
    assertThat(unmarked).doesNotContain("@Generated");
    assertThat(unmarked).contains("public final class Iree_Empty implements Empty {");
  }
}
