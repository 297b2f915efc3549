package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.ireestubs.processor.ProcessorTester.json;
import static dev.ireestubs.processor.ProcessorTester.lit;
import static dev.ireestubs.processor.ProcessorTester.source;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One negative test (at least) per diagnostic: message, file and line. */
class DiagnosticsTest {

  @TempDir Path dir;
  ProcessorTester t;

  @BeforeEach
  void setUp() {
    t = new ProcessorTester(dir);
  }

  private static List<String> errors(Compilation c) {
    return c.errors().stream().map(d -> d.getMessage(null)).collect(Collectors.toList());
  }

  private static List<String> ours(Compilation c, Diagnostic.Kind kind) {
    return c.diagnostics().stream()
        .filter(d -> d.getKind() == kind)
        .map(d -> d.getMessage(null))
        .filter(m -> m.startsWith("[Iree"))
        .collect(Collectors.toList());
  }

  // ----------------------------------------------------------------------------- the interface

  @Test
  void annotatedClassEnumRecordAndAnnotationTypeAreErrorsNotCrashes() {
    JavaFileObject c = source("C", "@IreeModule abstract class C { abstract void f(); }");
    JavaFileObject e = source("E", "@IreeModule enum E { A }");
    JavaFileObject r = source("R", "@IreeModule record R(int x) {}");
    JavaFileObject a = source("A", "@IreeModule @interface A {}");
    Compilation comp = t.compile(c, e, r, a);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeBadInterface] @IreeModule is on class C, but it belongs on an interface, which"
                + " the generated stub implements; declare C as an interface")
        .inFile(c)
        .onLineContaining("abstract class C");
    assertThat(comp)
        .hadErrorContaining("@IreeModule is on enum E")
        .inFile(e)
        .onLineContaining("enum E");
    assertThat(comp)
        .hadErrorContaining("@IreeModule is on record R")
        .inFile(r)
        .onLineContaining("record R");
    assertThat(comp)
        .hadErrorContaining("@IreeModule is on annotation type A")
        .inFile(a)
        .onLineContaining("@interface A");
    assertThat(comp).hadErrorCount(4);
    assertThat(t.models).isEmpty();
  }

  @Test
  void genericInterfaceAndGenericMethod() {
    t.file("m.json", "{'f':{'a':['i32'],'r':[]}}");
    JavaFileObject g =
        source("G", "@IreeModule(abi = \"m.json\")", "interface G<T> { void f(int x); }");
    JavaFileObject m =
        source("M", "@IreeModule(abi = \"m.json\")", "interface M {", "  <T> void f(T x);", "}");
    Compilation comp = t.compile(g, m);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeBadInterface] interface G is generic, but a module's functions have fixed types")
        .inFile(g)
        .onLineContaining("interface G<T>");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeBadInterface] method f declares type parameters <T>, but a module function has"
                + " fixed types; remove them")
        .inFile(m)
        .onLineContaining("<T> void f");
  }

  @Test
  void sealedAndPrivateInterfaces() {
    JavaFileObject s =
        source(
            "S",
            "@IreeModule sealed interface S permits S.Impl { final class Impl implements S {} }");
    JavaFileObject p = source("P", "class P {", "  @IreeModule private interface Hidden {}", "}");
    Compilation comp = t.compile(s, p);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeBadInterface] interface S is sealed, so the generated Iree_S cannot implement it")
        .inFile(s)
        .onLineContaining("sealed interface S");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeInaccessibleType] interface Hidden is private, so the generated Iree_P_Hidden in"
                + " package test cannot implement Hidden; make it package-private or public")
        .inFile(p)
        .onLineContaining("private interface Hidden");
  }

  @Test
  void emptyModuleName() {
    JavaFileObject n = source("N", "@IreeModule(name = \"\")", "interface N {}");
    Compilation comp = t.compile(n);
    assertThat(comp)
        .hadErrorContaining("[IreeBadInterface] @IreeModule(name) is empty")
        .inFile(n)
        .onLineContaining("name = \"\"");
    assertThat(comp).hadErrorCount(1);
  }

  // The diagnostics of @IreeModule(vmfb = ...) are tested in VmfbProcessorTest.

  // ----------------------------------------------------------------------------- reflection

  @Test
  void missingReflectionFileSaysWhereItLooked() {
    JavaFileObject s =
        source("Miss", "@IreeModule(abi = \"nowhere.abi.json\")", "interface Miss { void f(); }");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeBadReflection] reflection file \"nowhere.abi.json\" of @IreeModule Miss: not found; looked in -Airee.reflectionDir (")
        .inFile(s)
        .onLineContaining("nowhere.abi.json");
    String message = errors(comp).get(0);
    assertThat(message).contains("CLASS_OUTPUT");
    assertThat(message).contains("SOURCE_PATH");
    assertThat(message).contains("CLASS_PATH");
    assertThat(message)
        .contains(
            "put the file in a resource folder (src/main/resources) or pass -Airee.reflectionDir=<directory>");
    // The methods that needed the file are not reported again.
    assertThat(comp).hadErrorCount(1);
  }

  @Test
  void malformedReflectionFileNamesThePosition() {
    ProcessorTester.write(
        dir.resolve("bad.json"),
        "{\n  \"f\": {\"a\": [[\"ndarray\", \"f32\", \"x\"]], \"r\": []}\n}");
    ProcessorTester.write(dir.resolve("notjson.json"), "{\"f\": {\"a\": [}");
    JavaFileObject s =
        source("Bad", "@IreeModule(abi = \"bad.json\")", "interface Bad { void f(FloatArray a); }");
    JavaFileObject s2 =
        source("NotJson", "@IreeModule(abi = \"notjson.json\")", "interface NotJson {}");
    Compilation comp = t.compile(s, s2);
    assertThat(comp)
        .hadErrorContaining(
            "is not a module file of iree.abi JSON: iree.abi JSON at $.f.a[0][2] (line 2, column")
        .inFile(s)
        .onLineContaining("bad.json");
    assertThat(comp)
        .hadErrorContaining("expected the rank as an integer >= 0 or null")
        .inFile(s)
        .onLineContaining("bad.json");
    assertThat(comp)
        .hadErrorContaining("[IreeBadReflection] reflection file \"notjson.json\"")
        .inFile(s2)
        .onLineContaining("notjson.json");
    assertThat(comp).hadErrorCount(2);
  }

  @Test
  void unreadableReflectionFileIsAnError() {
    // Latin-1 text, not UTF-8.
    writeBytes(dir.resolve("latin1.json"), new byte[] {'{', '"', (byte) 0xE9, '"', ':', '1', '}'});
    JavaFileObject s = source("Bin", "@IreeModule(abi = \"latin1.json\")", "interface Bin {}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeBadReflection] reflection file \"latin1.json\" of @IreeModule Bin: cannot read")
        .inFile(s)
        .onLineContaining("latin1.json");
    assertThat(errors(comp).get(0)).contains("not UTF-8 text");
  }

  private static void writeBytes(Path p, byte[] bytes) {
    try {
      java.nio.file.Files.write(p, bytes);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void noReflectionForAMethod() {
    JavaFileObject s = source("NoAbi", "@IreeModule", "interface NoAbi {", "  void lonely();", "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeNoReflection] lonely: method lonely has no reflection to check it against; set"
                + " @IreeModule(vmfb = \"<module>.vmfb\") or @IreeModule(abi = \"<file>.abi.json\")"
                + " on NoAbi, or @IreeFunction(abi =")
        .inFile(s)
        .onLineContaining("void lonely");
  }

  @Test
  void unknownFunctionSuggestsTheNearestAndListsAll() {
    t.file("m.json", "{'predict':{'a':[],'r':[]},'embed':{'a':[],'r':[]},'batch':{'a':[],'r':[]}}");
    JavaFileObject s =
        source(
            "Unknown",
            "@IreeModule(abi = \"m.json\")",
            "interface Unknown {",
            "  void predcit();",
            "  @IreeFunction(\"embd\") void embed2();",
            "  void zzzzzz();",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnknownFunction] predcit: the module file \"m.json\" has no function \"predcit\""
                + " (functions: predict, embed, batch); did you mean \"predict\"? rename the method"
                + " or annotate it @IreeFunction(\"predict\")")
        .inFile(s)
        .onLineContaining("void predcit");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnknownFunction] embd: the module file \"m.json\" has no function \"embd\""
                + " (functions: predict, embed, batch); did you mean \"embed\"? change it to"
                + " @IreeFunction(\"embed\")")
        .inFile(s)
        .onLineContaining("\"embd\"");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnknownFunction] zzzzzz: the module file \"m.json\" has no function \"zzzzzz\""
                + " (functions: predict, embed, batch); rename the method or name one of them with"
                + " @IreeFunction(\"...\")")
        .inFile(s)
        .onLineContaining("void zzzzzz");
    assertThat(comp).hadErrorCount(3);
  }

  @Test
  void malformedInlineReflectionIsAnErrorOnTheAnnotationValue() {
    JavaFileObject s =
        source(
            "InlineBad",
            "@IreeModule",
            "interface InlineBad {",
            "  @IreeFunction(abi = " + lit(json("{'a':[['sdict',['k']]],'r':[]}")) + ")",
            "  void f(int x);",
            "  @IreeFunction(abi = \"sync func @g(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)\")",
            "  FloatArray g(FloatArray x);",
            "  @IreeFunction(abi = \"sync func @h(%input0: tensor<4xf32> -> (%output0: tensor<4xf32>)\")",
            "  FloatArray h(FloatArray x);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeBadReflection] f: @IreeFunction(abi) of method f does not parse: iree.abi JSON"
                + " at $.a[0][1] (line 1, column")
        .inFile(s)
        .onLineContaining("sdict");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeBadReflection] h: @IreeFunction(abi) of method h does not parse:"
                + " iree.abi.declaration at")
        .inFile(s)
        .onLineContaining("sync func @h");
    assertThat(comp).hadErrorCount(2);
  }

  @Test
  void ireeFunctionOnADefaultMethodIsAWarning() {
    t.file("m.json", "{'f':{'a':[],'r':[]}}");
    JavaFileObject s =
        source(
            "Def",
            "@IreeModule(abi = \"m.json\")",
            "interface Def {",
            "  void f();",
            "  @IreeFunction(\"f\") default void g() {}",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp).succeeded();
    assertThat(comp)
        .hadWarningContaining(
            "[IreeIgnoredAnnotation] method g is a default method, which the stub does not"
                + " implement, so @IreeFunction on it has no effect")
        .inFile(s)
        .onLineContaining("default void g");
  }

  @Test
  void typeNeverResolvedIsReportedAfterTheLastRound() {
    t.file("m.json", "{'f':{'a':[['ndarray','f32',1,4]],'r':[]}}");
    JavaFileObject s =
        source(
            "Unres",
            "@IreeModule(abi = \"m.json\")",
            "interface Unres {",
            "  void f(Missing x);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnresolvedType] cannot check Unres against its module: type Missing is not"
                + " known, even after the last round of annotation processing")
        .inFile(s)
        .onLineContaining("interface Unres");
    assertThat(comp).hadErrorContaining("cannot find symbol");
  }

  @Test
  void anExceptionInTheWriterIsReportedWithItsStackTrace() {
    t.file("m.json", "{'f':{'a':[],'r':[]}}");
    JavaFileObject s =
        source("Boom", "@IreeModule(abi = \"m.json\")", "interface Boom { void f(); }");
    Compilation comp =
        t.compileWith(
            List.of(
                new IreeStubsProcessor(
                    (model, filer) -> {
                      throw new IllegalStateException("writer exploded");
                    })),
            s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeInternalError] the iree-stubs processor failed on test.Boom; please report this"
                + " with the stack trace: java.lang.IllegalStateException: writer exploded")
        .inFile(s)
        .onLineContaining("interface Boom");
    assertThat(errors(comp).get(0)).contains("\tat ");
    Compilation io =
        t.compileWith(
            List.of(
                new IreeStubsProcessor(
                    (model, filer) -> {
                      throw new java.io.IOException("disk full");
                    })),
            s);
    assertThat(io)
        .hadErrorContaining(
            "[IreeInternalError] cannot write the stub of test.Boom: java.io.IOException: disk full")
        .inFile(s)
        .onLineContaining("interface Boom");
  }

  @Test
  void aClassMissingFromTheProcessorPathIsAnInternalErrorNotACrash() {
    t.file("m.json", "{'f':{'a':[],'r':[]}}");
    JavaFileObject s =
        source("NoJ", "@IreeModule(abi = \"m.json\")", "interface NoJ { void f(); }");
    Compilation comp =
        t.compileWith(
            List.of(
                new IreeStubsProcessor(
                    (model, filer) -> {
                      throw new NoClassDefFoundError("dev/ireestubs/abi/Shape");
                    })),
            s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeInternalError] the iree-stubs processor failed on test.NoJ; please report this"
                + " with the stack trace: java.lang.NoClassDefFoundError: dev/ireestubs/abi/Shape")
        .inFile(s)
        .onLineContaining("interface NoJ");
    assertThat(errors(comp)).hasSize(1);
  }

  // ----------------------------------------------------------------------------- arity, names

  @Test
  void arityMismatch() {
    t.file("m.json", "{'f':{'a':['i32','i32'],'r':[]}}");
    JavaFileObject s =
        source(
            "Ar",
            "@IreeModule(abi = \"m.json\")",
            "interface Ar {",
            "  void f(int a, int b, int c);",
            "}");
    assertThat(t.compile(s))
        .hadErrorContaining(
            "[IreeSignatureMismatch] f: the function takes 2 arguments in the module"
                + " [\"i32\",\"i32\"], but method f has 3 parameters; declare one parameter per"
                + " argument, in order")
        .inFile(s)
        .onLineContaining("void f(");
  }

  @Test
  void namedArgumentMismatchAndIgnoredKey() {
    t.file(
        "m.json",
        "{'embed':{'a':['i32',['named','tokens','i32'],['named','mask','i32'],['named','a-b','i32']],'r':[]}}");
    JavaFileObject s =
        source(
            "Named",
            "@IreeModule(abi = \"m.json\")",
            "interface Named {",
            "  void embed(@IreeKey(\"n\") int n,",
            "      int ids,",
            "      @IreeKey(\"mask2\") int mask,",
            "      int ab);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] embed: argument 1 is named \"tokens\" in the module, but the"
                + " parameter is named ids; rename the parameter to tokens or annotate it"
                + " @IreeKey(\"tokens\")")
        .inFile(s)
        .onLineContaining("int ids");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] embed: argument 2 is named \"mask\" in the module, but"
                + " @IreeKey on parameter mask says \"mask2\"; change it to @IreeKey(\"mask\")")
        .inFile(s)
        .onLineContaining("mask2");
    assertThat(comp)
        .hadErrorContaining(
            "embed: argument 3 is named \"a-b\" in the module, but the parameter is named ab;"
                + " annotate it @IreeKey(\"a-b\")")
        .inFile(s)
        .onLineContaining("int ab");
    assertThat(comp)
        .hadWarningContaining(
            "[IreeIgnoredAnnotation] embed: argument 0 is positional in the module (it has no"
                + " name), so @IreeKey(\"n\") on parameter n has no effect; remove it")
        .inFile(s)
        .onLineContaining("@IreeKey(\"n\")");
    assertThat(comp).hadErrorCount(3);
  }

  // ----------------------------------------------------------------------------- results

  @Test
  void resultMismatches() {
    t.file(
        "m.json",
        "{'a':{'a':[],'r':[['ndarray','f32',1,4]]},'b':{'a':[],'r':[]},'c':{'a':[],'r':['i32','i32','f32']},"
            + "'d':{'a':[],'r':[['sdict',['x','i32']]]}}");
    JavaFileObject s =
        source(
            "Res",
            "@IreeModule(abi = \"m.json\")",
            "interface Res {",
            "  record Two(int x, int y) {}",
            "  void a();",
            "  int b();",
            "  Two c();",
            "  int d();",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] a: the function returns [[\"ndarray\",\"f32\",1,4]] in the"
                + " module, but method a returns void; change the return type to FloatArray")
        .inFile(s)
        .onLineContaining("void a()");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] b: the function returns nothing in the module, but method b"
                + " returns int; change the return type to void")
        .inFile(s)
        .onLineContaining("int b()");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] c: result is [\"i32\",\"i32\",\"f32\"] in the module, with 3"
                + " results, but record Two has 2 components; declare exactly 3, one per result in"
                + " order")
        .inFile(s)
        .onLineContaining("record Two");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] d: result is [\"sdict\",[\"x\",\"i32\"]] in the module, which"
                + " binds to a record with a component per key (x) or Map<String, Integer>, but the"
                + " return type is int;"
                + " change its type to a record such as record Result(int x)")
        .inFile(s)
        .onLineContaining("int d()");
  }

  // ----------------------------------------------------------------------------- scalars, arrays

  @Test
  void scalarMismatchAndUnsupportedScalars() {
    t.file("m.json", "{'f':{'a':['i32','f16','i128','f64'],'r':[]}}");
    JavaFileObject s =
        source(
            "Sc",
            "@IreeModule(abi = \"m.json\")",
            "interface Sc {",
            "  void f(long wide,",
            "      short half,",
            "      long huge,",
            "      Float boxed);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] f: wide is \"i32\" in the module, which binds to int or"
                + " Integer, but the parameter is long; change its type to int")
        .inFile(s)
        .onLineContaining("long wide");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnsupportedType] f: half is \"f16\" in the module, which no Java type binds to:"
                + " f16 scalars are not VM values")
        .inFile(s)
        .onLineContaining("short half");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnsupportedType] f: huge is \"i128\" in the module, which no Java type binds to:"
                + " scalars bind i1, i8, i16, i32, i64, f32 and f64 only")
        .inFile(s)
        .onLineContaining("long huge");
    assertThat(comp)
        .hadErrorContaining(
            "f: boxed is \"f64\" in the module, which binds to double or Double, but the parameter"
                + " is Float; change its type to double")
        .inFile(s)
        .onLineContaining("Float boxed");
    assertThat(comp).hadErrorCount(4);
  }

  @Test
  void ndarrayMismatchesOnRecordComponentsAndParameters() {
    t.file(
        "m.json",
        "{'predict':{'a':[['sdict',['image',['ndarray','f32',3,1,28,28]],['label','i32']],"
            + "['ndarray','f16',1,4],['ndarray','f32',null],['ndarray','f32',0],['ndarray','f32',2,2,2],"
            + "['ndarray','f32',1,2],['ndarray',null,1,3],['ndarray','f8',1,3],['ndarray','i8',1,3]],'r':[]}}");
    JavaFileObject s =
        source(
            "Nd",
            "@IreeModule(abi = \"m.json\")",
            "interface Nd {",
            "  record Features(",
            "      DoubleArray image,",
            "      int label) {}",
            "  void predict(Features features,",
            "      short[] halfs,",
            "      float[] unranked,",
            "      float[] scalar,",
            "      float[][][] rank3,",
            "      double[] doubles,",
            "      float[] unknownElement,",
            "      NdArray eightBitFloat,",
            "      IntArray bytes);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] predict: features.image is [\"ndarray\",\"f32\",3,1,28,28] in"
                + " the module, which binds to FloatArray or float[][][], but the component is"
                + " DoubleArray; change its type to FloatArray")
        .inFile(s)
        .onLineContaining("DoubleArray image");
    assertThat(comp)
        .hadErrorContaining(
            "predict: halfs is [\"ndarray\",\"f16\",1,4] in the module; Java arrays cannot hold"
                + " f16 elements, so it binds to HalfArray, but the parameter is short[]; change its"
                + " type to HalfArray")
        .inFile(s)
        .onLineContaining("short[] halfs");
    assertThat(comp)
        .hadErrorContaining(
            "predict: unranked is [\"ndarray\",\"f32\",null] in the module, of unknown rank, but a"
                + " Java array has a fixed rank, so it binds to FloatArray, not to float[]; change"
                + " its type to FloatArray")
        .inFile(s)
        .onLineContaining("float[] unranked");
    assertThat(comp)
        .hadErrorContaining(
            "predict: scalar is [\"ndarray\",\"f32\",0] in the module, a rank-0 array, but Java"
                + " arrays have rank 1 or more, so it binds to FloatArray, not to float[]")
        .inFile(s)
        .onLineContaining("float[] scalar");
    assertThat(comp)
        .hadErrorContaining(
            "predict: rank3 is [\"ndarray\",\"f32\",2,2,2] in the module, of rank 2, which binds to"
                + " FloatArray or float[][], but the parameter is float[][][] (rank 3); change its"
                + " type to float[][]")
        .inFile(s)
        .onLineContaining("float[][][] rank3");
    assertThat(comp)
        .hadErrorContaining(
            "predict: doubles is [\"ndarray\",\"f32\",1,2] in the module, which binds to FloatArray"
                + " or float[], but the parameter is double[]; change its type to FloatArray")
        .inFile(s)
        .onLineContaining("double[] doubles");
    assertThat(comp)
        .hadErrorContaining(
            "predict: unknownElement is [\"ndarray\",\"unknown\",1,3] in the module; its element"
                + " type is not known, so it binds to NdArray or a typed array (whose element type"
                + " is checked at run time), not to a Java array, but the parameter is float[];"
                + " change its type to FloatArray or NdArray")
        .inFile(s)
        .onLineContaining("float[] unknownElement");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnsupportedType] predict: eightBitFloat is [\"ndarray\",\"f8\",1,3] in the"
                + " module, which no Java type binds to: no array class holds f8 elements")
        .inFile(s)
        .onLineContaining("NdArray eightBitFloat");
    assertThat(comp)
        .hadErrorContaining(
            "predict: bytes is [\"ndarray\",\"i8\",1,3] in the module, which binds to ByteArray,"
                + " UByteArray or byte[], but the parameter is IntArray; change its type to ByteArray")
        .inFile(s)
        .onLineContaining("IntArray bytes");
    assertThat(comp).hadErrorCount(9);
  }

  // ----------------------------------------------------------------------------- sdict

  @Test
  void sdictKeyProblemsEachOnItsComponent() {
    t.file(
        "m.json",
        "{'predict':{'a':[['sdict',['class_ids','i32'],['image','f32'],['label','i32'],['score','f32'],['x:0','i32']]],'r':[]}}");
    JavaFileObject s =
        source(
            "Keys",
            "@IreeModule(abi = \"m.json\")",
            "interface Keys {",
            "  record Features(",
            "      int clasIds,",
            "      float image,",
            "      int lable,",
            "      @IreeKey(\"scor\") float s,",
            "      int extra) {}",
            "  void predict(Features features);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] predict: features: the sdict in the module has no key"
                + " \"clasIds\" for component clasIds of record Features; did you mean"
                + " \"class_ids\"? rename the component to classIds or annotate it"
                + " @IreeKey(\"class_ids\")")
        .inFile(s)
        .onLineContaining("int clasIds");
    assertThat(comp)
        .hadErrorContaining(
            "predict: features: the sdict in the module has no key \"lable\" for component lable"
                + " of record Features; did you mean \"label\"? rename the component to label")
        .inFile(s)
        .onLineContaining("int lable");
    assertThat(comp)
        .hadErrorContaining(
            "predict: features: @IreeKey(\"scor\") on component s of record Features names no key"
                + " of the sdict in the module (keys: class_ids, image, label, score, x:0); did you"
                + " mean \"score\"? change it to @IreeKey(\"score\")")
        .inFile(s)
        .onLineContaining("\"scor\"");
    assertThat(comp)
        .hadErrorContaining(
            "predict: features: record Features has component extra, but the sdict in the module"
                + " has no such key (keys: class_ids, image, label, score, x:0); remove the"
                + " component or annotate it @IreeKey with one of the keys")
        .inFile(s)
        .onLineContaining("int extra");
    assertThat(comp)
        .hadErrorContaining(
            "predict: features.x:0 is \"i32\" in the module, but record Features has no component"
                + " for key \"x:0\"; add a component int annotated @IreeKey(\"x:0\")")
        .inFile(s)
        .onLineContaining("record Features(");
    assertThat(comp).hadErrorCount(5);
  }

  @Test
  void sdictMissingKeyDuplicateKeyAndNotARecord() {
    t.file(
        "m.json",
        "{'f':{'a':[['sdict',['a','i32'],['b_c','i32']],['sdict',['a','i32'],['b','i32']],"
            + "['sdict',['image',['ndarray','f32',1,2]],['label','i32']]],'r':[]}}");
    JavaFileObject s =
        source(
            "Dict",
            "@IreeModule(abi = \"m.json\")",
            "interface Dict {",
            "  record OnlyA(int a) {}",
            "  record Dup(int a, @IreeKey(\"a\") int other) {}",
            "  void f(OnlyA one, Dup dup, FloatArray features);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] f: one.b_c is \"i32\" in the module, but record OnlyA has no"
                + " component for key \"b_c\"; add a component int bC")
        .inFile(s)
        .onLineContaining("record OnlyA");
    assertThat(comp)
        .hadErrorContaining(
            "f: dup: components other and a of record Dup both bind key \"a\"; bind each key once")
        .inFile(s)
        .onLineContaining("record Dup");
    assertThat(comp)
        .hadErrorContaining(
            "f: dup.b is \"i32\" in the module, but record Dup has no component for key \"b\"")
        .inFile(s)
        .onLineContaining("record Dup");
    assertThat(comp)
        .hadErrorContaining(
            "f: features is [\"sdict\",[\"image\",[\"ndarray\",\"f32\",1,2]],[\"label\",\"i32\"]] in"
                + " the module, which binds to a record with a component per key (image, label), but"
                + " the parameter is FloatArray; change its type to a record such as record"
                + " Features(FloatArray image, int label)")
        .inFile(s)
        .onLineContaining("void f(");
  }

  @Test
  void mapValuesThatDoNotBindAreEachReportedOnTheParameterOrComponent() {
    t.file(
        "m.json",
        "{'f':{'a':[['sdict',['a','i32'],['b',['ndarray','f32',1,2]]],"
            + "['sdict',['a','i32'],['b','i32']],"
            + "['sdict',['arrays',['sdict',['x','i32']]]],"
            + "['sdict',['n','i64']],['sdict',['n','i64']],['sdict',['n','i64']],'i32'],"
            + "'r':[['sdict',['p','i64'],['q','f64']]]}}");
    JavaFileObject s =
        source(
            "Maps",
            "import java.util.Map;",
            "@IreeModule(abi = \"m.json\")",
            "interface Maps {",
            "  record Holder(",
            "      Map<String, FloatArray> arrays) {}",
            "  Map<String, Long> f(Map<String, Integer> mixed,",
            "      Map<String, FloatArray> notArrays,",
            "      Holder holder,",
            "      Map<Integer, Long> intKeys,",
            "      Map raw,",
            "      Map<String, ?> wildcard,",
            "      Map<String, Integer> notADict);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] f: mixed.b is [\"ndarray\",\"f32\",1,2] in the module, which"
                + " binds to FloatArray or float[], but the map's value type is Integer; change its"
                + " type to FloatArray")
        .inFile(s)
        .onLineContaining("Map<String, Integer> mixed");
    assertThat(comp)
        .hadErrorContaining(
            "f: notArrays.a is \"i32\" in the module, which binds to int or Integer, but the map's"
                + " value type is FloatArray; change it to Integer")
        .inFile(s)
        .onLineContaining("notArrays");
    assertThat(comp)
        .hadErrorContaining("f: notArrays.b is \"i32\" in the module")
        .inFile(s)
        .onLineContaining("notArrays");
    assertThat(comp)
        .hadErrorContaining(
            "f: holder.arrays.x is \"i32\" in the module, which binds to int or Integer, but the"
                + " map's value type is FloatArray; change it to Integer")
        .inFile(s)
        .onLineContaining("Map<String, FloatArray> arrays");
    assertThat(comp)
        .hadErrorContaining(
            "f: intKeys is [\"sdict\",[\"n\",\"i64\"]] in the module, but the parameter is"
                + " Map<Integer, Long>, whose keys are not String (sdict keys are strings); change"
                + " its type to Map<String, Long> or a record such as record IntKeys(long n)")
        .inFile(s)
        .onLineContaining("intKeys");
    assertThat(comp)
        .hadErrorContaining(
            "f: raw is [\"sdict\",[\"n\",\"i64\"]] in the module, but the parameter is a raw Map;"
                + " change its type to Map<String, Long> or a record such as record Raw(long n)")
        .inFile(s)
        .onLineContaining("Map raw");
    assertThat(comp)
        .hadErrorContaining(
            "f: wildcard is [\"sdict\",[\"n\",\"i64\"]] in the module, but the parameter is"
                + " Map<String, ?>, a Map of a wildcard; name the value type without a wildcard,"
                + " e.g. Map<String, Long>")
        .inFile(s)
        .onLineContaining("wildcard");
    assertThat(comp)
        .hadErrorContaining(
            "f: notADict is \"i32\" in the module, which binds to int or Integer, but the parameter"
                + " is Map<String, Integer>; change its type to int")
        .inFile(s)
        .onLineContaining("notADict");
    assertThat(comp)
        .hadErrorContaining(
            "f: result.q is \"f64\" in the module, which binds to double or Double, but the map's"
                + " value type is Long; change it to Double")
        .inFile(s)
        .onLineContaining("Map<String, Long> f(");
    assertThat(comp).hadErrorCount(9);
    assertThat(t.models).isEmpty();
  }

  @Test
  void genericAndInaccessibleRecords() {
    t.file("m.json", "{'f':{'a':[['sdict',['a','i32']],['slist','i32']],'r':[]}}");
    JavaFileObject holder =
        source(
            "Holder",
            "class Holder {",
            "  private record Secret(int a) {}",
            "  record Box<T>(T a) {}",
            "  @IreeModule(abi = \"m.json\")",
            "  interface Api { void f(Box<Integer> box, Secret secret); }",
            "}");
    Compilation comp = t.compile(holder);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnsupportedType] f: box: record Box is generic, so the stub cannot tell its"
                + " components' types; declare a record with concrete component types")
        .inFile(holder)
        .onLineContaining("interface Api");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeInaccessibleType] f: secret: test.Holder.Secret is not accessible from package"
                + " test, where Iree_Holder_Api is generated; make it (and its enclosing types)"
                + " public or package-private in that package")
        .inFile(holder)
        .onLineContaining("interface Api");
  }

  // ----------------------------------------------------------------------------- sequences, lists

  @Test
  void sequenceAndListMismatches() {
    t.file(
        "m.json",
        "{'f':{'a':[['slist','i32',['ndarray','f32',1,2]],['stuple','i32','i32'],['slist'],"
            + "['py_homogeneous_list','i64'],['py_homogeneous_list','i64'],['py_homogeneous_list','i64'],"
            + "['py_homogeneous_list',['ndarray','f32',1,2]],['slist','i32','i32']],'r':[]}}");
    JavaFileObject s =
        source(
            "Seqs",
            "@IreeModule(abi = \"m.json\")",
            "interface Seqs {",
            "  record Three(int a, int b, int c) {}",
            "  void f(List<Integer> mixed,",
            "      Three three,",
            "      List<Integer> empty,",
            "      long[] notAList,",
            "      @SuppressWarnings(\"rawtypes\") List raw,",
            "      List<? extends Long> wild,",
            "      List<DoubleArray> wrongElement,",
            "      @IreeKey(\"p\") List<Integer> pair);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "f: mixed is [\"slist\",\"i32\",[\"ndarray\",\"f32\",1,2]] in the module, whose"
                + " elements differ, so it binds only to a record with 2 components (one per"
                + " element), but the parameter is List<Integer>; change its type to a record such"
                + " as record Mixed(int value0, FloatArray value1)")
        .inFile(s)
        .onLineContaining("List<Integer> mixed");
    assertThat(comp)
        .hadErrorContaining(
            "f: three is [\"stuple\",\"i32\",\"i32\"] in the module, with 2 elements, but record"
                + " Three has 3 components; declare exactly 2, one per element in order")
        .inFile(s)
        .onLineContaining("record Three");
    assertThat(comp)
        .hadErrorContaining(
            "f: empty is [\"slist\"] in the module, with no elements, so it binds only to a record"
                + " with no components")
        .inFile(s)
        .onLineContaining("List<Integer> empty");
    assertThat(comp)
        .hadErrorContaining(
            "f: notAList is [\"py_homogeneous_list\",\"i64\"] in the module, which binds to"
                + " List<Long>, but the parameter is long[]; change its type to List<Long>")
        .inFile(s)
        .onLineContaining("long[] notAList");
    assertThat(comp)
        .hadErrorContaining(
            "f: raw is [\"py_homogeneous_list\",\"i64\"] in the module, but the parameter is a raw List; change its type to List<Long>")
        .inFile(s)
        .onLineContaining("List raw");
    assertThat(comp)
        .hadErrorContaining(
            "f: wild is [\"py_homogeneous_list\",\"i64\"] in the module, but the parameter is"
                + " List<? extends Long>, a List of a wildcard; name the element type without a"
                + " wildcard, e.g. List<Long>")
        .inFile(s)
        .onLineContaining("List<? extends Long> wild");
    assertThat(comp)
        .hadErrorContaining(
            "f: wrongElement[*] is [\"ndarray\",\"f32\",1,2] in the module, which binds to"
                + " FloatArray or float[], but the list's element type is DoubleArray; change its"
                + " type to FloatArray")
        .inFile(s)
        .onLineContaining("List<DoubleArray> wrongElement");
    assertThat(comp)
        .hadWarningContaining("[IreeIgnoredAnnotation] f: argument 7 is positional")
        .inFile(s)
        .onLineContaining("List<Integer> pair");
    assertThat(comp).hadErrorCount(7);
  }

  @Test
  void positionalRecordComponentKeyIsIgnoredWithAWarning() {
    t.file("m.json", "{'f':{'a':[['stuple','i32','i32']],'r':[]}}");
    JavaFileObject s =
        source(
            "PosKey",
            "@IreeModule(abi = \"m.json\")",
            "interface PosKey {",
            "  record Pair(@IreeKey(\"first\") int a, int b) {}",
            "  void f(Pair p);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp).succeeded();
    assertThat(comp)
        .hadWarningContaining(
            "[IreeIgnoredAnnotation] f: p is positional in the module (stuple), so @IreeKey on"
                + " component a has no effect; remove it")
        .inFile(s)
        .onLineContaining("record Pair");
  }

  // ----------------------------------------------------------------------------- refs, unsupported

  @Test
  void refMismatchAndUnsupportedRecords() {
    t.file(
        "m.json",
        "{'f':{'a':[null,['sdict_kwargs',['a','i32']],['pytuple','f64','i64'],['frob',1]],'r':[]}}");
    JavaFileObject s =
        source(
            "Odd",
            "@IreeModule(abi = \"m.json\")",
            "interface Odd {",
            "  void f(FloatArray ref,",
            "      VmRef kwargs,",
            "      VmRef tuple,",
            "      VmRef frob);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] f: ref is null in the module, which binds to VmRef (or a"
                + " subtype such as BufferView or VmList), but the parameter is FloatArray; change"
                + " its type to VmRef")
        .inFile(s)
        .onLineContaining("FloatArray ref");
    assertThat(comp)
        .hadErrorContaining(
            "[IreeUnsupportedType] f: kwargs is [\"sdict_kwargs\",[\"a\",\"i32\"]] in the module,"
                + " which no Java type binds to: \"sdict_kwargs\" is not part of the iree.abi V1"
                + " spec")
        .inFile(s)
        .onLineContaining("VmRef kwargs");
    assertThat(comp)
        .hadErrorContaining("[IreeUnsupportedType] f: tuple is [\"pytuple\",\"f64\",\"i64\"]")
        .inFile(s)
        .onLineContaining("VmRef tuple");
    assertThat(comp)
        .hadErrorContaining("unknown type record tag \"frob\"")
        .inFile(s)
        .onLineContaining("VmRef frob");
  }

  // ----------------------------------------------------------------------------- many at once

  @Test
  void everyMismatchOfSeveralMethodsIsReportedInOneCompile() {
    t.file(
        "classifier.abi.json",
        "{'predict':{'a':[['sdict',['image',['ndarray','f32',2,1,784]],['label','i32']]],"
            + "'r':[['sdict',['logits',['ndarray','f32',2,1,10]],['probs',['ndarray','f32',2,1,10]]]]},"
            + "'embed':{'a':[['named','tokens',['ndarray','i32',2,1,null]]],'r':[['ndarray','f32',2,1,384]]}}");
    JavaFileObject s =
        source(
            "Classifier",
            "@IreeModule(abi = \"classifier.abi.json\")",
            "interface Classifier {",
            "  record Features(double[][] image, long label) {}",
            "  record Scores(FloatArray logit, int[][] probs) {}",
            "  Scores predict(Features features);",
            "  IntArray embed(IntArray tokenz);",
            "}");
    Compilation comp = t.compile(s);
    List<String> errors = ours(comp, Diagnostic.Kind.ERROR);
    assertThat(errors)
        .containsExactly(
            "[IreeSignatureMismatch] predict: features.image is [\"ndarray\",\"f32\",2,1,784] in"
                + " the module, which binds to FloatArray or float[][], but the component is"
                + " double[][]; change its type to FloatArray",
            "[IreeSignatureMismatch] predict: features.label is \"i32\" in the module, which binds"
                + " to int or Integer, but the component is long; change its type to int",
            "[IreeSignatureMismatch] predict: result: the sdict in the module has no key \"logit\""
                + " for component logit of record Scores; did you mean \"logits\"? rename the"
                + " component to logits or annotate it @IreeKey(\"logits\")",
            "[IreeSignatureMismatch] predict: result.probs is [\"ndarray\",\"f32\",2,1,10] in the"
                + " module, which binds to FloatArray or float[][], but the component is int[][];"
                + " change its type to FloatArray",
            "[IreeSignatureMismatch] embed: argument 0 is named \"tokens\" in the module, but the"
                + " parameter is named tokenz; rename the parameter to tokens or annotate it"
                + " @IreeKey(\"tokens\")",
            "[IreeSignatureMismatch] embed: result is [\"ndarray\",\"f32\",2,1,384] in the module,"
                + " which binds to FloatArray or float[][], but the return type is IntArray;"
                + " change its type to FloatArray")
        .inOrder();
    assertThat(comp)
        .hadErrorContaining("features.label")
        .inFile(s)
        .onLineContaining("record Features");
    assertThat(comp).hadErrorContaining("result.probs").inFile(s).onLineContaining("record Scores");
    assertThat(comp)
        .hadErrorContaining("embed: result")
        .inFile(s)
        .onLineContaining("IntArray embed");
    assertThat(t.models).isEmpty();
  }

  @Test
  void recordsFromALibraryAreReportedAtTheUseSite(@TempDir Path classes) {
    t.library(
        classes,
        JavaFileObjects.forSourceLines(
            "lib.Features", "package lib;", "public record Features(double image, int lable) {}"));
    t.file("m.json", "{'f':{'a':[['sdict',['image','f32'],['label','i32']]],'r':[]}}");
    JavaFileObject s =
        source(
            "UsesLib",
            "@IreeModule(abi = \"m.json\")",
            "interface UsesLib {",
            "  void f(lib.Features features);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "f: features.image is \"f32\" in the module, which binds to float or Float, but"
                + " component image of record Features is double")
        .inFile(s)
        .onLineContaining("void f(");
    assertThat(comp)
        .hadErrorContaining("did you mean \"label\"?")
        .inFile(s)
        .onLineContaining("void f(");
  }

  @Test
  void inheritedMethodsFromALibraryAreReportedOnTheInterface(@TempDir Path classes) {
    t.library(
        classes,
        JavaFileObjects.forSourceLines(
            "lib.Base", "package lib;", "public interface Base { void f(double x); }"));
    t.file("m.json", "{'f':{'a':['f32'],'r':[]}}");
    JavaFileObject s =
        source("Sub", "@IreeModule(abi = \"m.json\")", "interface Sub extends lib.Base {}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] f: arg0 is \"f32\" in the module, which binds to float or"
                + " Float, but the parameter is double; change its type to float (in parameter arg0"
                + " of method lib.Base.f(double))")
        .inFile(s)
        .onLineContaining("interface Sub");
  }

  @Test
  void weirdInputDoesNotCrashTheProcessor() {
    t.file("m.json", "{'f':{'a':['i32'],'r':[]},'g':{'a':[],'r':[]}}");
    JavaFileObject cyclic =
        source(
            "Cyc",
            "@IreeModule(abi = \"m.json\")",
            "interface Cyc extends Cyc2 { void f(int x); }",
            "interface Cyc2 extends Cyc {}");
    JavaFileObject odd =
        source(
            "Odd2",
            "@IreeModule(abi = \"m.json\")",
            "interface Odd2 {",
            "  void f(int... xs);",
            "  <T extends FloatArray> T g();",
            "  interface Nested {}",
            "  enum E { A }",
            "  int CONSTANT = 1;",
            "}");
    Compilation cyc = t.compile(cyclic);
    // javac reports the cycle; the processor adds nothing, and does not crash.
    assertThat(cyc).hadErrorContaining("cyclic inheritance");
    assertThat(errors(cyc).stream().anyMatch(m -> m.contains("IreeInternalError"))).isFalse();
    Compilation comp = t.compile(odd);
    assertThat(comp)
        .hadErrorContaining(
            "f: xs is \"i32\" in the module, which binds to int or Integer, but the parameter is"
                + " int[]; change its type to int")
        .inFile(odd)
        .onLineContaining("int... xs");
    assertThat(comp)
        .hadErrorContaining("[IreeBadInterface] method g declares type parameters <T>")
        .inFile(odd)
        .onLineContaining("T g()");
    assertThat(ours(comp, Diagnostic.Kind.ERROR)).doesNotContain("[IreeInternalError]");
    assertThat(errors(comp).stream().anyMatch(m -> m.contains("IreeInternalError"))).isFalse();
  }

  @Test
  void javaArraysAboveRankFourAreRefusedWithTheTypedArrayAsTheFix() {
    JavaFileObject s =
        source(
            "Rank5",
            "@IreeModule",
            "interface Rank5 {",
            "  @IreeFunction(abi = "
                + lit(json("{'a':[['ndarray','f32',5,1,1,1,1,2]],'r':[]}"))
                + ")",
            "  void f(float[][][][][] x);",
            "}");
    Compilation comp = t.compile(s);
    assertThat(comp)
        .hadErrorContaining(
            "[IreeSignatureMismatch] f: x is [\"ndarray\",\"f32\",5,1,1,1,1,2] in the module, of rank"
                + " 5, but Java arrays are converted at rank 1 to 4, so it binds to FloatArray, not"
                + " to float[][][][][]; change its type to FloatArray")
        .inFile(s)
        .onLineContaining("void f(");
    assertThat(comp).hadErrorCount(1);
  }
}
