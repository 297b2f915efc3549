package dev.ireestubs.cli;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.abi.Declaration;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.derive.*;
import dev.ireestubs.derive.InterfaceSuggestion.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The suggested interface for each kind of type record, built from signatures parsed from {@code
 * iree.abi} JSON and {@code iree.abi.declaration} text. Every suggestion is compiled twice: as
 * printed (with {@code vmfb = ...}), and with each method's reflection inline under the iree-stubs
 * processor, which must bind every method to its signature without an error or warning.
 */
class InterfaceSuggesterTest {

  /** Functions of one module, each with its reflection text (JSON or declaration). */
  private static final class Fixture {
    final InterfaceSuggester suggester;
    final Map<String, String> reflections = new LinkedHashMap<>();

    Fixture(String module) {
      suggester =
          new InterfaceSuggester(
              module, InterfaceSuggestion.Source.vmfb("model.vmfb"), Optional.empty());
    }

    /** Adds a function; JSON may be written with single quotes. */
    Fixture fn(String name, String reflection) {
      String text = reflection.strip().startsWith("{") ? reflection.replace('\'', '"') : reflection;
      boolean json = text.strip().startsWith("{");
      reflections.put(name, text);
      suggester.function(
          name,
          Reflection.parse(text),
          json ? Reflection.IREE_ABI : Reflection.DECLARATION,
          text,
          json ? Optional.empty() : Optional.of(Declaration.parse(text)),
          List.of());
      return this;
    }

    InterfaceSuggestion build() {
      return suggester.build();
    }

    /**
     * The printed interface, after checking it compiles as printed and binds under the processor.
     */
    String checked() {
      InterfaceSuggestion s = build();
      String text = InterfaceWriter.write(s, "");
      Javac.assertCompiles(s.interfaceName(), text, false);
      if (!s.methods().isEmpty()) {
        Javac.assertCompiles(s.interfaceName(), InterfaceWriter.writeInline(s, reflections), true);
      }
      return text;
    }
  }

  private static Fixture module() {
    return new Fixture("module");
  }

  @Test
  void declarationExampleGivesTheWholeInterface() {
    String text =
        module()
            .fn(
                "add",
                "sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
                    + " tensor<4xf32>)")
            .checked();
    assertThat(text)
        .isEqualTo(
            "import dev.ireestubs.annotations.IreeModule;\n"
                + "import dev.ireestubs.ndarray.FloatArray;\n"
                + "\n"
                + "/**\n"
                + " * The typed client of IREE module {@code module}, derived by iree-stubs from"
                + " {@code model.vmfb}: one method per exported function.\n"
                + " */\n"
                + "@IreeModule(vmfb = \"model.vmfb\")\n"
                + "public interface Module {\n"
                + "  /**\n"
                + "   * Calls {@code add}:\n"
                + "   *\n"
                + "   * <pre>{@code sync func @add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) ->"
                + " (%output0: tensor<4xf32>)}</pre>\n"
                + "   *\n"
                + "   * <p>Checked against {@code (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>)"
                + " (from iree.abi.declaration)}.\n"
                + "   */\n"
                + "  FloatArray add(FloatArray input0, FloatArray input1);\n"
                + "}\n");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "f32, FloatArray",
    "f64, DoubleArray",
    "f16, HalfArray",
    "bf16, BFloat16Array",
    "i1, BoolArray",
    "i8, ByteArray",
    "i16, ShortArray",
    "i32, IntArray",
    "i64, LongArray",
    "si8, ByteArray",
    "si16, ShortArray",
    "si32, IntArray",
    "si64, LongArray",
    "ui8, UByteArray",
    "ui16, UShortArray",
    "ui32, UIntArray",
    "ui64, ULongArray",
  })
  void ndarrayIsTheArrayClassOfItsElementType(String element, String javaClass) {
    String text =
        module()
            .fn(
                "f",
                "sync func @f(%input0: tensor<2x?x"
                    + element
                    + ">) -> (%output0: tensor<"
                    + element
                    + ">)")
            .checked();
    assertThat(text).contains("import dev.ireestubs.ndarray." + javaClass + ";\n");
    assertThat(text).contains("  " + javaClass + " f(" + javaClass + " input0);\n");
  }

  @Test
  void ndarrayOfUnknownElementIsNdArray() {
    String text =
        module()
            .fn("f", "{'a':[['ndarray','unknown',1,4], ['ndarray',null,null]],'r':[]}")
            .fn("g", "sync func @g(%input0: !hal.buffer_view) -> (%output0: !hal.buffer_view)")
            .checked();
    assertThat(text).contains("import dev.ireestubs.ndarray.NdArray;\n");
    assertThat(text).contains("  void f(NdArray input0, NdArray input1);\n");
    assertThat(text).contains("  NdArray g(NdArray input0);\n");
  }

  @Test
  void scalarsArePrimitives() {
    String text =
        module()
            .fn("s", "{'a':['i1','i8','i16','i32','i64','f32','f64'],'r':['i32']}")
            .fn("index", "sync func @index(%input0: tensor<?xf32>) -> (%output0: index)")
            .checked();
    assertThat(text)
        .contains(
            "  int s(\n"
                + "      boolean input0,\n"
                + "      byte input1,\n"
                + "      short input2,\n"
                + "      int input3,\n"
                + "      long input4,\n"
                + "      float input5,\n"
                + "      double input6);\n");
    assertThat(text).contains("  long index(FloatArray input0);\n");
  }

  @Test
  void sdictIsARecordNamedAfterItsArgumentWithComponentsNamedAfterKeys() {
    String text =
        module()
            .fn(
                "predict",
                "{'a':[['named','features',['sdict',['boxes:0',['ndarray','f32',1,4]],"
                    + "['class',['ndarray','i64',1,4]],['class_ids',['ndarray','i32',1,4]],"
                    + "['hashCode','i32'],['image',['ndarray','f32',4,1,3,224,224]]]]],"
                    + "'r':[['ndarray','f32',2,1,10]]}")
            .checked();
    assertThat(text)
        .contains(
            "  record Features(\n"
                + "      @IreeKey(\"boxes:0\") FloatArray boxes0,\n"
                + "      @IreeKey(\"class\") LongArray class_,\n"
                + "      IntArray classIds,\n"
                + "      @IreeKey(\"hashCode\") int hashCode2,\n"
                + "      FloatArray image) {}\n");
    assertThat(text).contains("  FloatArray predict(Features features);\n");
    assertThat(text).contains("import dev.ireestubs.annotations.IreeKey;\n");
  }

  @Test
  void sdictKeyWhoseCamelCaseIsAnotherKeyIsAnnotated() {
    String text =
        module()
            .fn("f", "{'a':[['sdict',['aB','i32'],['a_b','i32']]],'r':[]}")
            .fn("g", "{'a':[['sdict',['a_b','i32'],['aB','i32']]],'r':[]}")
            .checked();
    assertThat(text).contains("  record FInput(int aB, @IreeKey(\"a_b\") int aB2) {}\n");
    assertThat(text)
        .contains("  record GInput(@IreeKey(\"a_b\") int aB, @IreeKey(\"aB\") int aB2) {}\n");
  }

  @Test
  void nestedStructuresGetRecordsNamedAfterTheirKeys() {
    String text =
        module()
            .fn(
                "f",
                "{'a':[['sdict',['meta',['sdict',['id','i64'],['score','f32']]],"
                    + "['pair',['stuple','i32',['ndarray','f32',1,2]]]]],'r':[]}")
            .checked();
    assertThat(text).contains("  record Meta(long id, float score) {}\n");
    assertThat(text).contains("  record Pair(int value0, FloatArray value1) {}\n");
    assertThat(text).contains("  record FInput(Meta meta, Pair pair) {}\n");
    assertThat(text).contains("  void f(FInput input0);\n");
  }

  @Test
  void uniformSlistAndStupleAreLists() {
    String text =
        module()
            .fn(
                "f",
                "{'a':[['slist','i32','i32'],['stuple',['ndarray','f32',1,4],['ndarray','f32',1,4]]],"
                    + "'r':[]}")
            .checked();
    assertThat(text).contains("import java.util.List;\n");
    assertThat(text).contains("  void f(List<Integer> input0, List<FloatArray> input1);\n");
  }

  @Test
  void mixedAndEmptySequencesArePositionalRecords() {
    String text =
        module()
            .fn("f", "{'a':[['slist','i32',['ndarray','f32',1,4]],['stuple']],'r':[]}")
            .checked();
    assertThat(text).contains("  record FInput0(int value0, FloatArray value1) {}\n");
    assertThat(text).contains("  record FInput1() {}\n");
    assertThat(text).contains("  void f(FInput0 input0, FInput1 input1);\n");
  }

  @Test
  void homogeneousListIsAList() {
    String text =
        module()
            .fn(
                "f",
                "{'a':[['named','boxes',['py_homogeneous_list',['sdict',['x','f32']]]],"
                    + "['py_homogeneous_list',['ndarray','i8',1,null]],['py_homogeneous_list',null]],"
                    + "'r':[['py_homogeneous_list','f64']]}")
            .checked();
    assertThat(text).contains("  record BoxesItem(float x) {}\n");
    assertThat(text)
        .contains(
            "  List<Double> f(List<BoxesItem> boxes, List<ByteArray> input1, List<VmRef> input2);\n");
  }

  @Test
  void namedArgumentsAreParametersOfThatName() {
    String text =
        module()
            .fn(
                "f",
                "{'a':['i32',['named','tokens','i32'],['named','input:1','i64'],"
                    + "['named','int','f32'],['named','input0','i32'],['named','snake_key','i8']],"
                    + "'r':[]}")
            .checked();
    assertThat(text)
        .contains(
            "  void f(\n"
                + "      int input0,\n"
                + "      int tokens,\n"
                + "      @IreeKey(\"input:1\") long input1,\n"
                + "      @IreeKey(\"int\") float int_,\n"
                + "      @IreeKey(\"input0\") int input0_2,\n"
                + "      @IreeKey(\"snake_key\") byte snakeKey);\n");
  }

  @Test
  void positionalArgumentsTakeTheDeclarationsNames() {
    String text =
        module()
            .fn(
                "f",
                "sync func @f(%image: tensor<1x3xf32>, %class: i32, %my.name: i64) ->"
                    + " (%logits: tensor<1x10xf32>, %probs: tensor<1x10xf32>)")
            .checked();
    assertThat(text).contains("  record FResult(FloatArray logits, FloatArray probs) {}\n");
    assertThat(text).contains("  FResult f(FloatArray image, int class_, long myName);\n");
  }

  @Test
  void refsAnyAndUnknownAreVmRef() {
    String text =
        module()
            .fn("f", "{'a':[null,'unknown'],'r':['unknown']}")
            .fn("g", "sync func @g(%input0: !hal.buffer, %input1: !hal.fence) -> ()")
            .checked();
    assertThat(text).contains("import dev.ireestubs.vm.VmRef;\n");
    assertThat(text).contains("  VmRef f(VmRef input0, VmRef input1);\n");
    assertThat(text).contains("  void g(VmRef input0, VmRef input1);\n");
  }

  @Test
  void resultsAreVoidOneTypeOrARecord() {
    String text =
        module()
            .fn("none", "{'a':[],'r':[]}")
            .fn("one", "{'a':[],'r':['f64']}")
            .fn("two", "{'a':[],'r':['i32',['ndarray','f32',1,4]]}")
            .fn(
                "dict",
                "{'a':[],'r':[['sdict',['class_ids',['ndarray','i32',1,4]],['probs','f32']]]}")
            .fn("list", "{'a':[],'r':[['slist','i32','i32']]}")
            .checked();
    assertThat(text).contains("  void none();\n");
    assertThat(text).contains("  double one();\n");
    assertThat(text).contains("  record TwoResult(int output0, FloatArray output1) {}\n");
    assertThat(text).contains("  TwoResult two();\n");
    assertThat(text).contains("  record DictResult(IntArray classIds, float probs) {}\n");
    assertThat(text).contains("  DictResult dict();\n");
    assertThat(text).contains("  record ListResult(int output0, int output1) {}\n");
    assertThat(text).contains("  ListResult list();\n");
  }

  @Test
  void coarseFencesFunctionsAreAsynchronousMethods() {
    String text =
        module()
            .fn("f", "async func @f(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)")
            .checked();
    assertThat(text)
        .contains(
            "   * <p>Checked against {@code async (tensor<4xf32>) -> (tensor<4xf32>)"
                + " (from iree.abi.declaration)}.\n"
                + "   *\n"
                + "   * <p>Asynchronous (coarse-fences): returns at once; the future completes when"
                + " the call's signal fence is reached. The backend passes the wait and signal"
                + " fences; add a last parameter Fence wait to run the call after another's (its"
                + " FencedFuture.signal()).\n"
                + "   */\n"
                + "  CompletableFuture<FloatArray> f(FloatArray input0);\n");
  }

  @Test
  void functionsWithTypesNoJavaTypeBindsAreOmittedWithTheReason() {
    Fixture f =
        module()
            .fn("ok", "{'a':['i32'],'r':[]}")
            .fn("complex", "sync func @complex(%x: tensor<4xcomplex<f32>>) -> ()")
            .fn("half", "sync func @half(%input0: f16) -> ()")
            .fn("odd", "{'a':[],'r':[['slist',['sdict_kwargs']]]}")
            .fn("i4", "{'a':[['sdict',['k',['ndarray','i4',1,2]]]],'r':[]}");
    InterfaceSuggestion s = f.build();
    assertThat(s.methods().stream().map(Method::name).toList()).containsExactly("ok");
    assertThat(s.omitted().stream().map(InterfaceSuggestion.Omitted::function).toList())
        .containsExactly("complex", "half", "odd", "i4")
        .inOrder();
    String text = f.checked();
    assertThat(text)
        .contains(
            "  // Not in this interface:\n"
                + "  // complex: argument x is tensor<4xcomplex<f32>>, which no Java type binds to:"
                + " no array class holds complex<f32> elements (arrays hold f16, bf16, f32, f64, i1"
                + " and 8- to 64-bit integers)\n"
                + "  // half: argument input0 is a f16 scalar, which no Java type binds to: f16"
                + " scalars are not VM values\n");
    assertThat(text).contains("  // odd: the result[0] is ");
    assertThat(text).contains("  // i4: argument 0.k is tensor<2xi4>, which no Java type binds to");
  }

  @Test
  void exportNamesBecomeJavaMethodNamesWithIreeFunctionWhenChanged() {
    String text =
        module()
            .fn("main$async", "{'a':[],'r':[]}")
            .fn("mainAsync", "{'a':[],'r':[]}")
            .fn("simple_mul", "{'a':[],'r':[]}")
            .fn("default", "{'a':[],'r':[]}")
            .fn("hashCode", "{'a':[],'r':[]}")
            .fn("3d-conv.v2", "{'a':[],'r':[]}")
            .checked();
    assertThat(text).contains("  @IreeFunction(\"main$async\")\n" + "  void mainAsync();\n");
    assertThat(text).contains("  @IreeFunction(\"mainAsync\")\n" + "  void mainAsync2();\n");
    assertThat(text).contains("  @IreeFunction(\"simple_mul\")\n  void simpleMul();\n");
    assertThat(text).contains("  @IreeFunction(\"default\")\n  void default_();\n");
    assertThat(text).contains("  @IreeFunction(\"hashCode\")\n  void hashCode2();\n");
    assertThat(text).contains("  @IreeFunction(\"3d-conv.v2\")\n  void _3dConvV2();\n");
    assertThat(text).contains("import dev.ireestubs.annotations.IreeFunction;\n");
  }

  @Test
  void recordsAreSharedWhenEqualAndNumberedWhenNamesCollide() {
    String text =
        new Fixture("features")
            .fn("a", "{'a':[['named','features',['sdict',['x','f32']]]],'r':[]}")
            .fn("b", "{'a':[['named','features',['sdict',['x','f32']]]],'r':[]}")
            .fn("c", "{'a':[['named','features',['sdict',['y','f32']]]],'r':[]}")
            .fn("d", "{'a':[['named','list',['sdict',['y','f32']]]],'r':[]}")
            .checked();
    // The interface is Features, so the records cannot be.
    assertThat(text).contains("public interface Features {\n");
    assertThat(text).contains("  record Features2(float x) {}\n");
    assertThat(text).contains("  void a(Features2 features);\n");
    assertThat(text).contains("  void b(Features2 features);\n");
    assertThat(text).contains("  record Features3(float y) {}\n");
    assertThat(text).contains("  void c(Features3 features);\n");
    // List would hide java.util.List.
    assertThat(text).contains("  record List2(float y) {}\n");
    assertThat(text.indexOf("record Features2")).isEqualTo(text.lastIndexOf("record Features2"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "module, Module",
    "sdxl_compiled_pipeline, SdxlCompiledPipeline",
    "my-model.v2, MyModelV2",
    "3d, Module3d",
    "list, ListModule",
    "IreeModule, IreeModuleModule",
  })
  void interfaceNameIsTheModuleNameInCamelCase(String moduleName, String interfaceName) {
    Fixture f = new Fixture(moduleName).fn("f", "{'a':[],'r':[]}");
    assertThat(f.build().interfaceName()).isEqualTo(interfaceName);
    assertThat(f.checked())
        .contains("@IreeModule(vmfb = \"model.vmfb\")\npublic interface " + interfaceName + " {\n");
  }

  @Test
  void emptyModuleNameIsFlagged() {
    InterfaceSuggestion s = new Fixture("").fn("f", "{'a':[],'r':[]}").build();
    String text = InterfaceWriter.write(s, "");
    Javac.assertCompiles(s.interfaceName(), text, false);
    assertThat(text)
        .contains(
            " * <p>the module has no name, but a stub looks its functions up by module name:"
                + " &#64;IreeModule(name) must name the module as the runtime knows it\n"
                + " */\n"
                + "@IreeModule(vmfb = \"model.vmfb\")\n"
                + "public interface Module {\n");
    // As the note says, the processor rejects it.
    String inline = InterfaceWriter.writeInline(s, Map.of("f", "{\"a\":[],\"r\":[]}"));
    assertThat(Javac.problems(s.interfaceName(), inline, true)).isNotEmpty();
  }

  @Test
  void longParameterListsWrapOnePerLine() {
    String text =
        module()
            .fn(
                "tokens_to_image",
                "sync func @tokens_to_image(%input0: tensor<1x4x128x128xf16>, %input1:"
                    + " tensor<1xf16>, %input2: tensor<1x64xi64>, %input3: tensor<1x64xi64>,"
                    + " %input4: tensor<1x64xi64>) -> (%output0: tensor<1x3x1024x1024xf16>)")
            .checked();
    assertThat(text)
        .contains(
            "  HalfArray tokensToImage(\n"
                + "      HalfArray input0,\n"
                + "      HalfArray input1,\n"
                + "      LongArray input2,\n"
                + "      LongArray input3,\n"
                + "      LongArray input4);\n");
  }
}
