package dev.ireestubs.processor.writing;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.processor.CompiledClasses.call;
import static dev.ireestubs.processor.ProcessorTester.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.processor.CompiledClasses;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.vm.VmList;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Methods whose bodies are equal but for their function, its name and their constants call one
 * shared body: the generated code (a golden file), calls through a host module, and every message a
 * failure gives, which must be the one the method's own inline body would give.
 */
class SharedBodiesTest {

  /** Pairs of functions of one structure (other dimensions, other names), and two of their own. */
  static final String REPEATED_JSON =
      "{'wide4': {'a': [['ndarray', 'f32', 2, 1, 4]], 'r': [['ndarray', 'f32', 2, 1, 4]]},"
          + " 'wide8': {'a': [['ndarray', 'f32', 2, 1, 8]], 'r': [['ndarray', 'f32', 2, 1, 8]]},"
          + " 'rows1': {'a': [['py_homogeneous_list', ['ndarray', 'f32', 1, 2]], 'f64'],"
          + "  'r': [['py_homogeneous_list', 'f64']]},"
          + " 'rows2': {'a': [['py_homogeneous_list', ['ndarray', 'f32', 1, 2]], 'f64'],"
          + "  'r': [['py_homogeneous_list', 'f64']]},"
          + " 'predict': {'a': [['sdict', ['image', ['ndarray', 'f32', 3, 1, 2, 2]], ['label', 'i32']]],"
          + "  'r': [['sdict', ['logits', ['ndarray', 'f32', 2, 1, 3]], ['probs', ['ndarray', 'f32', 2, 1, 3]]]]},"
          + " 'predictAgain': {'a': [['sdict', ['image', ['ndarray', 'f32', 3, 1, 2, 2]], ['label', 'i32']]],"
          + "  'r': [['sdict', ['logits', ['ndarray', 'f32', 2, 1, 3]], ['probs', ['ndarray', 'f32', 2, 1, 3]]]]},"
          + " 'alone': {'a': ['i32', 'i64'], 'r': ['i32']},"
          + " 'callLikeRows1': {'a': ['i1'], 'r': []}}";

  static final String[] REPEATED = {
    "@IreeModule(name = \"module\", abi = \"repeated.abi.json\")",
    "public interface Repeated {",
    "  record Features(FloatArray image, int label) {}",
    "  record Scores(FloatArray logits, FloatArray probs) {}",
    "  FloatArray wide4(FloatArray function);",
    "  FloatArray wide8(FloatArray function);",
    "  List<Double> rows1(List<FloatArray> rows, double scale);",
    "  List<Double> rows2(List<FloatArray> rows, double scale);",
    "  Scores predict(Features features);",
    "  Scores predictAgain(Features features);",
    "  int alone(int a, long b);",
    "  void callLikeRows1(boolean flag);",
    "}"
  };

  @TempDir Path dir;

  private Compilation compile(String name, String... lines) {
    ProcessorTester t = new ProcessorTester(dir).file("repeated.abi.json", REPEATED_JSON);
    return t.compileClean(source(name, lines));
  }

  @Test
  void methodsOfEqualBodiesCallOneSharedBody() throws IOException {
    String stub = ProcessorTester.generatedSource(compile("Repeated", REPEATED), "Iree_Repeated");
    ProcessorTester.assertGolden(stub, "Iree_Repeated.java");
    // Three shared bodies; the methods of their own keep their bodies inline.
    assertThat(stub).contains("return callLikeWide4(wide8Function, \"wide8\", function, ");
    assertThat(stub).contains("private static List<Double> callLikeRows12(");
    assertThat(stub).contains("return Marshal.i32(results, 0, \"alone: result\");");
    assertThat(stub.split("private static ").length - 1).isEqualTo(3 + 1); // + the holder class
  }

  /** A host module for the repeated functions: each returns what shows which function ran. */
  static HostModule module() {
    Map<String, FunctionSignature> sig = AbiJson.parseModule(ProcessorTester.json(REPEATED_JSON));
    HostModule.Builder b = HostModule.builder("module");
    for (int n : new int[] {4, 8}) {
      b.valueFunction(
          "wide" + n,
          sig.get("wide" + n),
          args -> {
            FloatArray x = (FloatArray) args.get(0);
            float[] out = new float[n];
            for (int i = 0; i < n; i++) {
              out[i] = x.get(0, i) * n;
            }
            return FloatArray.of(new float[][] {out});
          });
    }
    for (int n : new int[] {1, 2}) {
      b.valueFunction(
          "rows" + n,
          sig.get("rows" + n),
          args -> {
            List<Double> out = new ArrayList<>();
            for (Object r : (List<?>) args.get(0)) {
              out.add((double) ((FloatArray) r).get(0) * (Double) args.get(1) + n);
            }
            return out;
          });
    }
    for (String f : List.of("predict", "predictAgain")) {
      b.valueFunction(
          f,
          sig.get(f),
          args -> {
            int label = (Integer) ((Map<?, ?>) args.get(0)).get("label");
            float tag = f.equals("predict") ? 1 : 2;
            return Map.of(
                "logits", FloatArray.of(new float[][] {{label, tag, 0}}),
                "probs", FloatArray.of(new float[][] {{0, 0, tag}}));
          });
    }
    b.valueFunction(
        "alone", sig.get("alone"), args -> (Integer) args.get(0) + (int) (long) (Long) args.get(1));
    b.function("callLikeRows1", sig.get("callLikeRows1"), args -> VmList.variant(0));
    return b.build();
  }

  @Test
  void eachMethodCallsItsOwnFunctionThroughTheSharedBody() throws Exception {
    CompiledClasses classes = new CompiledClasses(compile("Repeated", REPEATED));
    Class<?> iface = classes.load("test.Repeated");
    Object stub = classes.stub("Repeated", module());
    FloatArray four =
        (FloatArray) call(iface, stub, "wide4", FloatArray.of(new float[][] {{1, 2, 3, 4}}));
    assertThat(four.toArray2D()).isEqualTo(new float[][] {{4, 8, 12, 16}});
    FloatArray eight =
        (FloatArray)
            call(iface, stub, "wide8", FloatArray.of(new float[][] {{1, 1, 1, 1, 1, 1, 1, 2}}));
    assertThat(eight.toArray2D()).isEqualTo(new float[][] {{8, 8, 8, 8, 8, 8, 8, 16}});
    List<FloatArray> rows =
        List.of(FloatArray.of(new float[] {1, 0}), FloatArray.of(new float[] {2, 0}));
    assertThat(call(iface, stub, "rows1", rows, 10.0)).isEqualTo(List.of(11.0, 21.0));
    assertThat(call(iface, stub, "rows2", rows, 10.0)).isEqualTo(List.of(12.0, 22.0));
    Object features =
        classes
            .load("test.Repeated$Features")
            .getConstructors()[0]
            .newInstance(FloatArray.zeros(1, 2, 2), 7);
    assertThat(call(iface, stub, "predict", features).toString())
        .contains("logits=FloatArray<1x3xf32> [[7.0, 1.0, 0.0]]");
    Object scores = call(iface, stub, "predictAgain", features);
    FloatArray probs = (FloatArray) scores.getClass().getMethod("probs").invoke(scores);
    assertThat(probs.toArray2D()).isEqualTo(new float[][] {{0, 0, 2}});
    assertThat(call(iface, stub, "alone", 2, 40L)).isEqualTo(42);
  }

  @Test
  void aFailureInASharedBodyNamesTheMethodsOwnFunctionAsItsInlineBodyWould() throws Exception {
    CompiledClasses shared = new CompiledClasses(compile("Repeated", REPEATED));
    CompiledClasses inline =
        new CompiledClasses(
            single(
                "FloatArray function", "List<FloatArray> rows, double scale", "Features features"));
    Object sharedStub = shared.stub("Repeated", module());
    Object inlineStub = inline.stub("Single", module());
    Class<?> repeated = shared.load("test.Repeated");
    Class<?> alone = inline.load("test.Single");

    FloatArray narrow = FloatArray.zeros(1, 3);
    assertThat(failure(repeated, sharedStub, "wide4", narrow))
        .isEqualTo(
            "wide4: function: expected tensor<1x4xf32> but got tensor<1x3xf32> (dimension 1 is 3, not 4)");
    assertThat(failure(repeated, sharedStub, "wide8", narrow))
        .isEqualTo(failure(alone, inlineStub, "wide8", narrow));
    assertThat(failure(repeated, sharedStub, "wide8", narrow)).startsWith("wide8: function: ");

    List<FloatArray> badRow = List.of(FloatArray.zeros(2), FloatArray.zeros(3));
    assertThat(failure(repeated, sharedStub, "rows1", badRow, 1.0)).startsWith("rows1: rows[1]: ");
    assertThat(failure(repeated, sharedStub, "rows2", badRow, 1.0))
        .isEqualTo(failure(alone, inlineStub, "rows2", badRow, 1.0));
    assertThat(failure(repeated, sharedStub, "rows2", null, 1.0))
        .isEqualTo(failure(alone, inlineStub, "rows2", null, 1.0));

    Object badImage =
        shared
            .load("test.Repeated$Features")
            .getConstructors()[0]
            .newInstance(FloatArray.zeros(1, 2, 3), 7);
    Object badImageToo =
        inline
            .load("test.Single$Features")
            .getConstructors()[0]
            .newInstance(FloatArray.zeros(1, 2, 3), 7);
    assertThat(failure(repeated, sharedStub, "predict", badImage))
        .startsWith("predict: features.image: ");
    assertThat(failure(repeated, sharedStub, "predictAgain", badImage))
        .isEqualTo(failure(alone, inlineStub, "predictAgain", badImageToo));
    assertThat(failure(repeated, sharedStub, "predictAgain", (Object) null))
        .isEqualTo("predictAgain: features: is null");

    // Results: a backend whose functions return the wrong shape and the wrong count.
    ModuleBackend lying = lying(module(), VmList.of(FloatArray.zeros(1, 5).asBufferView()));
    Object sharedLiar = shared.stub("Repeated", lying);
    Object inlineLiar = inline.stub("Single", lying);
    FloatArray wide8 = FloatArray.zeros(1, 8);
    assertThat(failure(repeated, sharedLiar, "wide4", FloatArray.zeros(1, 4)))
        .startsWith("wide4: result: expected tensor<1x4xf32> but got tensor<1x5xf32>");
    assertThat(failure(repeated, sharedLiar, "wide8", wide8))
        .isEqualTo(failure(alone, inlineLiar, "wide8", wide8));
    Object features =
        shared
            .load("test.Repeated$Features")
            .getConstructors()[0]
            .newInstance(FloatArray.zeros(1, 2, 2), 7);
    assertThat(failure(repeated, sharedLiar, "predictAgain", features))
        .isEqualTo("predictAgain: expected 2 results but the function returned 1");
    assertThat(failure(repeated, sharedLiar, "rows1", List.of(), 1.0))
        .isEqualTo("rows1: result: expected a list but got a buffer view tensor<1x5xf32>");
    assertThat(failure(repeated, sharedLiar, "rows2", List.of(), 1.0))
        .isEqualTo(failure(alone, inlineLiar, "rows2", List.of(), 1.0));
  }

  @Test
  void methodsThatNameTheirParametersDifferentlyShareABodyAndEachFailureNamesItsOwn()
      throws Exception {
    Compilation renamed =
        compile(
            "Renamed",
            "@IreeModule(name = \"module\", abi = \"repeated.abi.json\")",
            "public interface Renamed {",
            "  record Features(FloatArray image, int label) {}",
            "  record Scores(FloatArray logits, FloatArray probs) {}",
            "  FloatArray wide4(FloatArray image);",
            "  FloatArray wide8(FloatArray pixels);",
            "  List<Double> rows1(List<FloatArray> rows, double scale);",
            "  List<Double> rows2(List<FloatArray> lines, double factor);",
            "  Scores predict(Features features);",
            "  Scores predictAgain(Features input);",
            "}");
    String stub = ProcessorTester.generatedSource(renamed, "Iree_Renamed");
    // One body per structure, printed in the first method's names; each passes its own.
    assertThat(stub.split("private static ").length - 1).isEqualTo(3 + 1); // + the holder class
    assertThat(stub)
        .contains("return callLikeWide4(wide8Function, \"wide8\", pixels, \"pixels\", ");
    assertThat(stub)
        .contains("callLikeRows1(rows2Function, \"rows2\", lines, factor, \"lines\", \"factor\"");
    assertThat(stub)
        .contains("throw Marshal.inFunction(failure, functionName, \"image\", imageName);");
    CompiledClasses shared = new CompiledClasses(renamed);
    CompiledClasses inline =
        new CompiledClasses(
            single("FloatArray pixels", "List<FloatArray> lines, double factor", "Features input"));
    Object sharedStub = shared.stub("Renamed", module());
    Object inlineStub = inline.stub("Single", module());
    Class<?> iface = shared.load("test.Renamed");
    Class<?> alone = inline.load("test.Single");

    FloatArray narrow = FloatArray.zeros(1, 3);
    assertThat(failure(iface, sharedStub, "wide4", narrow)).startsWith("wide4: image: ");
    assertThat(failure(iface, sharedStub, "wide8", narrow))
        .isEqualTo(failure(alone, inlineStub, "wide8", narrow));
    assertThat(failure(iface, sharedStub, "wide8", narrow)).startsWith("wide8: pixels: ");
    List<FloatArray> badRow = List.of(FloatArray.zeros(2), FloatArray.zeros(3));
    assertThat(failure(iface, sharedStub, "rows2", badRow, 1.0))
        .isEqualTo(failure(alone, inlineStub, "rows2", badRow, 1.0));
    assertThat(failure(iface, sharedStub, "rows2", badRow, 1.0)).startsWith("rows2: lines[1]: ");
    assertThat(failure(iface, sharedStub, "rows2", null, 1.0))
        .isEqualTo(failure(alone, inlineStub, "rows2", null, 1.0));
    Object badImage =
        shared
            .load("test.Renamed$Features")
            .getConstructors()[0]
            .newInstance(FloatArray.zeros(1, 2, 3), 7);
    Object badImageToo =
        inline
            .load("test.Single$Features")
            .getConstructors()[0]
            .newInstance(FloatArray.zeros(1, 2, 3), 7);
    assertThat(failure(iface, sharedStub, "predictAgain", badImage))
        .isEqualTo(failure(alone, inlineStub, "predictAgain", badImageToo));
    assertThat(failure(iface, sharedStub, "predictAgain", badImage))
        .startsWith("predictAgain: input.image: ");
    assertThat(failure(iface, sharedStub, "predictAgain", (Object) null))
        .isEqualTo("predictAgain: input: is null");
    // And the calls themselves still reach each method's own function.
    assertThat(call(iface, sharedStub, "rows2", List.of(FloatArray.of(new float[] {1, 0})), 10.0))
        .isEqualTo(List.of(12.0));
  }

  @Test
  void aBodyThatWouldTakeMoreThan255ParametersStaysInline() {
    // 130 ints named otherwise: 2 + 130 + 130 names. 130 arrays of other shapes under one set of
    // names: 2 + 130 + 130 descriptors. Either is more than a method may take (JVMS 4.3.3).
    int n = 130;
    List<String> ints = new ArrayList<>();
    List<String> arrays = new ArrayList<>();
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    List<String> x = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ints.add("'i32'");
      arrays.add("['ndarray', 'f32', 1, " + (i + 1) + "]");
      a.add("int a" + i);
      b.add("int b" + i);
      x.add("FloatArray x" + i);
    }
    String json =
        "{'ints1': {'a': ["
            + String.join(", ", ints)
            + "], 'r': []},"
            + " 'ints2': {'a': ["
            + String.join(", ", ints)
            + "], 'r': []},"
            + " 'arrays1': {'a': ["
            + String.join(", ", arrays)
            + "], 'r': []},"
            + " 'arrays2': {'a': ["
            + String.join(", ", arrays)
            + "], 'r': []}}";
    Compilation c =
        new ProcessorTester(dir)
            .file("many.abi.json", json)
            .compileClean(
                source(
                    "Many",
                    "@IreeModule(name = \"module\", abi = \"many.abi.json\")",
                    "public interface Many {",
                    "  void ints1(" + String.join(", ", a) + ");",
                    "  void ints2(" + String.join(", ", b) + ");",
                    "  void arrays1(" + String.join(", ", x) + ");",
                    "  void arrays2(" + String.join(", ", x) + ");",
                    "}"));
    assertThat(ProcessorTester.generatedSource(c, "Iree_Many")).doesNotContain("callLike");
  }

  /**
   * {@code wide8}, {@code rows2} and {@code predictAgain} alone, with these parameters: no two
   * bodies equal, every body inline, so their messages are what a shared body's must be.
   */
  private Compilation single(String wide8, String rows2, String predictAgain) {
    Compilation single =
        compile(
            "Single",
            "@IreeModule(name = \"module\", abi = \"repeated.abi.json\")",
            "public interface Single {",
            "  record Features(FloatArray image, int label) {}",
            "  record Scores(FloatArray logits, FloatArray probs) {}",
            "  FloatArray wide8(" + wide8 + ");",
            "  List<Double> rows2(" + rows2 + ");",
            "  Scores predictAgain(" + predictAgain + ");",
            "}");
    assertThat(ProcessorTester.generatedSource(single, "Iree_Single")).doesNotContain("callLike");
    return single;
  }

  private static String failure(Class<?> iface, Object stub, String method, Object... args) {
    return assertThrows(IreeValueException.class, () -> call(iface, stub, method, args))
        .getMessage();
  }

  /** {@code backend}, whose functions all return {@code results} (a copy each call). */
  private static ModuleBackend lying(ModuleBackend backend, VmList results) {
    return new ModuleBackend() {
      @Override
      public Optional<BackendFunction> lookup(String qualifiedName) {
        return backend
            .lookup(qualifiedName)
            .map(
                f ->
                    new BackendFunction() {
                      @Override
                      public String qualifiedName() {
                        return f.qualifiedName();
                      }

                      @Override
                      public String callingConvention() {
                        return f.callingConvention();
                      }

                      @Override
                      public Map<String, String> reflection() {
                        return f.reflection();
                      }

                      @Override
                      public VmList invoke(VmList arguments) {
                        return VmList.of(results.get(0));
                      }
                    });
      }

      @Override
      public List<String> functionNames() {
        return backend.functionNames();
      }

      @Override
      public void close() {
        backend.close();
      }
    };
  }
}
