package dev.ireestubs.processor.declaration;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.processor.JavacOnFiles;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whether a class's module reads java.compiler, as javac compiles a module-info and a class from
 * files (compile-testing's in-memory files do not compile a module-info).
 */
class ModuleReadsTest {

  /** Records, for each class compiled, whether its module reads java.compiler. */
  private static final class Probe extends AbstractProcessor {
    final List<Boolean> reads = new ArrayList<>();

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
      for (Element e : round.getRootElements()) {
        if (e instanceof TypeElement) {
          reads.add(
              ModuleReads.reads(processingEnv.getElementUtils(), e, ModuleReads.JAVA_COMPILER));
        }
      }
      return false;
    }
  }

  @TempDir Path dir;

  /** Compiles {@code p.A} (and {@code moduleInfo}, when given) from files, probing {@code p.A}. */
  private boolean readsJavaCompiler(String moduleInfo) throws IOException {
    Path sources = Files.createDirectories(dir.resolve("src" + dir.toFile().list().length));
    List<File> files = new ArrayList<>();
    if (moduleInfo != null) {
      files.add(Files.writeString(sources.resolve("module-info.java"), moduleInfo).toFile());
    }
    Path a = Files.createDirectories(sources.resolve("p")).resolve("A.java");
    files.add(Files.writeString(a, "package p; public class A {}").toFile());
    Probe probe = new Probe();
    JavacOnFiles.compile(files, List.of("-proc:only"), probe);
    assertThat(probe.reads).hasSize(1);
    return probe.reads.get(0);
  }

  @Test
  void theClassPathReadsEveryModule() throws IOException {
    assertThat(readsJavaCompiler(null)).isTrue();
  }

  @Test
  void aNamedModuleReadsWhatItRequires() throws IOException {
    assertThat(readsJavaCompiler("module m { exports p; }")).isFalse();
    assertThat(readsJavaCompiler("module m { requires static java.compiler; }")).isTrue();
    assertThat(readsJavaCompiler("module m { requires java.compiler; }")).isTrue();
    assertThat(readsJavaCompiler("module m { requires java.logging; }")).isFalse();
  }

  /** java.se requires java.compiler transitively; java.sql requires only java.logging so. */
  @Test
  void andWhatTheModulesItRequiresRequireTransitively() throws IOException {
    assertThat(readsJavaCompiler("module m { requires java.se; }")).isTrue();
    assertThat(readsJavaCompiler("module m { requires java.sql; }")).isFalse();
  }
}
