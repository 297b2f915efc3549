package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.ndarray.NdArray;
import dev.ireestubs.processor.diagnostics.Messages;
import dev.ireestubs.processor.model.CallPlan;
import dev.ireestubs.processor.model.StubModel;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.type.TypeKind;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Every real compiled module in {@code ../shared/iree-reflection/vmfb}: the interface a user would
 * write for it (from each export's best reflection) is accepted and its stub compiles, and the same
 * interface with one deliberate mistake is rejected with the precise error on the right line.
 */
class VmfbCorpusConformanceTest {

  /** The one mistake a perturbed interface makes. */
  enum Mistake {
    /** A typed-array parameter of another element type. */
    ELEMENT_TYPE,
    /** A Java-array parameter of one rank more. */
    RANK,
    /** One parameter too many. */
    ARITY,
    /** A misspelt function name in @IreeFunction. */
    UNKNOWN_FUNCTION,
    /** A record for a ref the module states no type for. */
    UNTYPED_RECORD,
    /** void for a function with results. */
    RESULT
  }

  /** A module, its file name, and the exports an interface binds (all but __init). */
  private record Module(String file, VmfbModule module, List<VmfbExport> exports) {}

  /** A generated interface and what compiling it must report (empty: nothing). */
  private record Source(
      String className, JavaFileObject file, String text, List<String> fragments, String line) {}

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".vmfb"))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  @Test
  void everyRealModuleChecksTheInterfaceWrittenForItAndRejectsOneMistake() throws IOException {
    Path dir = SharedData.require("vmfb");
    List<Module> modules = new ArrayList<>();
    Path lfs = null;
    for (Path p : files(dir)) {
      String name = p.getFileName().toString();
      if (name.startsWith("LFS-POINTER")) {
        lfs = p;
        continue;
      }
      VmfbModule m = VmfbReader.read(p);
      List<VmfbExport> exports =
          m.exports().stream().filter(e -> !e.name().equals("__init")).collect(Collectors.toList());
      modules.add(new Module(name, m, exports));
    }
    assertThat(modules.size()).isAtLeast(30);

    // 1. As a user writes it: accepted, and the stub compiles.
    ProcessorTester good = new ProcessorTester(dir);
    List<Source> sources = new ArrayList<>();
    for (int i = 0; i < modules.size(); i++) {
      sources.add(new Writer(modules.get(i), String.format("M%02d", i), i % 2 == 0).write(null));
    }
    Compilation c = good.compile(sources.stream().map(Source::file).toArray(JavaFileObject[]::new));
    for (Source s : sources) {
      assertWithMessage("%s\n%s", s.className(), s.text()).that(errorsIn(c, s.file())).isEmpty();
    }
    // No error anywhere else either: the generated stubs compiled.
    assertWithMessage("diagnostics:\n%s", ProcessorTester.diagnostics(c))
        .that(c.status())
        .isEqualTo(Compilation.Status.SUCCESS);
    assertThat(good.models).hasSize(modules.size());
    assertThat(c.generatedSourceFiles()).hasSize(modules.size());
    Map<String, Integer> bySource = new TreeMap<>();
    int functions = 0;
    for (StubModel model : good.models) {
      Module m = modules.get(Integer.parseInt(model.iface().simpleName().substring(1)));
      assertThat(model.moduleName()).isEqualTo(m.module().name());
      assertThat(model.functions()).hasSize(m.exports().size());
      for (CallPlan f : model.functions()) {
        VmfbExport e = m.module().export(f.functionName()).orElseThrow();
        Reflection.Resolved r = e.signature();
        assertThat(f.reflectionSource()).isEqualTo(m.file() + " (" + r.source() + ")");
        assertThat(f.signature()).isEqualTo(r.signature());
        assertThat(f.parameters()).hasSize(r.signature().arguments().size());
        bySource.merge(r.source(), 1, Integer::sum);
        functions++;
      }
    }
    long warnings =
        c.diagnostics().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.WARNING)
            .filter(d -> d.getMessage(null).startsWith("[IreeReflectionFallback]"))
            .count();

    // 2. One mistake each, the kinds taken in turn among those the module allows.
    ProcessorTester bad = new ProcessorTester(dir);
    List<Source> perturbed = new ArrayList<>();
    Map<Mistake, Integer> kinds = new EnumMap<>(Mistake.class);
    int turn = 0;
    for (int i = 0; i < modules.size(); i++) {
      Writer w = new Writer(modules.get(i), String.format("P%02d", i), i % 2 == 0);
      List<Mistake> allowed = w.allowed();
      Mistake chosen = null;
      for (int k = 0; k < Mistake.values().length && chosen == null; k++) {
        Mistake candidate = Mistake.values()[(turn + k) % Mistake.values().length];
        if (allowed.contains(candidate)) {
          chosen = candidate;
          turn = candidate.ordinal() + 1;
        }
      }
      kinds.merge(chosen, 1, Integer::sum);
      perturbed.add(
          new Writer(modules.get(i), String.format("P%02d", i), i % 2 == 0).write(chosen));
    }
    JavaFileObject lfsSource =
        ProcessorTester.source(
            "Lfs",
            "@IreeModule(vmfb = " + ProcessorTester.lit(lfs.getFileName().toString()) + ")",
            "interface Lfs { void f(); }");
    Compilation cb =
        bad.compile(
            Stream.concat(perturbed.stream().map(Source::file), Stream.of(lfsSource))
                .toArray(JavaFileObject[]::new));
    for (Source s : perturbed) {
      List<Diagnostic<? extends JavaFileObject>> errors = diagnosticsIn(cb, s.file());
      assertWithMessage("%s: %s\n%s", s.className(), messages(errors), s.text())
          .that(errors)
          .hasSize(1);
      String message = errors.get(0).getMessage(null);
      for (String fragment : s.fragments()) {
        assertWithMessage("%s\n%s", s.className(), s.text()).that(message).contains(fragment);
      }
      assertThat(cb)
          .hadErrorContaining(s.fragments().get(0))
          .inFile(s.file())
          .onLineContaining(s.line());
    }
    assertThat(bad.models).isEmpty();
    assertThat(cb)
        .hadErrorContaining("is not a readable IREE module: this is a Git LFS pointer file")
        .inFile(lfsSource)
        .onLineContaining("LFS-POINTER");
    assertThat(diagnosticsIn(cb, lfsSource)).hasSize(1);
    assertThat(kinds.keySet()).containsExactlyElementsIn(List.of(Mistake.values()));

    System.out.println(
        "processor vmfb conformance: "
            + modules.size()
            + " real modules; the interface written for each is accepted and its stub compiles ("
            + functions
            + " functions, by reflection source "
            + bySource
            + ", "
            + warnings
            + " fallback warnings); "
            + perturbed.size()
            + " perturbed interfaces rejected with the expected error on the expected line "
            + kinds
            + "; the LFS pointer is rejected");
  }

  /** Writes the Java interface for one module, optionally with one mistake. */
  private static final class Writer {
    private final Module module;
    private final String className;
    private final boolean refsAsArrays;
    private final List<String> records = new ArrayList<>();

    Writer(Module module, String className, boolean refsAsArrays) {
      this.module = module;
      this.className = className;
      this.refsAsArrays = refsAsArrays;
    }

    /** The first export, which mistakes are made in. */
    private FunctionSignature first() {
      return module.exports().get(0).signature().signature();
    }

    List<Mistake> allowed() {
      FunctionSignature s = first();
      List<Mistake> out = new ArrayList<>();
      if (s.arguments().stream().anyMatch(a -> knownArray(a) != null)) {
        out.add(Mistake.ELEMENT_TYPE);
      }
      if (s.arguments().stream().anyMatch(a -> rankable(a) != null)) {
        out.add(Mistake.RANK);
      }
      out.add(Mistake.ARITY);
      out.add(Mistake.UNKNOWN_FUNCTION);
      if (s.arguments().stream().anyMatch(VmfbCorpusConformanceTest::isUntypedRef)) {
        out.add(Mistake.UNTYPED_RECORD);
      }
      if (!s.results().isEmpty()) {
        out.add(Mistake.RESULT);
      }
      return out;
    }

    Source write(Mistake mistake) {
      List<String> lines = new ArrayList<>();
      List<String> fragments = new ArrayList<>();
      String[] line = {null};
      List<String> methods = new ArrayList<>();
      for (int f = 0; f < module.exports().size(); f++) {
        VmfbExport export = module.exports().get(f);
        FunctionSignature s = export.signature().signature();
        Mistake m = f == 0 ? mistake : null;
        String method = InterfaceSource.javaName(export.name(), "call").replace('$', '_');
        String marker = "/*fn" + f + "*/";
        String functionName = export.name();
        if (m == Mistake.UNKNOWN_FUNCTION) {
          functionName = export.name() + "x";
          fragments.add(
              "[IreeUnknownFunction] "
                  + functionName
                  + ": the compiled module \""
                  + module.file()
                  + "\" has no function \""
                  + functionName
                  + "\" (functions: "
                  + String.join(", ", module.module().exportNames())
                  + "); did you mean \""
                  + export.name()
                  + "\"? change it to @IreeFunction(\""
                  + export.name()
                  + "\")");
          line[0] = marker;
        }
        List<String> params = new ArrayList<>();
        boolean done = false;
        for (int i = 0; i < s.arguments().size(); i++) {
          AbiType a = s.arguments().get(i);
          String name = "arg" + i;
          String pmarker = "/*fn" + f + "." + name + "*/";
          String type = type(a, name);
          if (!done && m == Mistake.ELEMENT_TYPE && knownArray(a) != null) {
            done = true;
            String right = type;
            type = right.equals("FloatArray") ? "DoubleArray" : "FloatArray";
            fragments.add(
                "[IreeSignatureMismatch] "
                    + export.name()
                    + ": "
                    + name
                    + " is "
                    + a
                    + " in the module, which binds to ");
            fragments.add("but the parameter is " + type + "; change its type to " + right);
            line[0] = pmarker;
          } else if (!done && m == Mistake.RANK && rankable(a) != null) {
            done = true;
            AbiType.NdArray n = (AbiType.NdArray) a;
            String component = rankable(a);
            type = component + "[]".repeat(n.shape().rank() + 1);
            fragments.add(
                "[IreeSignatureMismatch] "
                    + export.name()
                    + ": "
                    + name
                    + " is "
                    + a
                    + " in the module, of rank "
                    + n.shape().rank());
            fragments.add(
                "but the parameter is "
                    + type
                    + " (rank "
                    + (n.shape().rank() + 1)
                    + "); change its type to "
                    + component
                    + "[]".repeat(n.shape().rank()));
            line[0] = pmarker;
          } else if (!done && m == Mistake.UNTYPED_RECORD && isUntypedRef(a)) {
            done = true;
            String record = className + "R" + i;
            records.add("  record " + record + "(FloatArray image, int label) {}");
            type = record;
            fragments.add(
                "[IreeSignatureMismatch] "
                    + export.name()
                    + ": "
                    + name
                    + " is a ref of unknown type in the module (the module has no reflection for "
                    + export.name()
                    + ", only its calling convention "
                    + export.callingConvention().orElseThrow()
                    + "), so the module carries no structure information to check record "
                    + record
                    + " against; change its type to VmList");
            line[0] = pmarker;
          }
          params.add("      " + pmarker + " " + type + " " + name);
        }
        if (m == Mistake.ARITY) {
          params.add("      /*extra*/ int extra");
          fragments.add(
              "[IreeSignatureMismatch] "
                  + export.name()
                  + ": the function takes "
                  + Messages.count(s.arguments().size(), "argument")
                  + " in the module "
                  + s.arguments().stream()
                      .map(AbiType::toString)
                      .collect(Collectors.joining(", ", "(", ")"))
                  + ", but method "
                  + method
                  + " has "
                  + Messages.count(s.arguments().size() + 1, "parameter"));
          line[0] = marker;
        }
        String result = result(s, f);
        if (m == Mistake.RESULT) {
          result = "void";
          fragments.add(
              "[IreeSignatureMismatch] "
                  + export.name()
                  + ": the function returns "
                  + s.results().stream()
                      .map(AbiType::toString)
                      .collect(Collectors.joining(", ", "(", ")"))
                  + " in the module, but method "
                  + method
                  + " returns void");
          line[0] = marker;
        }
        methods.add(
            "  "
                + marker
                + " @IreeFunction("
                + ProcessorTester.lit(functionName)
                + ") "
                + result
                + " "
                + method
                + "(\n"
                + String.join(",\n", params)
                + ");");
      }
      lines.add("package test;");
      lines.add(ProcessorTester.IMPORTS);
      lines.add("@IreeModule(vmfb = " + ProcessorTester.lit(module.file()) + ")");
      lines.add("interface " + className + " {");
      lines.addAll(records);
      lines.addAll(methods);
      lines.add("}");
      String text = String.join("\n", lines);
      return new Source(
          className,
          JavaFileObjects.forSourceString("test." + className, text),
          text,
          fragments,
          line[0]);
    }

    private String result(FunctionSignature s, int f) {
      List<AbiType> results = s.results();
      if (results.isEmpty()) {
        return "void";
      }
      if (results.size() == 1) {
        return type(results.get(0), "result");
      }
      String name = className + "Results" + f;
      List<String> components = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        components.add(type(results.get(i), "r" + i) + " r" + i);
      }
      records.add("  record " + name + "(" + String.join(", ", components) + ") {}");
      return name;
    }

    /** What a user writes: primitives, typed arrays, VmRef (or NdArray) for untyped refs. */
    private String type(AbiType t, String hint) {
      if (t instanceof AbiType.Scalar) {
        TypeKind k = TestMapping.primitiveFor(((AbiType.Scalar) t).element());
        return k.toString().toLowerCase(Locale.ROOT);
      }
      if (t instanceof AbiType.NdArray) {
        List<String> classes = NdArray.classNamesAccepting(((AbiType.NdArray) t).element());
        return classes.isEmpty() ? "NdArray" : classes.get(0);
      }
      if (isUntypedRef(t)) {
        return refsAsArrays ? "NdArray" : "VmRef";
      }
      throw new AssertionError("no Java type written for " + t + " (" + hint + ")");
    }

    /** The typed array class of an ndarray of known element type, or null. */
    private static String knownArray(AbiType t) {
      if (!(t instanceof AbiType.NdArray) || !((AbiType.NdArray) t).element().isKnown()) {
        return null;
      }
      List<String> classes = NdArray.classNamesAccepting(((AbiType.NdArray) t).element());
      return classes.isEmpty() ? null : classes.get(0);
    }

    /** The Java array component of a ranked ndarray of rank 1..3, or null. */
    private static String rankable(AbiType t) {
      if (!(t instanceof AbiType.NdArray)) {
        return null;
      }
      AbiType.NdArray n = (AbiType.NdArray) t;
      TypeKind k = TestMapping.javaArrayComponentFor(n.element());
      if (k == null || !n.shape().isRanked() || n.shape().rank() < 1 || n.shape().rank() > 3) {
        return null;
      }
      return k.toString().toLowerCase(Locale.ROOT);
    }
  }

  private static List<Diagnostic<? extends JavaFileObject>> diagnosticsIn(
      Compilation c, JavaFileObject file) {
    return c.errors().stream()
        .filter(d -> d.getSource() != null && d.getSource().toUri().equals(file.toUri()))
        .collect(Collectors.toList());
  }

  private static List<String> errorsIn(Compilation c, JavaFileObject file) {
    return diagnosticsIn(c, file).stream()
        .map(d -> d.getMessage(null))
        .collect(Collectors.toList());
  }

  private static List<String> messages(List<Diagnostic<? extends JavaFileObject>> ds) {
    return ds.stream()
        .map(d -> d.getLineNumber() + ": " + d.getMessage(null))
        .collect(Collectors.toList());
  }

  /** A calling convention's {@code r} or V0's {@code O}: a ref the module states nothing about. */
  private static boolean isUntypedRef(AbiType t) {
    return AbiType.Ref.any().equals(t);
  }
}
