package dev.ireestubs.processor.declaration;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static dev.ireestubs.processor.ProcessorTester.source;

import com.google.testing.compile.Compilation;
import dev.ireestubs.processor.ProcessorTester;
import java.nio.file.Path;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TypeReader} reads each type that methods repeat once and shares it; a type written with
 * type annotations must still be said as written, whichever comes first.
 */
class TypeReaderSharingTest {

  @TempDir Path dir;
  ProcessorTester t;

  @BeforeEach
  void setUp() {
    t = new ProcessorTester(dir);
  }

  @Test
  void annotatedArrayIsNotSaidAsThePlainOneReadBefore() {
    t.file("m.json", "{'f':{'a':['i32'],'r':[]},'g':{'a':['i32'],'r':[]}}");
    JavaFileObject m =
        source(
            "M",
            "@IreeModule(abi = \"m.json\")",
            "interface M {",
            "  @java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE_USE) @interface A {}",
            "  void f(float[] x);",
            "  void g(@A float[] y);",
            "}");
    Compilation comp = t.compile(m);
    assertThat(comp)
        .hadErrorContaining(
            "f: x is \"i32\" in the module, which binds to int or Integer, but the"
                + " parameter is float[];")
        .inFile(m)
        .onLineContaining("void f(");
    assertThat(comp)
        .hadErrorContaining(
            "g: y is \"i32\" in the module, which binds to int or Integer, but the"
                + " parameter is @test.M.A float[];")
        .inFile(m)
        .onLineContaining("void g(");
  }
}
