package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSON reader with the jackson-core an application may really have: this project's, older ones
 * that a BOM pinning Jackson puts in its place (the build copies them to {@code
 * target/old-jackson}), and none. Without a usable one, every parse fails with a message that says
 * which was found and what to do, where it failed in Jackson's set-up with a {@code
 * NoClassDefFoundError} (2.13: no {@code StreamReadConstraints}; none: no Jackson at all) or a
 * {@code NoSuchMethodError} (2.15: no document or name length limit).
 */
class JacksonVersionTest {

  private static final String FUNCTION = "{\"a\":[\"i32\"],\"r\":[\"i32\"]}";

  /** Where the build copies the old jars (the property is set by Maven's test run). */
  private static final Path OLD_JACKSON =
      Path.of(System.getProperty("iree.test.oldJackson", "target/old-jackson"));

  @Test
  void theProjectsJacksonIsEnough() {
    assertThat(AbiJson.readerProblem()).isEmpty();
    assertThat(AbiJson.parseFunction(FUNCTION).toString()).isEqualTo("(i32) -> (i32)");
  }

  @Test
  void versionsFrom216OnAreEnough() {
    assertThat(JacksonVersion.problem(2, 16, "2.16.0")).isNull();
    assertThat(JacksonVersion.problem(2, 22, "2.22.3")).isNull();
  }

  @Test
  void olderVersionsAreNamedWithWhatToDo() {
    String problem = JacksonVersion.problem(2, 15, "2.15.4");
    assertThat(problem)
        .startsWith(
            "iree-stubs reads reflection JSON with jackson-core 2.16 or later, and found"
                + " jackson-core 2.15.4, probably chosen by the build's dependency management");
    assertThat(problem).contains("jackson-bom.version");
    assertThat(JacksonVersion.problem(1, 9, "1.9.13")).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.13.5", "2.15.4"})
  void aParseWithAnOlderJacksonSaysWhich(String version) throws Exception {
    Path jar = OLD_JACKSON.resolve("jackson-core-" + version + ".jar");
    assertThat(Files.isRegularFile(jar)).isTrue(); // copied by the build (maven-dependency-plugin)
    assertEveryParseFailsWith(jar, "and found jackson-core " + version + ", probably chosen");
  }

  @Test
  void aParseWithNoJacksonSaysSo() throws Exception {
    assertEveryParseFailsWith(null, "and found none that says its version");
  }

  /**
   * Loads this module's classes with {@code jackson} (or none) in a class loader of their own, and
   * checks that {@code readerProblem} and every parse, twice (nothing left half-initialized), give
   * a message containing {@code expected}.
   */
  private static void assertEveryParseFailsWith(Path jackson, String expected) throws Exception {
    List<URL> path = new ArrayList<>();
    path.add(AbiJson.class.getProtectionDomain().getCodeSource().getLocation());
    if (jackson != null) {
      path.add(jackson.toUri().toURL());
    }
    try (URLClassLoader app =
        new URLClassLoader(path.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
      Class<?> abiJson = Class.forName(AbiJson.class.getName(), true, app);
      Optional<?> problem = (Optional<?>) abiJson.getMethod("readerProblem").invoke(null);
      assertThat(problem.orElseThrow().toString()).contains(expected);
      for (String name : List.of("parseFunction", "parseModule", "parseType")) {
        Method parse = abiJson.getMethod(name, String.class);
        for (int attempt = 0; attempt < 2; attempt++) {
          InvocationTargetException e =
              assertThrows(InvocationTargetException.class, () -> parse.invoke(null, FUNCTION));
          assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
          assertThat(e.getCause()).hasMessageThat().contains(expected);
        }
      }
    }
  }
}
