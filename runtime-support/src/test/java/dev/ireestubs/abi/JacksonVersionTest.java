package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSON reader with the jackson-core an application may really have: this project's, and older
 * ones that a BOM pinning Jackson puts in its place (the build copies them to {@code
 * target/old-jackson}). With an older one, a parse fails with a message that names the version and
 * what to do, where it failed inside Jackson's set-up with a {@code NoClassDefFoundError} (2.13:
 * no {@code StreamReadConstraints}) or a {@code NoSuchMethodError} (2.15: no document or name
 * length limit).
 */
class JacksonVersionTest {

  private static final String FUNCTION = "{\"a\":[\"i32\"],\"r\":[\"i32\"]}";

  @Test
  void theProjectsJacksonIsEnough() {
    JacksonVersion.require();
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
    assertThat(problem).contains("jackson-core 2.16 or later");
    assertThat(problem).contains("the class path has jackson-core 2.15.4");
    assertThat(problem).contains("jackson-bom.version");
    assertThat(JacksonVersion.problem(1, 9, "1.9.13")).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.13.5", "2.15.4"})
  void aParseWithAnOlderJacksonSaysWhich(String version) throws Exception {
    Path jar = Path.of("target", "old-jackson", "jackson-core-" + version + ".jar");
    assertThat(Files.isRegularFile(jar)).isTrue(); // copied by the build (maven-dependency-plugin)
    URL ours = AbiJson.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader app =
        new URLClassLoader(
            new URL[] {ours, jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Method parse =
          Class.forName(AbiJson.class.getName(), true, app).getMethod("parseFunction", String.class);
      for (int attempt = 0; attempt < 2; attempt++) {
        // The same message every time, not only the first (no class left half-initialized).
        InvocationTargetException e =
            assertThrows(InvocationTargetException.class, () -> parse.invoke(null, FUNCTION));
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
        assertThat(e.getCause())
            .hasMessageThat()
            .contains("the class path has jackson-core " + version + ",");
      }
    }
  }
}
