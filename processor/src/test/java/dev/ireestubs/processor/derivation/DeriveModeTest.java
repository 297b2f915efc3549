package dev.ireestubs.processor.derivation;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.processor.CompiledClasses;
import dev.ireestubs.processor.ProcessorTester;
import dev.ireestubs.testing.TestModules;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Derive mode: a compilation of nothing but a {@code package-info.java} with {@code @IreeClient}
 * and a module file (a {@code .vmfb} written by {@link TestModules}, or an {@code iree.abi} JSON
 * module file) yields a typed client that compiles and calls a host module; the derived interfaces
 * are compared with golden files (set {@code -Dgolden.update=true} to rewrite them).
 */
class DeriveModeTest {

  static final String ADD =
      "sync func @simple_add(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
          + " tensor<4xf32>)";
  static final String SPLIT =
      "sync func @split(%whole: tensor<4xf32>) -> (%low: tensor<2xf32>, %high: tensor<2xf32>)";

  /** A declaration-only module of today's layout, with IREE's bookkeeping exports. */
  static byte[] adderModule() {
    TestModules.Spec spec =
        TestModules.spec()
            .name("adder")
            .bytecodeVersion(17, 0)
            .function("simple_add", "0rr_r", "iree.abi.declaration", ADD)
            .function("split", "0r_rr", "iree.abi.declaration", SPLIT)
            .function("main$async", "0rrr_r")
            .function("main", "0r_r")
            .function("scale", "0rf_r")
            .function("__init", "0v_v");
    List<String> names = List.of("simple_add", "split", "main$async", "main", "scale", "__init");
    for (int i = 0; i < names.size(); i++) {
      spec.export(names.get(i), i, null);
    }
    return spec.ireeZip();
  }

  /** An iree.abi JSON module file with sdicts, lists and a keyword as a key. */
  static final String SCORER_JSON =
      "{'score_batch': {'a': [['sdict', ['image_data', ['ndarray', 'f32', 2, 1, 4]],"
          + " ['class', 'i32']], ['py_homogeneous_list', ['ndarray', 'f32', 1, 4]]],"
          + " 'r': [['slist', ['ndarray', 'f32', 1, 4], 'i64']], 'v': 1},"
          + " 'Reset': {'a': [], 'r': [], 'v': 1},"
          + " 'lookup': {'a': [['named', 'query', 'i32']],"
          + " 'r': [['sdict', ['best', 'f32'], ['best_index', 'i64']]], 'v': 1}}";

  @TempDir Path dir;
  ProcessorTester t;

  @BeforeEach
  void setUp() {
    t = new ProcessorTester(dir);
  }

  static JavaFileObject packageInfo(String pkg, String... annotations) {
    return JavaFileObjects.forSourceString(
        pkg + ".package-info",
        String.join("\n", annotations)
            + "\npackage "
            + pkg
            + ";\n\nimport dev.ireestubs.annotations.IreeClient;\n");
  }

  private void writeModule(String path, byte[] bytes) throws IOException {
    Path p = dir.resolve(path);
    Files.createDirectories(p.getParent());
    Files.write(p, bytes);
  }

  @Test
  void packageInfoAndVmfbCompileToAWorkingClient() throws Exception {
    writeModule("models/adder.vmfb", adderModule());
    Compilation c =
        t.compileClean(
            packageInfo("derived", "@IreeClient(vmfb = \"models/adder.vmfb\", name = \"Adder\")"));
    assertThat(c.generatedSourceFile("derived.Adder")).isPresent();
    assertThat(c.generatedSourceFile("derived.Iree_Adder")).isPresent();
    assertGolden(c, "derived", "Adder");

    HostModule fake =
        HostModule.fake(
            dir.resolve("models/adder.vmfb"),
            Map.of(
                "simple_add",
                args -> {
                  FloatArray a = (FloatArray) args.get(0);
                  FloatArray b = (FloatArray) args.get(1);
                  FloatArray out = FloatArray.zeros(4);
                  for (int i = 0; i < 4; i++) {
                    out.setFlat(a.getFlat(i) + b.getFlat(i), i);
                  }
                  return out;
                },
                "split",
                args -> {
                  FloatArray w = (FloatArray) args.get(0);
                  return List.of(
                      FloatArray.of(new float[] {w.getFlat(0), w.getFlat(1)}, 2),
                      FloatArray.of(new float[] {w.getFlat(2), w.getFlat(3)}, 2));
                },
                "main",
                args -> args.get(0),
                "main$async",
                args -> java.util.concurrent.CompletableFuture.supplyAsync(() -> args.get(0)),
                "scale",
                args -> args.get(0)));
    CompiledClasses classes = new CompiledClasses(c);
    Class<?> iface = classes.load("derived.Adder");
    Object adder =
        classes.load("derived.Iree_Adder").getConstructor(ModuleBackend.class).newInstance(fake);
    FloatArray x = FloatArray.of(new float[] {1, 2, 3, 4}, 4);
    Method simpleAdd = iface.getMethod("simpleAdd", FloatArray.class, FloatArray.class);
    assertThat(simpleAdd.getParameters()[0].getName()).isAnyOf("input0", "arg0");
    assertThat(simpleAdd.invoke(adder, x, x)).isEqualTo(FloatArray.of(new float[] {2, 4, 6, 8}, 4));
    Object halves = iface.getMethod("split", FloatArray.class).invoke(adder, x);
    assertThat(halves.getClass().getMethod("high").invoke(halves))
        .isEqualTo(FloatArray.of(new float[] {3, 4}, 2));
    // main$async beside main: its asynchronous twin, a CompletableFuture method.
    Method mainAsync = iface.getMethod("mainAsync", dev.ireestubs.vm.VmRef.class);
    assertThat(mainAsync.getReturnType()).isEqualTo(java.util.concurrent.CompletableFuture.class);
    java.util.concurrent.CompletableFuture<?> later =
        (java.util.concurrent.CompletableFuture<?>) mainAsync.invoke(adder, x.asBufferView());
    assertThat(FloatArray.fromBufferView((dev.ireestubs.vm.BufferView) later.get()).toArray())
        .isEqualTo(new float[] {1, 2, 3, 4});
  }

  @Test
  void jsonModuleWithSdictsAndListsDerivesAClient() throws Exception {
    t.file("scorer.abi.json", SCORER_JSON);
    Compilation c =
        t.compileClean(
            packageInfo(
                "derived.json",
                "@IreeClient(abi = \"scorer.abi.json\", module = \"scorer\", name = \"Scorer\")"));
    assertThat(c.generatedSourceFile("derived.json.Iree_Scorer")).isPresent();
    assertGolden(c, "derived.json", "Scorer");
  }

  @Test
  void repeatedAnnotationsDeriveOneClientEach() throws Exception {
    writeModule("models/adder.vmfb", adderModule());
    t.file("scorer.abi.json", SCORER_JSON);
    Compilation c =
        t.compileClean(
            packageInfo(
                "derived",
                "@IreeClient(vmfb = \"models/adder.vmfb\")",
                "@IreeClient(abi = \"scorer.abi.json\", name = \"Scorer\")"));
    // Named after the module when no name is given.
    assertThat(c.generatedSourceFile("derived.Iree_Adder")).isPresent();
    assertThat(c.generatedSourceFile("derived.Iree_Scorer")).isPresent();
  }

  @Test
  void neitherOrBothSourcesIsAnErrorOnTheAnnotation() {
    Compilation none = t.compile(packageInfo("derived", "@IreeClient(name = \"X\")"));
    assertThat(none)
        .hadErrorContaining("[IreeBadInterface] @IreeClient on package derived names no module");
    assertThat(none)
        .hadErrorContaining("names no module")
        .inFile(none.sourceFiles().get(0))
        .onLineContaining("@IreeClient");
    Compilation both =
        t.compile(packageInfo("derived", "@IreeClient(vmfb = \"a.vmfb\", abi = \"a.json\")"));
    assertThat(both).hadErrorContaining("sets both vmfb and abi");
  }

  @Test
  void aNameThatIsNotAJavaTypeNameIsAnError() throws IOException {
    writeModule("models/adder.vmfb", adderModule());
    Compilation c =
        t.compile(
            packageInfo("derived", "@IreeClient(vmfb = \"models/adder.vmfb\", name = \"class\")"));
    assertThat(c).hadErrorContaining("@IreeClient(name = \"class\") is not a Java type name");
  }

  @Test
  void aMissingOrUnreadableModuleIsAnErrorOnItsValue() throws IOException {
    Compilation missing = t.compile(packageInfo("derived", "@IreeClient(vmfb = \"nowhere.vmfb\")"));
    assertThat(missing)
        .hadErrorContaining("[IreeBadReflection] compiled module \"nowhere.vmfb\" of @IreeClient");
    assertThat(missing)
        .hadErrorContaining("nowhere.vmfb")
        .inFile(missing.sourceFiles().get(0))
        .onLineContaining("nowhere.vmfb");
    writeModule("junk.vmfb", "not a module".getBytes(StandardCharsets.UTF_8));
    Compilation junk = t.compile(packageInfo("derived", "@IreeClient(vmfb = \"junk.vmfb\")"));
    assertThat(junk).hadErrorContaining("is not a readable IREE module");
    Compilation noJson = t.compile(packageInfo("derived", "@IreeClient(abi = \"none.json\")"));
    assertThat(noJson)
        .hadErrorContaining("[IreeBadReflection] reflection file \"none.json\" of @IreeClient");
    t.file("bad.json", "{'f': 3}");
    Compilation bad = t.compile(packageInfo("derived", "@IreeClient(abi = \"bad.json\")"));
    assertThat(bad).hadErrorContaining("is not a module file of iree.abi JSON");
  }

  @Test
  void aClashWithAnExistingTypeOrAnotherClientIsAnError() throws IOException {
    writeModule("models/adder.vmfb", adderModule());
    Compilation existing =
        t.compile(
            packageInfo("derived", "@IreeClient(vmfb = \"models/adder.vmfb\")"),
            JavaFileObjects.forSourceString("derived.Adder", "package derived; class Adder {}"));
    assertThat(existing)
        .hadErrorContaining(
            "derives interface derived.Adder, but a type of that name already exists");
    Compilation twice =
        t.compile(
            packageInfo(
                "derived",
                "@IreeClient(vmfb = \"models/adder.vmfb\")",
                "@IreeClient(vmfb = \"models/adder.vmfb\")"));
    assertThat(twice).hadErrorContaining("[IreeBadInterface] cannot write interface derived.Adder");
  }

  @Test
  void moduleWithVmfbIsAWarningAndUnbindableFunctionsAreWarnings() throws IOException {
    writeModule("models/adder.vmfb", adderModule());
    Compilation c =
        t.compile(
            packageInfo("derived", "@IreeClient(vmfb = \"models/adder.vmfb\", module = \"m\")"));
    assertThat(c).succeeded();
    assertThat(c)
        .hadWarningContaining(
            "[IreeIgnoredAnnotation] @IreeClient(module = \"m\") has no effect with vmfb");
    t.file(
        "half.json",
        "{'ok': {'a': [], 'r': []}, 'half': {'a': [['ndarray', 'complex64', 1, 2]], 'r': []}}");
    Compilation half =
        t.compile(packageInfo("derived", "@IreeClient(abi = \"half.json\", name = \"Half\")"));
    assertThat(half).succeeded();
    assertThat(half)
        .hadWarningContaining("[IreeUnsupportedType] Half has no method for function \"half\"");
  }

  private static void assertGolden(Compilation c, String pkg, String name) throws IOException {
    JavaFileObject file =
        c.generatedFile(StandardLocation.SOURCE_OUTPUT, pkg, name + ".java").orElseThrow();
    String actual = file.getCharContent(false).toString();
    ProcessorTester.assertGolden(actual, "derived/" + name + ".java");
  }
}
