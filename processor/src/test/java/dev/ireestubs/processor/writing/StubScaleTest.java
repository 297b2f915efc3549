package dev.ireestubs.processor.writing;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.processor.CompiledClasses.call;
import static dev.ireestubs.processor.ProcessorTester.source;

import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.processor.CompiledClasses;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.processor.ValueFailures;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stubs of modules far past what fits one class: thousands of functions, sdicts of thousands of
 * keys, keys too long for one string constant, shapes of very high rank and dimensions past {@code
 * int}. Each stub must compile and call correctly on a host module (each of these once failed with
 * "code too large", "too many constants", "constant string too long" or "integer number too
 * large").
 */
class StubScaleTest {

  @TempDir Path dir;

  @Test
  void aModuleOfThreeThousandFunctionsCompilesAndEveryFunctionCalls() throws Exception {
    int n = 3_000;
    StringBuilder json = new StringBuilder("{");
    StringBuilder java = new StringBuilder();
    java.append("@IreeModule(name = \"big\", abi = \"big.abi.json\") public interface Big {\n")
        .append("  record In(FloatArray image, int label) {}\n")
        .append("  record Out(float sum, int tag) {}\n");
    for (int i = 0; i < n; i++) {
      json.append(i == 0 ? "" : ",").append("'f").append(i).append("':");
      switch (i % 3) {
        case 0:
          json.append("{'a':['f32'],'r':['f32']}");
          java.append("  float f").append(i).append("(float x);\n");
          break;
        case 1:
          json.append("{'a':[['ndarray','f32',1,2]],'r':[['ndarray','f32',1,2]]}");
          java.append("  FloatArray f").append(i).append("(FloatArray x);\n");
          break;
        default:
          json.append(
              "{'a':[['sdict',['image',['ndarray','f32',2,1,2]],['label','i32']]],"
                  + "'r':[['sdict',['sum','f32'],['tag','i32']]]}");
          java.append("  Out f").append(i).append("(In in);\n");
          break;
      }
    }
    json.append('}');
    java.append("}");
    ProcessorTester t = new ProcessorTester(dir).file("big.abi.json", json.toString());
    Compilation c = t.compileClean(source("Big", java.toString()));
    String stubSource = ProcessorTester.generatedSource(c, "Iree_Big");
    // So large a stub delegates to its holders, each far from the class-file limits.
    assertThat(stubSource).contains("private static final class Functions0");
    assertThat(stubSource).doesNotContain("FunctionBinder.signature(");
    // Functions of one structure share a body, in the holder of the first; each holder's method
    // of such a function is a call of it (its constants counted in that holder's budget).
    assertThat(stubSource)
        .contains(
            "    static float callLikeF0(BackendFunction function, String functionName, float x) {");
    assertThat(stubSource).contains("return Functions0.callLikeF0(function, \"f2997\", x);");

    Map<String, FunctionSignature> signatures =
        AbiJson.parseModule(ProcessorTester.json(json.toString()));
    HostModule.Builder module = HostModule.builder("big");
    for (int i = 0; i < n; i++) {
      int k = i;
      String f = "f" + i;
      module.valueFunction(
          f,
          signatures.get(f),
          args -> {
            Object a = args.get(0);
            if (k % 3 == 0) {
              return (Float) a + k;
            }
            if (k % 3 == 1) {
              FloatArray x = (FloatArray) a;
              return FloatArray.of(new float[] {x.get(0) + k, x.get(1)});
            }
            Map<?, ?> in = (Map<?, ?>) a;
            FloatArray image = (FloatArray) in.get("image");
            return Map.of(
                "sum", image.get(0, 0) + image.get(0, 1), "tag", (Integer) in.get("label") + k);
          });
    }
    Object stub = new CompiledClasses(c).stub("Big", module.build());
    Class<?> iface = stub.getClass().getClassLoader().loadClass("test.Big");
    Class<?> inClass = stub.getClass().getClassLoader().loadClass("test.Big$In");
    for (int i = 0; i < n; i++) {
      String f = "f" + i;
      if (i % 3 == 0) {
        assertThat(call(stub.getClass(), stub, f, 1.5f)).isEqualTo(1.5f + i);
      } else if (i % 3 == 1) {
        FloatArray r =
            (FloatArray) call(stub.getClass(), stub, f, FloatArray.of(new float[] {1, 2}));
        assertThat(r.toArray()).isEqualTo(new float[] {1 + i, 2});
      } else {
        Object in =
            inClass.getConstructors()[0].newInstance(FloatArray.of(new float[][] {{1, 2}}), 7);
        Object out = call(stub.getClass(), stub, f, in);
        assertThat(out.toString()).isEqualTo("Out[sum=3.0, tag=" + (7 + i) + "]");
      }
    }
    assertThat(iface.isInstance(stub)).isTrue();
  }

  @Test
  void anSdictOfTenThousandKeysAsAMapCompilesAndCalls() throws Exception {
    int n = 10_000;
    StringBuilder dict = new StringBuilder("['sdict'");
    for (int i = 0; i < n; i++) {
      dict.append(",['key_").append(String.format("%05d", i)).append("','f32']");
    }
    dict.append(']');
    String json = "{'scale':{'a':[" + dict + "],'r':[" + dict + "]}}";
    ProcessorTester t = new ProcessorTester(dir).file("wide.abi.json", json);
    Compilation c =
        t.compileClean(
            source(
                "Wide",
                "import java.util.Map;",
                "@IreeModule(name = \"wide\", abi = \"wide.abi.json\")",
                "public interface Wide { Map<String, Float> scale(Map<String, Float> values); }"));
    FunctionSignature signature = AbiJson.parseModule(ProcessorTester.json(json)).get("scale");
    HostModule module =
        HostModule.builder("wide")
            .valueFunction(
                "scale",
                signature,
                args -> {
                  Map<String, Object> out = new LinkedHashMap<>();
                  ((Map<?, ?>) args.get(0)).forEach((k, v) -> out.put((String) k, (Float) v * 2));
                  return out;
                })
            .build();
    Object stub = new CompiledClasses(c).stub("Wide", module);
    Map<String, Float> values = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      values.put("key_" + String.format("%05d", i), (float) i);
    }
    @SuppressWarnings("unchecked")
    Map<String, Float> scaled = (Map<String, Float>) call(stub.getClass(), stub, "scale", values);
    assertThat(scaled).hasSize(n);
    assertThat(scaled.get("key_09999")).isEqualTo(19998f);
    values.remove("key_00042");
    IreeValueException e =
        ValueFailures.argument(() -> call(stub.getClass(), stub, "scale", values));
    assertThat(e).hasMessageThat().contains("scale: values: missing key 'key_00042'");
  }

  @Test
  void aKeyOfTheLongestLengthCompilesAndCalls() throws Exception {
    // 70,000-character keys (once `constant string too long`) are now refused by the parsers'
    // limit (StubHygieneTest); the longest accepted key, in 3-byte UTF-8 characters, still makes
    // a long constant.
    String key = "\u4e2d".repeat(dev.ireestubs.abi.ParseLimits.MAX_NAME_LENGTH);
    String json = "{'f':{'a':[['sdict',['" + key + "','i32'],['b','i32']]],'r':['i32']}}";
    ProcessorTester t = new ProcessorTester(dir).file("long.abi.json", json);
    Compilation c =
        t.compileClean(
            source(
                "LongKey",
                "import java.util.Map;",
                "@IreeModule(name = \"m\", abi = \"long.abi.json\")",
                "public interface LongKey { int f(Map<String, Integer> d); }"));
    HostModule module =
        HostModule.builder("m")
            .valueFunction(
                "f",
                AbiJson.parseModule(ProcessorTester.json(json)).get("f"),
                args -> (Integer) ((Map<?, ?>) args.get(0)).get(key) + 1)
            .build();
    Object stub = new CompiledClasses(c).stub("LongKey", module);
    assertThat(call(stub.getClass(), stub, "f", Map.of(key, 41, "b", 0))).isEqualTo(42);
  }

  @Test
  void aShapeOfRankTwentyThousandCompilesAndCalls() throws Exception {
    int rank = 20_000;
    StringBuilder array = new StringBuilder("['ndarray','f32'," + rank);
    for (int i = 0; i < rank; i++) {
      array.append(i == rank - 1 ? ",2" : ",1");
    }
    array.append(']');
    String json = "{'f':{'a':[" + array + "],'r':[" + array + "]}}";
    ProcessorTester t = new ProcessorTester(dir).file("rank.abi.json", json);
    Compilation c =
        t.compileClean(
            source(
                "HighRank",
                "@IreeModule(name = \"m\", abi = \"rank.abi.json\")",
                "public interface HighRank { FloatArray f(FloatArray x); }"));
    HostModule module =
        HostModule.builder("m")
            .valueFunction(
                "f", AbiJson.parseModule(ProcessorTester.json(json)).get("f"), args -> args.get(0))
            .build();
    Object stub = new CompiledClasses(c).stub("HighRank", module);
    long[] dims = new long[rank];
    java.util.Arrays.fill(dims, 1);
    dims[rank - 1] = 2;
    FloatArray x = FloatArray.zeros(dims);
    assertThat(((FloatArray) call(stub.getClass(), stub, "f", x)).shape()).isEqualTo(dims);
    dims[rank - 1] = 3;
    IreeValueException e =
        ValueFailures.argument(() -> call(stub.getClass(), stub, "f", FloatArray.zeros(dims)));
    assertThat(e).hasMessageThat().contains("dimension " + (rank - 1) + " is 3, not 2");
  }

  @Test
  void aDimensionPastIntCompilesAndIsChecked() throws Exception {
    String json = "{'f':{'a':[['ndarray','f32',2,2147483648,1]],'r':[]}}";
    ProcessorTester t = new ProcessorTester(dir).file("huge.abi.json", json);
    Compilation c =
        t.compileClean(
            source(
                "Huge",
                "@IreeModule(name = \"m\", abi = \"huge.abi.json\")",
                "public interface Huge { void f(FloatArray x); }"));
    assertThat(ProcessorTester.generatedSource(c, "Iree_Huge"))
        .contains("Shape.of(2147483648L, 1)");
    HostModule module =
        HostModule.builder("m")
            .valueFunction(
                "f", AbiJson.parseModule(ProcessorTester.json(json)).get("f"), args -> null)
            .build();
    Object stub = new CompiledClasses(c).stub("Huge", module);
    IreeValueException e =
        ValueFailures.argument(() -> call(stub.getClass(), stub, "f", FloatArray.zeros(2, 1)));
    assertThat(e).hasMessageThat().contains("expected tensor<2147483648x1xf32>");
  }

  @Test
  void aModuleOfManySmallFunctionsStaysInline() throws Exception {
    StringBuilder json = new StringBuilder("{");
    StringBuilder java =
        new StringBuilder("@IreeModule(abi = \"m.abi.json\") public interface Many {\n");
    for (int i = 0; i < 200; i++) {
      json.append(i == 0 ? "" : ",").append("'g").append(i).append("':{'a':['i32'],'r':['i32']}");
      java.append("  int g").append(i).append("(int x);\n");
    }
    json.append('}');
    java.append('}');
    Compilation c =
        new ProcessorTester(dir)
            .file("m.abi.json", json.toString())
            .compileClean(source("Many", java.toString()));
    String stubSource = ProcessorTester.generatedSource(c, "Iree_Many");
    assertThat(stubSource).contains("private static final class Signatures {");
    // Their bodies are equal but for the function: one shared body, which every method calls.
    assertThat(stubSource).contains("return callLikeG0(g199Function, \"g199\", x);");
    assertThat(stubSource).contains("return Marshal.i32(results, 0, \"result\");");
    assertThat(List.of(stubSource.split("\n")))
        .doesNotContain("  private static final class Functions0 {");
  }
}
