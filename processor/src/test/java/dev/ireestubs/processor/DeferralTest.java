package dev.ireestubs.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.ireestubs.processor.ProcessorTester.source;

import com.google.testing.compile.Compilation;
import dev.ireestubs.processor.model.RecordBinding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interfaces that name types another processor generates in a later round (DESIGN.md, style rule
 * 6): the declaration step finds every type that does not resolve, wherever the interface names it,
 * and the interface waits for a later round before any file is read; after the last round, what
 * still does not resolve is reported once.
 */
class DeferralTest {

  @TempDir Path dir;
  ProcessorTester t;

  @BeforeEach
  void setUp() {
    t = new ProcessorTester(dir);
  }

  @Test
  void anInterfaceWaitsBeforeReadingItsModuleFile() {
    // The other processor writes the module file in the round it generates the record: read in
    // the first round, the file would not be there yet.
    Generates other =
        new Generates(
            Map.of("test.gen.Point", "package test.gen; public record Point(float x) {}"),
            Map.of(
                dir.resolve("m.json"),
                ProcessorTester.json("{'f':{'a':[['sdict',['x','f32']]],'r':[]}}")));
    Compilation c =
        t.compileWith(
            List.of(t.capturing(), other),
            source(
                "Later",
                "@IreeModule(abi = \"m.json\")",
                "interface Later { void f(test.gen.Point p); }"));
    assertThat(ProcessorTester.diagnostics(c)).isEmpty();
    RecordBinding p = (RecordBinding) t.function("f").parameters().get(0).binding();
    assertThat(p.record().canonicalName()).isEqualTo("test.gen.Point");
  }

  @Test
  void aTypeInARecordComponentsTypeArgumentIsWaitedFor() {
    t.file(
        "m.json",
        "{'f':{'a':[['sdict',['points',['py_homogeneous_list',['sdict',['x','f32']]]]]],'r':[]}}");
    Compilation c =
        t.compileWith(
            List.of(t.capturing(), Generates.point()),
            source(
                "Batched",
                "@IreeModule(abi = \"m.json\")",
                "interface Batched {",
                "  record Batch(List<test.gen.Point> points) {}",
                "  void f(Batch batch);",
                "}"));
    assertThat(ProcessorTester.diagnostics(c)).isEmpty();
    assertThat(t.model().functions()).hasSize(1);
  }

  @Test
  void anIreePyDmMethodWaitsForItsTypesToo() {
    Compilation c =
        t.compileWith(
            List.of(t.capturing(), Generates.point()),
            source(
                "PyLater",
                "@IreeModule(name = \"py\")",
                "interface PyLater {",
                "  @IreeFunction(convention = IreeFunction.Convention.PYDM)",
                "  long count(test.gen.Point p);",
                "}"));
    assertThat(ProcessorTester.diagnostics(c)).isEmpty();
    assertThat(t.model().functions()).hasSize(1);
  }

  @Test
  void typesThatNeverResolveAreReportedOnceAfterTheLastRound() {
    t.file("m.json", "{'f':{'a':[['ndarray','f32',1,4]],'r':[]},'g':{'a':['i32'],'r':['i32']}}");
    JavaFileObject s =
        source(
            "Never",
            "@IreeModule(abi = \"m.json\")",
            "interface Never {",
            "  void f(Missing x);",
            "  Absent g(int y);",
            "  @IreeFunction(convention = IreeFunction.Convention.PYDM)",
            "  long h(Missing z);",
            "}");
    Compilation c = t.compile(s);
    assertThat(c)
        .hadErrorContaining(
            "[IreeUnresolvedType] cannot check Never against its module: types Missing, Absent are"
                + " not known, even after the last round of annotation processing; import or"
                + " declare them")
        .inFile(s)
        .onLineContaining("interface Never");
    // Nothing else of ours is said about them: the binder binds nothing to a type that does not
    // resolve (javac says "cannot find symbol" itself).
    assertThat(ProcessorTester.diagnostics(c)).doesNotContain("IreeSignatureMismatch");
    assertThat(ProcessorTester.diagnostics(c)).doesNotContain("IreeUnsupportedType");
    assertThat(t.models).isEmpty();
  }

  @Test
  void aMistakeBesideAnUnresolvedTypeIsStillReportedAfterTheLastRound() {
    t.file("m.json", "{'f':{'a':['i32'],'r':[]},'g':{'a':['i32'],'r':[]}}");
    JavaFileObject s =
        source(
            "Both",
            "@IreeModule(abi = \"m.json\")",
            "interface Both {",
            "  void f(Missing x);",
            "  void g(float y);",
            "}");
    Compilation c = t.compile(s);
    assertThat(c)
        .hadErrorContaining(
            "[IreeUnresolvedType] cannot check Both against its module: type Missing is not known");
    assertThat(c)
        .hadErrorContaining("[IreeSignatureMismatch] g: y is \"i32\" in the module")
        .inFile(s)
        .onLineContaining("void g(");
  }

  /** In its first round, generates sources and writes files, as another processor would. */
  static final class Generates extends AbstractProcessor {
    private final Map<String, String> sources;
    private final Map<Path, String> files;
    private boolean done;

    Generates(Map<String, String> sources, Map<Path, String> files) {
      this.sources = sources;
      this.files = files;
    }

    /** Generates {@code test.gen.Point(float x)}. */
    static Generates point() {
      return new Generates(
          Map.of("test.gen.Point", "package test.gen; public record Point(float x) {}"), Map.of());
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      if (done) {
        return false;
      }
      done = true;
      try {
        for (Map.Entry<String, String> s : sources.entrySet()) {
          try (Writer w = processingEnv.getFiler().createSourceFile(s.getKey()).openWriter()) {
            w.write(s.getValue());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      files.forEach(ProcessorTester::write);
      return false;
    }
  }
}
