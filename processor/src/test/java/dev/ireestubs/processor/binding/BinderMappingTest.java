package dev.ireestubs.processor.binding;

import static com.google.common.truth.Truth.assertThat;
import static dev.ireestubs.processor.ProcessorTester.source;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.processor.model.ArrayBinding;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.ComponentBinding;
import dev.ireestubs.processor.model.JavaArrayBinding;
import dev.ireestubs.processor.model.ListBinding;
import dev.ireestubs.processor.model.MapBinding;
import dev.ireestubs.processor.model.RecordBinding;
import dev.ireestubs.processor.model.RefBinding;
import dev.ireestubs.processor.model.ResultModel;
import dev.ireestubs.processor.model.ScalarBinding;
import dev.ireestubs.processor.model.StubModel;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Interfaces that bind, one per mapping kind, and the models they produce. */
class BinderMappingTest {

  @TempDir Path dir;
  ProcessorTester t;

  @BeforeEach
  void setUp() {
    t = new ProcessorTester(dir);
  }

  private static ClassName nd(String simple) {
    return ClassName.get("dev.ireestubs.ndarray", simple);
  }

  @Test
  void scalarsBindPrimitivesAndBoxes() {
    t.file(
        "m.json",
        "{'f':{'a':['i8','i16','i32','i64','f32','f64','i1'],'r':['i32']},"
            + "'g':{'a':['i8','i16','i32','i64','f32','f64','i1'],'r':['f64']}}");
    t.compileClean(
        source(
            "Scalars",
            "@IreeModule(abi = \"m.json\")",
            "interface Scalars {",
            "  int f(byte a, short b, int c, long d, float e, double f, boolean g);",
            "  Double g(Byte a, Short b, Integer c, Long d, Float e, Double f, Boolean g);",
            "}"));
    CallPlan f = t.function("f");
    assertThat(f.parameters().stream().map(p -> p.javaType()).collect(Collectors.toList()))
        .containsExactly(
            TypeName.BYTE,
            TypeName.SHORT,
            TypeName.INT,
            TypeName.LONG,
            TypeName.FLOAT,
            TypeName.DOUBLE,
            TypeName.BOOLEAN)
        .inOrder();
    ScalarBinding c = (ScalarBinding) f.parameters().get(2).binding();
    assertThat(c.type().element()).isEqualTo(ElementType.I32);
    assertThat(c.boxed()).isFalse();
    assertThat(c.path()).isEqualTo("f: c");
    ResultModel.Single r = (ResultModel.Single) f.result();
    assertThat(r.binding().path()).isEqualTo("f: result");
    CallPlan g = t.function("g");
    ScalarBinding boxed = (ScalarBinding) g.parameters().get(2).binding();
    assertThat(boxed.boxed()).isTrue();
    assertThat(boxed.javaType()).isEqualTo(ClassName.get(Integer.class));
    assertThat(((ScalarBinding) ((ResultModel.Single) g.result()).binding()).boxed()).isTrue();
  }

  @Test
  void ndarraysBindTypedArraysNdArrayAndJavaArrays() {
    t.file(
        "m.json",
        "{'f':{'a':[['ndarray','f32',2,1,4],['ndarray','f64',1,null],['ndarray','f16',1,2],"
            + "['ndarray','bf16',0],['ndarray','i1',1,3],['ndarray','i8',1,3],['ndarray','i16',1,3],"
            + "['ndarray','i32',1,3],['ndarray','i64',1,3],['ndarray','i8',1,3],['ndarray','i16',1,3],"
            + "['ndarray','i32',1,3],['ndarray','i64',1,3],['ndarray','f32',null],['ndarray',null,2,1,1]],"
            + "'r':[['ndarray','f32',3,1,2,3]]},"
            + "'g':{'a':[['ndarray','f32',2,1,4],['ndarray','f64',1,2],['ndarray','i1',3,1,1,1],"
            + "['ndarray','i8',1,3],['ndarray','i16',1,3],['ndarray','i32',1,3],['ndarray','i64',4,1,1,1,1]],"
            + "'r':[['ndarray','i32',2,2,2]]}}");
    t.compileClean(
        source(
            "Arrays",
            "@IreeModule(abi = \"m.json\")",
            "interface Arrays {",
            "  FloatArray f(FloatArray a, DoubleArray b, HalfArray c, BFloat16Array d, BoolArray e,",
            "      ByteArray f, ShortArray g, IntArray h, LongArray i,",
            "      UByteArray j, UShortArray k, UIntArray l, ULongArray m, FloatArray n, NdArray o);",
            "  int[][] g(float[][] a, double[] b, boolean[][][] c, byte[] d, short[] e, int[] f,",
            "      long[][][][] g);",
            "}"));
    CallPlan f = t.function("f");
    List<TypeName> classes =
        f.parameters().stream()
            .map(p -> ((ArrayBinding) p.binding()).arrayClass())
            .collect(Collectors.toList());
    assertThat(classes)
        .containsExactly(
            nd("FloatArray"),
            nd("DoubleArray"),
            nd("HalfArray"),
            nd("BFloat16Array"),
            nd("BoolArray"),
            nd("ByteArray"),
            nd("ShortArray"),
            nd("IntArray"),
            nd("LongArray"),
            nd("UByteArray"),
            nd("UShortArray"),
            nd("UIntArray"),
            nd("ULongArray"),
            nd("FloatArray"),
            nd("NdArray"))
        .inOrder();
    ArrayBinding a = (ArrayBinding) f.parameters().get(0).binding();
    assertThat(a.type().shape().dimList()).containsExactly(1L, 4L).inOrder();
    assertThat(a.isAnyElementType()).isFalse();
    assertThat(((ArrayBinding) f.parameters().get(14).binding()).isAnyElementType()).isTrue();

    CallPlan g = t.function("g");
    JavaArrayBinding ga = (JavaArrayBinding) g.parameters().get(0).binding();
    assertThat(ga.rank()).isEqualTo(2);
    assertThat(ga.component()).isEqualTo(TypeName.FLOAT);
    assertThat(ga.javaType().toString()).isEqualTo("float[][]");
    JavaArrayBinding gg = (JavaArrayBinding) g.parameters().get(6).binding();
    assertThat(gg.rank()).isEqualTo(4);
    assertThat(gg.component()).isEqualTo(TypeName.LONG);
    JavaArrayBinding result = (JavaArrayBinding) ((ResultModel.Single) g.result()).binding();
    assertThat(result.javaType().toString()).isEqualTo("int[][]");
  }

  @Test
  void ndarraysOfUnknownElementTypeBindEveryArrayClass() {
    t.compileClean(
        source(
            "Views",
            "@IreeModule(name = \"m\")",
            "interface Views {",
            "  @IreeFunction(value = \"f\", abi = \"sync func @f(%a: !hal.buffer_view, %b:"
                + " !hal.buffer_view, %c: !hal.buffer_view) -> (%r: !hal.buffer_view)\")",
            "  HalfArray f(FloatArray a, ULongArray b, NdArray c);",
            "  @IreeFunction(value = \"g\", abi = \"{\\\"a\\\":[[\\\"ndarray\\\",null,2,1,3]],"
                + "\\\"r\\\":[]}\")",
            "  void g(BoolArray a);",
            "}"));
    CallPlan f = t.function("f");
    assertThat(
            f.parameters().stream()
                .map(p -> ((ArrayBinding) p.binding()).arrayClass())
                .collect(Collectors.toList()))
        .containsExactly(nd("FloatArray"), nd("ULongArray"), nd("NdArray"))
        .inOrder();
    ArrayBinding a = (ArrayBinding) f.parameters().get(0).binding();
    assertThat(a.type()).isEqualTo(AbiType.NdArray.anyBufferView());
    assertThat(a.isAnyElementType()).isFalse();
    ArrayBinding r = (ArrayBinding) ((ResultModel.Single) f.result()).binding();
    assertThat(r.arrayClass()).isEqualTo(nd("HalfArray"));
    ArrayBinding g = (ArrayBinding) t.function("g").parameters().get(0).binding();
    assertThat(g.arrayClass()).isEqualTo(nd("BoolArray"));
    assertThat(g.type().shape().dimList()).containsExactly(1L, 3L).inOrder();
    assertThat(dev.ireestubs.abi.JavaMapping.ARRAY_CLASSES).hasSize(13);
  }

  @Test
  void sdictBindsRecordByExactSnakeCaseAndKeyInDescriptorOrder() {
    t.file(
        "m.json",
        "{'predict':{'a':[['sdict',['boxes:0',['ndarray','f32',2,1,4]],['class_ids',['ndarray','i32',1,1]],"
            + "['label','i32']]],'r':[]}}");
    t.compileClean(
        source(
            "Det",
            "@IreeModule(abi = \"m.json\")",
            "interface Det {",
            "  record Features(int label, IntArray classIds, @IreeKey(\"boxes:0\") FloatArray boxes) {}",
            "  void predict(Features features);",
            "}"));
    RecordBinding r = (RecordBinding) t.function("predict").parameters().get(0).binding();
    assertThat(r.record()).isEqualTo(ClassName.get("test", "Det", "Features"));
    assertThat(r.components().stream().map(ComponentBinding::key).collect(Collectors.toList()))
        .containsExactly("boxes:0", "class_ids", "label")
        .inOrder();
    assertThat(r.components().stream().map(ComponentBinding::accessor).collect(Collectors.toList()))
        .containsExactly("boxes", "classIds", "label")
        .inOrder();
    assertThat(r.constructorOrder()).containsExactly("label", "classIds", "boxes").inOrder();
    assertThat(
            r.componentsInConstructorOrder().stream()
                .map(ComponentBinding::key)
                .collect(Collectors.toList()))
        .containsExactly("label", "class_ids", "boxes:0")
        .inOrder();
    assertThat(r.components().get(1).binding().path()).isEqualTo("predict: features.class_ids");
    assertThat(r.path()).isEqualTo("predict: features");
  }

  @Test
  void sdictBindsMapWhenEveryValueBindsToTheValueType() {
    t.file(
        "m.json",
        "{'f':{'a':[['sdict',['b','i32'],['a','i32']],"
            + "['sdict',['left',['ndarray','f32',1,2]],['right',['ndarray','f32',1,null]]],"
            + "['sdict',['p',['sdict',['q','f64']]],['r',['sdict',['q','f64']]]],"
            + "['sdict',['counts',['sdict',['n','i64']]]],['sdict']],"
            + "'r':[['sdict',['max','i64'],['min','i64']]]}}");
    t.compileClean(
        source(
            "Maps",
            "@IreeModule(abi = \"m.json\")",
            "interface Maps {",
            "  record Holder(java.util.Map<String, Long> counts) {}",
            "  java.util.Map<String, Long> f(java.util.Map<String, Integer> ints,",
            "      java.util.Map<String, FloatArray> arrays,",
            "      java.util.Map<String, java.util.Map<String, Double>> nested,",
            "      Holder holder, java.util.Map<String, VmRef> empty);",
            "}"));
    CallPlan f = t.function("f");
    MapBinding ints = (MapBinding) f.parameters().get(0).binding();
    // Descriptor order, as the module lists the keys.
    assertThat(ints.keys()).containsExactly("b", "a").inOrder();
    assertThat(ints.javaType().toString())
        .isEqualTo("java.util.Map<java.lang.String, java.lang.Integer>");
    assertThat(ints.path()).isEqualTo("f: ints");
    ScalarBinding b = (ScalarBinding) ints.values().get(0);
    assertThat(b.boxed()).isTrue();
    assertThat(b.path()).isEqualTo("f: ints.b");
    MapBinding arrays = (MapBinding) f.parameters().get(1).binding();
    assertThat(((ArrayBinding) arrays.values().get(1)).type().shape().isDynamic(0)).isTrue();
    assertThat(arrays.values().get(1).path()).isEqualTo("f: arrays.right");
    MapBinding nested = (MapBinding) f.parameters().get(2).binding();
    MapBinding r = (MapBinding) nested.values().get(1);
    assertThat(r.keys()).containsExactly("q");
    assertThat(r.values().get(0).path()).isEqualTo("f: nested.r.q");
    RecordBinding holder = (RecordBinding) f.parameters().get(3).binding();
    assertThat(((MapBinding) holder.components().get(0).binding()).values().get(0).path())
        .isEqualTo("f: holder.counts.n");
    MapBinding empty = (MapBinding) f.parameters().get(4).binding();
    assertThat(empty.keys()).isEmpty();
    ResultModel.Inlined result = (ResultModel.Inlined) f.result();
    MapBinding out = (MapBinding) result.binding();
    assertThat(out.keys()).containsExactly("max", "min").inOrder();
    assertThat(out.values().get(1).path()).isEqualTo("f: result.min");
  }

  @Test
  void sequencesBindPositionalRecordsOrUniformLists() {
    t.file(
        "m.json",
        "{'f':{'a':[['slist','i32',['ndarray','f32',1,2]],['stuple','i64','i64','i64'],"
            + "['slist',['ndarray','f32',1,4],['ndarray','f32',1,4]]],'r':[]}}");
    t.compileClean(
        source(
            "Seq",
            "@IreeModule(abi = \"m.json\")",
            "interface Seq {",
            "  record Pair(int count, FloatArray values) {}",
            "  void f(Pair pair, List<Long> triple, List<float[]> two);",
            "}"));
    CallPlan f = t.function("f");
    RecordBinding pair = (RecordBinding) f.parameters().get(0).binding();
    assertThat(pair.type()).isInstanceOf(AbiType.Sequence.class);
    assertThat(pair.components().get(0).key()).isNull();
    assertThat(pair.components().get(1).binding().path()).isEqualTo("f: pair[1]");
    ListBinding triple = (ListBinding) f.parameters().get(1).binding();
    assertThat(triple.fixedSize()).isEqualTo(3);
    assertThat(((ScalarBinding) triple.element()).boxed()).isTrue();
    assertThat(triple.element().path()).isEqualTo("f: triple[*]");
    ListBinding two = (ListBinding) f.parameters().get(2).binding();
    assertThat(two.element()).isInstanceOf(JavaArrayBinding.class);
    assertThat(two.javaType().toString()).isEqualTo("java.util.List<float[]>");
  }

  @Test
  void homogeneousListsBindLists() {
    t.file(
        "m.json",
        "{'batch':{'a':[['py_homogeneous_list',['ndarray','f32',1,784]]],'r':[['py_homogeneous_list','i32']]},"
            + "'nested':{'a':[['py_homogeneous_list',['sdict',['x','f32']]]],'r':[]}}");
    t.compileClean(
        source(
            "Lists",
            "@IreeModule(abi = \"m.json\")",
            "interface Lists {",
            "  record P(float x) {}",
            "  List<Integer> batch(List<FloatArray> images);",
            "  void nested(List<P> points);",
            "}"));
    CallPlan batch = t.function("batch");
    ListBinding images = (ListBinding) batch.parameters().get(0).binding();
    assertThat(images.fixedSize()).isEqualTo(-1);
    assertThat(images.element()).isInstanceOf(ArrayBinding.class);
    ResultModel.Single r = (ResultModel.Single) batch.result();
    assertThat(((ListBinding) r.binding()).element()).isInstanceOf(ScalarBinding.class);
    ListBinding points = (ListBinding) t.function("nested").parameters().get(0).binding();
    RecordBinding p = (RecordBinding) points.element();
    assertThat(p.components().get(0).binding().path()).isEqualTo("nested: points[*].x");
  }

  @Test
  void namedArgumentsBindByParameterNameOrKey() {
    t.file(
        "m.json",
        "{'embed':{'a':['i32',['named','tokens',['ndarray','i32',2,1,null]],['named','mask','i1']],"
            + "'r':[['ndarray','f32',2,1,384]]}}");
    t.compileClean(
        source(
            "Embed",
            "@IreeModule(abi = \"m.json\")",
            "interface Embed {",
            "  FloatArray embed(int n, @IreeKey(\"tokens\") IntArray ids, boolean mask);",
            "}"));
    CallPlan f = t.function("embed");
    assertThat(f.parameters().get(1).javaName()).isEqualTo("ids");
    assertThat(f.parameters().get(1).path()).isEqualTo("embed: tokens");
    // The binding is of the named type; the signature keeps the wrapper.
    assertThat(f.parameters().get(1).binding()).isInstanceOf(ArrayBinding.class);
    assertThat(f.signature().arguments().get(1)).isInstanceOf(AbiType.Named.class);
    assertThat(f.parameters().get(2).path()).isEqualTo("embed: mask");
  }

  @Test
  void opaqueTypesBindVmRefAndSubtypes() {
    t.file("m.json", "{'f':{'a':[null,'unknown',null],'r':[null]}}");
    t.compileClean(
        source(
            "Refs",
            "@IreeModule(abi = \"m.json\")",
            "interface Refs {",
            "  VmRef f(VmRef a, BufferView b, VmList c);",
            "}"));
    CallPlan f = t.function("f");
    assertThat(
            f.parameters().stream()
                .map(p -> p.binding().getClass())
                .distinct()
                .collect(Collectors.toList()))
        .containsExactly(RefBinding.class);
    assertThat(f.parameters().get(1).binding().type()).isInstanceOf(AbiType.Unknown.class);
    assertThat(f.parameters().get(2).javaType())
        .isEqualTo(ClassName.get("dev.ireestubs.vm", "VmList"));
  }

  @Test
  void resultsVoidSingleInlinedAndSeveral() {
    t.file(
        "m.json",
        "{'none':{'a':[],'r':[]},"
            + "'one':{'a':[],'r':[['ndarray','f32',1,4]]},"
            + "'dict':{'a':[],'r':[['sdict',['logits',['ndarray','f32',2,1,10]],['probs',['ndarray','f32',2,1,10]]]]},"
            + "'list':{'a':[],'r':[['slist','i32','i32']]},"
            + "'tuple':{'a':[],'r':[['stuple','i32',['ndarray','f32',1,2]]]},"
            + "'several':{'a':[],'r':[['ndarray','f32',1,3],'i64']},"
            + "'severalSame':{'a':[],'r':['i64','i64']}}");
    t.compileClean(
        source(
            "Results",
            "@IreeModule(abi = \"m.json\")",
            "interface Results {",
            "  record Scores(FloatArray probs, FloatArray logits) {}",
            "  record Two(int n, FloatArray a) {}",
            "  record Out(float[] values, long count) {}",
            "  void none();",
            "  FloatArray one();",
            "  Scores dict();",
            "  List<Integer> list();",
            "  Two tuple();",
            "  Out several();",
            "  List<Long> severalSame();",
            "}"));
    assertThat(t.function("none").result()).isInstanceOf(ResultModel.Void.class);
    assertThat(t.function("one").result()).isInstanceOf(ResultModel.Single.class);
    ResultModel.Inlined dict = (ResultModel.Inlined) t.function("dict").result();
    RecordBinding scores = (RecordBinding) dict.binding();
    assertThat(scores.components().stream().map(ComponentBinding::key).collect(Collectors.toList()))
        .containsExactly("logits", "probs")
        .inOrder();
    assertThat(scores.constructorOrder()).containsExactly("probs", "logits").inOrder();
    assertThat(scores.components().get(0).binding().path()).isEqualTo("dict: result.logits");
    ResultModel.Inlined list = (ResultModel.Inlined) t.function("list").result();
    assertThat(((ListBinding) list.binding()).fixedSize()).isEqualTo(2);
    ResultModel.Inlined tuple = (ResultModel.Inlined) t.function("tuple").result();
    assertThat(((RecordBinding) tuple.binding()).components().get(1).binding().path())
        .isEqualTo("tuple: result[1]");
    ResultModel.Inlined several = (ResultModel.Inlined) t.function("several").result();
    RecordBinding out = (RecordBinding) several.binding();
    assertThat(out.type())
        .isEqualTo(
            new AbiType.Sequence(
                AbiType.SequenceKind.TUPLE, t.function("several").signature().results()));
    assertThat(out.components().get(0).binding()).isInstanceOf(JavaArrayBinding.class);
    ResultModel.Inlined same = (ResultModel.Inlined) t.function("severalSame").result();
    assertThat(((ListBinding) same.binding()).fixedSize()).isEqualTo(2);
  }

  @Test
  void nestingOfStructures() {
    t.file(
        "m.json",
        "{'dict_nest':{'a':[['sdict',['dict',['sdict',['a',['ndarray','f32',1,16]],['b',['ndarray','f32',1,16]]]],"
            + "['list',['slist',['ndarray','f32',1,16],['ndarray','f32',1,16]]]],['ndarray','f32',0]],"
            + "'r':[['sdict',['dict',['sdict',['a',['ndarray','f32',1,16]],['b',['ndarray','f32',1,16]]]],"
            + "['list',['stuple',['ndarray','f32',1,16],['ndarray','f32',1,16]]]]]}}");
    t.compileClean(
        source(
            "Nest",
            "@IreeModule(abi = \"m.json\")",
            "interface Nest {",
            "  record AB(FloatArray a, float[] b) {}",
            "  record Arg(AB dict, List<FloatArray> list) {}",
            "  record Pair(FloatArray first, FloatArray second) {}",
            "  record Res(AB dict, Pair list) {}",
            "  @IreeFunction(\"dict_nest\") Res dictNest(Arg arg, FloatArray scalar);",
            "}"));
    CallPlan f = t.function("dictNest");
    assertThat(f.functionName()).isEqualTo("dict_nest");
    RecordBinding arg = (RecordBinding) f.parameters().get(0).binding();
    RecordBinding ab = (RecordBinding) arg.components().get(0).binding();
    assertThat(ab.components().get(1).binding().path()).isEqualTo("dict_nest: arg.dict.b");
    RecordBinding res = (RecordBinding) ((ResultModel.Inlined) f.result()).binding();
    RecordBinding pair = (RecordBinding) res.components().get(1).binding();
    assertThat(pair.components().get(1).binding().path()).isEqualTo("dict_nest: result.list[1]");
  }

  @Test
  void inheritedMethodsBindDefaultAndStaticDoNot() {
    t.file(
        "m.json",
        "{'a':{'a':['i32'],'r':[]},'b':{'a':[['ndarray','f32',1,2]],'r':[]},'c':{'a':[],'r':[]}}");
    t.compileClean(
        source(
            "Base",
            "interface Base<T> {",
            "  void b(T x);",
            "  void c();",
            "  default void d() {}",
            "  String toString();",
            "}"),
        source(
            "Child",
            "@IreeModule(abi = \"m.json\")",
            "interface Child extends Base<FloatArray> {",
            "  void a(int x);",
            "  static void s() {}",
            "  @Override default void c() {}",
            "}"));
    assertThat(
            t.model().functions().stream().map(CallPlan::methodName).collect(Collectors.toList()))
        .containsExactly("a", "b")
        .inOrder();
    assertThat(t.function("b").parameters().get(0).javaType()).isEqualTo(nd("FloatArray"));
  }

  @Test
  void inlineReflectionOverridesTheModuleFile() {
    t.compileClean(
        source(
            "Inline",
            "@IreeModule(name = \"mod\")",
            "interface Inline {",
            "  @IreeFunction(value = \"embed\", abi = "
                + ProcessorTester.lit(
                    ProcessorTester.json(
                        "{'a':[['named','tokens',['ndarray','i32',2,1,null]]],'r':[['ndarray','f32',2,1,384]]}"))
                + ")",
            "  FloatArray embedTokens(@IreeKey(\"tokens\") IntArray ids);",
            "}"));
    StubModel m = t.model();
    assertThat(m.moduleName()).isEqualTo("mod");
    assertThat(m.stubName()).isEqualTo(ClassName.get("test", "Iree_Inline"));
    CallPlan f = t.function("embedTokens");
    assertThat(f.functionName()).isEqualTo("embed");
    assertThat(f.reflectionSource()).isEqualTo("@IreeFunction(abi)");
  }

  @Test
  void nestedInterfaceStubName() {
    t.file("m.json", "{'f':{'a':[],'r':[]}}");
    t.compileClean(
        source(
            "Outer",
            "class Outer {",
            "  @IreeModule(abi = \"m.json\")",
            "  interface Inner { void f(); }",
            "}"));
    assertThat(t.model().stubName()).isEqualTo(ClassName.get("test", "Iree_Outer_Inner"));
    assertThat(t.function("f").reflectionSource()).isEqualTo("m.json");
  }

  @Test
  void reflectionFileFoundOnTheSourcePath(@TempDir Path sources) {
    ProcessorTester.write(
        sources.resolve("models/m.abi.json"), ProcessorTester.json("{'f':{'a':[],'r':[]}}"));
    t.option("-sourcepath", sources.toString());
    t.compileClean(
        source("Src", "@IreeModule(abi = \"/models/m.abi.json\")", "interface Src { void f(); }"));
    assertThat(t.function("f").reflectionSource()).isEqualTo("/models/m.abi.json");
  }

  @Test
  void reflectionFileFoundOnTheClassPath(@TempDir Path resources) {
    ProcessorTester.write(
        resources.resolve("cp.abi.json"), ProcessorTester.json("{'f':{'a':['i64'],'r':[]}}"));
    String classPath =
        System.getProperty("java.class.path") + java.io.File.pathSeparator + resources;
    t.option("-classpath", classPath);
    t.compileClean(
        source("Cp", "@IreeModule(abi = \"cp.abi.json\")", "interface Cp { void f(long x); }"));
    assertThat(t.function("f").parameters()).hasSize(1);
  }

  @Test
  void interfaceWithNoMethodsBinds() {
    t.compileClean(source("Empty", "@IreeModule", "interface Empty {}"));
    assertThat(t.model().functions()).isEmpty();
  }

  @Test
  void typesGeneratedInALaterRoundAreWaitedFor() {
    t.file("m.json", "{'f':{'a':[['sdict',['x','f32']]],'r':[]}}");
    com.google.testing.compile.Compilation c =
        t.compileWith(
            List.of(t.capturing(), new GeneratesRecord()),
            source(
                "Later",
                "@IreeModule(abi = \"m.json\")",
                "interface Later { void f(test.gen.Point p); }"));
    assertThat(ProcessorTester.diagnostics(c)).isEmpty();
    RecordBinding p = (RecordBinding) t.function("f").parameters().get(0).binding();
    assertThat(p.record()).isEqualTo(ClassName.get("test.gen", "Point"));
  }

  /** Generates {@code test.gen.Point} in the first round, as another processor would. */
  static final class GeneratesRecord extends javax.annotation.processing.AbstractProcessor {
    private boolean done;

    @Override
    public java.util.Set<String> getSupportedAnnotationTypes() {
      return java.util.Set.of("*");
    }

    @Override
    public javax.lang.model.SourceVersion getSupportedSourceVersion() {
      return javax.lang.model.SourceVersion.latestSupported();
    }

    @Override
    public boolean process(
        java.util.Set<? extends javax.lang.model.element.TypeElement> annotations,
        javax.annotation.processing.RoundEnvironment round) {
      if (done) {
        return false;
      }
      done = true;
      try (java.io.Writer w =
          processingEnv.getFiler().createSourceFile("test.gen.Point").openWriter()) {
        w.write("package test.gen; public record Point(float x) {}");
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return false;
    }
  }
}
