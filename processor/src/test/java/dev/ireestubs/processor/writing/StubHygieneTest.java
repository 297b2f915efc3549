package dev.ireestubs.processor.writing;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.ireestubs.processor.CompiledClasses.call;
import static dev.ireestubs.processor.ProcessorTester.source;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.testing.compile.Compilation;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.IreeSignatureMismatchException;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.processor.CompiledClasses;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.processor.diagnostics.Reporter;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated code is hygienic: the user's nested types, parameter and component names cannot shadow
 * what the stub writes; stub names never collide; and a stub of another runtime version fails when
 * it binds, with a message.
 */
class StubHygieneTest {

  /** Types nested in the interface, named like what stubs write. */
  static final List<String> CLASHING_TYPES =
      List.of(
          "Shape",
          "VmList",
          "VmValue",
          "Marshal",
          "StubMarshal",
          "Objects",
          "ElementType",
          "AbiType",
          "FunctionSignature",
          "FunctionBinder",
          "BackendFunction",
          "ModuleBackend",
          "Signatures",
          "StubConstants",
          "ReflectionFormat",
          "OptionalInt",
          "Collections",
          "ArrayList",
          "LinkedHashMap",
          "Override",
          "LinkageError",
          "Generated",
          "Functions0",
          "SignatureParts");

  static final String CLASH_JSON =
      "{'f':{'a':[['ndarray','f32',1,2],['ndarray','f32',1,2],['ndarray','f32',1,2],"
          + "['ndarray','f32',1,2],'i32'],'r':[['ndarray','f32',1,2]]},"
          + " 'g':{'a':[['sdict',['Marshal',['ndarray','f32',1,2]],['VmList','i32']]],"
          + "  'r':[['sdict',['Marshal',['ndarray','f32',1,2]],['VmList','i32']]]},"
          + " 'h':{'a':[['sdict',['a','f32'],['b','f32']],['py_homogeneous_list',['ndarray','f32',1,2]]],"
          + "  'r':[['sdict',['a','f32'],['b','f32']]]}}";

  @TempDir Path dir;

  private static HostModule clashModule() {
    Map<String, FunctionSignature> s = AbiJson.parseModule(ProcessorTester.json(CLASH_JSON));
    return HostModule.builder("m")
        .valueFunction(
            "f",
            s.get("f"),
            args -> {
              FloatArray a = (FloatArray) args.get(0);
              return FloatArray.of(new float[] {a.get(0) + (Integer) args.get(4), a.get(1)});
            })
        .valueFunction("g", s.get("g"), args -> args.get(0))
        .valueFunction("h", s.get("h"), args -> args.get(0))
        .build();
  }

  @Test
  void nestedTypesAndParametersNamedLikeTheStubsOwnNamesCompileAndCall() throws Exception {
    StringBuilder nested = new StringBuilder();
    for (String name : CLASHING_TYPES) {
      nested.append("  interface ").append(name).append(" {}\n");
    }
    ProcessorTester t = new ProcessorTester(dir).file("clash.abi.json", CLASH_JSON);
    Compilation c =
        t.compileClean(
            source(
                "Clash",
                "import java.util.Map;",
                "@IreeModule(name = \"m\", abi = \"clash.abi.json\")",
                "public interface Clash {",
                nested.toString(),
                "  record Pair(FloatArray Marshal, int VmList) {}",
                "  FloatArray f(FloatArray Marshal, FloatArray VmList, FloatArray VmValue,"
                    + " FloatArray FloatArray, int fFunction);",
                "  Pair g(Pair dev);",
                "  Map<String, Float> h(Map<String, Float> Signatures, java.util.List<FloatArray> i);",
                "}"));
    Object stub =
        new CompiledClasses(c)
            .load("test.Iree_Clash")
            .getConstructor(ModuleBackend.class)
            .newInstance(clashModule());
    FloatArray two = FloatArray.of(new float[] {1, 2});
    FloatArray r = (FloatArray) call(stub.getClass(), stub, "f", two, two, two, two, 5);
    assertThat(r.toArray()).isEqualTo(new float[] {6, 2});
    Class<?> pair = stub.getClass().getClassLoader().loadClass("test.Clash$Pair");
    Object p = pair.getConstructors()[0].newInstance(two, 3);
    assertThat(call(stub.getClass(), stub, "g", p)).isEqualTo(p);
    assertThat(call(stub.getClass(), stub, "h", Map.of("a", 1f, "b", 2f), List.of(two)))
        .isEqualTo(Map.of("a", 1f, "b", 2f));
  }

  @Test
  void aStubNameTakenByAnotherInterfaceIsADiagnosticNotAFilerError() {
    String json = "{'f':{'a':[],'r':[]}}";
    ProcessorTester t = new ProcessorTester(dir).file("m.json", json);
    JavaFileObject nested =
        source(
            "Outer",
            "public interface Outer {",
            "  @IreeModule(abi = \"m.json\") interface Inner { void f(); }",
            "}");
    JavaFileObject flat =
        source(
            "Outer_Inner",
            "@IreeModule(abi = \"m.json\") public interface Outer_Inner { void f(); }");
    Compilation c = t.compile(nested, flat);
    assertThat(c)
        .hadErrorContaining(
            "[IreeBadInterface] the stub of test.Outer_Inner would be test.Iree_Outer_Inner, which"
                + " is already the stub of test.Outer.Inner")
        .inFile(flat)
        .onLineContaining("interface Outer_Inner");
    assertThat(c).hadErrorCount(1);
    assertThat(ProcessorTester.diagnostics(c)).doesNotContain("IreeInternalError");

    JavaFileObject taken = source("Iree_Plain", "public class Iree_Plain {}");
    JavaFileObject plain =
        source("Plain", "@IreeModule(abi = \"m.json\") public interface Plain { void f(); }");
    Compilation d = t.compile(taken, plain);
    assertThat(d)
        .hadErrorContaining(
            "[IreeBadInterface] the stub of Plain would be test.Iree_Plain, but that type exists"
                + " already")
        .inFile(plain)
        .onLineContaining("interface Plain");
  }

  @Test
  void aKeyOfTheLongestLengthGivesABoundedDiagnostic() {
    // The longest key the parsers accept (a longer one is refused as the next test shows).
    String key = "x".repeat(dev.ireestubs.abi.ParseLimits.MAX_NAME_LENGTH);
    ProcessorTester t =
        new ProcessorTester(dir)
            .file(
                "m.json", "{'f':{'a':[['sdict',['" + key + "','i32'],['imagee','i32']]],'r':[]}}");
    JavaFileObject s =
        source(
            "Huge",
            "@IreeModule(abi = \"m.json\")",
            "interface Huge {",
            "  record In(int image, @IreeKey(\"nowhere\") int other) {}",
            "  void f(In in);",
            "}");
    Compilation c = t.compile(s);
    List<String> errors =
        c.errors().stream().map(d -> d.getMessage(null)).collect(Collectors.toList());
    assertThat(errors).isNotEmpty();
    for (String e : errors) {
      assertThat(e).startsWith("[IreeSignatureMismatch]");
      assertThat(e.length()).isLessThan(Reporter.MAX_MESSAGE + 200);
    }
    assertThat(c)
        .hadErrorContaining("did you mean \"imagee\"? rename the component to imagee")
        .inFile(s)
        .onLineContaining("record In");
    assertThat(c.diagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).count())
        .isAtLeast(2L);
  }

  @Test
  void aKeyOfAMillionCharactersIsRefusedNamingTheLimit() {
    String key = "x".repeat(1_000_000);
    ProcessorTester t =
        new ProcessorTester(dir)
            .file("m.json", "{'f':{'a':[['sdict',['" + key + "','i32']]],'r':[]}}");
    JavaFileObject s =
        source(
            "Huge",
            "@IreeModule(abi = \"m.json\")",
            "interface Huge { void f(java.util.Map<String, Integer> in); }");
    Compilation c = t.compile(s);
    assertThat(c)
        .hadErrorContaining("[IreeBadReflection]")
        .inFile(s)
        .onLineContaining("@IreeModule");
    assertThat(c).hadErrorContaining("ParseLimits.MAX_STRING_LENGTH = 65,536 characters");
    for (Diagnostic<?> d : c.errors()) {
      assertThat(d.getMessage(null).length()).isLessThan(Reporter.MAX_MESSAGE + 200);
    }
  }

  @Test
  void aStubOfAnotherRuntimeVersionFailsWhenItBindsWithAMessage() throws Exception {
    ProcessorTester t =
        new ProcessorTester(dir).file("m.json", "{'f':{'a':[['ndarray','f32',1,2]],'r':[]}}");
    Compilation c =
        t.compileClean(
            source(
                "Skew",
                "@IreeModule(name = \"m\", abi = \"m.json\") public interface Skew { void f(FloatArray x); }"));
    // A runtime without the model class the stub's signature code constructs.
    ClassLoader runtimeWithoutShape = new HidingClassLoader("dev.ireestubs.abi.Shape");
    Class<?> stubClass = new CompiledClasses(c, runtimeWithoutShape).load("test.Iree_Skew");
    ModuleBackend backend =
        HostModule.builder("m")
            .function("f", "{\"a\":[[\"ndarray\",\"f32\",1,2]],\"r\":[]}", args -> args)
            .build();
    InvocationTargetException e =
        assertThrows(
            InvocationTargetException.class,
            () -> stubClass.getConstructor(ModuleBackend.class).newInstance(backend));
    assertThat(e.getCause()).isInstanceOf(IreeSignatureMismatchException.class);
    assertThat(e.getCause())
        .hasMessageThat()
        .contains(
            "test.Iree_Skew cannot build the signatures it was compiled against with this version"
                + " of iree-stubs-runtime");
    assertThat(e.getCause()).hasMessageThat().contains("dev/ireestubs/abi/Shape");
  }

  @Test
  void generatedClassesNeedNoJsonParserAtRunTime() throws Exception {
    ProcessorTester t = new ProcessorTester(dir).file("clash.abi.json", CLASH_JSON);
    Compilation c =
        t.compileClean(
            source(
                "NoJson",
                "import java.util.Map;",
                "@IreeModule(name = \"m\", abi = \"clash.abi.json\")",
                "public interface NoJson {",
                "  record Pair(FloatArray Marshal, int VmList) {}",
                "  FloatArray f(FloatArray a, FloatArray b, FloatArray c, FloatArray d, int e);",
                "  Pair g(Pair p);",
                "  Map<String, Float> h(Map<String, Float> m, java.util.List<FloatArray> l);",
                "}"));
    String stubSource = ProcessorTester.generatedSource(c, "Iree_NoJson");
    assertThat(stubSource).doesNotContain("FunctionBinder.signature(");
    assertThat(stubSource).doesNotContain("{\\\"a\\\"");
    // The generated classes link and run with no JSON library visible to them.
    Class<?> stubClass =
        new CompiledClasses(c, new HidingClassLoader("com.fasterxml.")).load("test.Iree_NoJson");
    Object stub = stubClass.getConstructor(ModuleBackend.class).newInstance(clashModule());
    FloatArray two = FloatArray.of(new float[] {1, 2});
    assertThat(((FloatArray) call(stub.getClass(), stub, "f", two, two, two, two, 1)).toArray())
        .isEqualTo(new float[] {2, 2});
  }

  /** The test's class loader, except that it refuses classes whose names start with a prefix. */
  static final class HidingClassLoader extends ClassLoader {
    private final String hidden;

    HidingClassLoader(String hidden) {
      super(HidingClassLoader.class.getClassLoader());
      this.hidden = hidden;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith(hidden)) {
        throw new ClassNotFoundException(name + " (hidden by the test)");
      }
      return super.loadClass(name, resolve);
    }
  }
}
