package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ireestubs.iree.models.Adder;
import dev.ireestubs.iree.models.Iree_Adder;
import dev.ireestubs.ndarray.FloatArray;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Where the library was loaded from, in the run whose build says where it must come from: the
 * system property {@value #EXPECTED} ({@code CLASS_PATH} in the profile {@code
 * library-from-native-jar}, which .ci/run uses with nothing else configured). Skipped in other
 * runs.
 */
class LibraryOriginIntegrationTest {

  static final String EXPECTED = "iree.test.expectedLibraryOrigin";

  @Test
  void aModuleRunsOnTheLibraryFromWhereTheBuildSays() throws IOException {
    String expected = System.getProperty(EXPECTED);
    assumeTrue(
        expected != null && !expected.isBlank(),
        "SKIPPED: " + EXPECTED + " is not set (the class-path-only run of .ci/run sets it)");
    // Where load() finds the library now (an IreeLibrary keeps the origin of its first load,
    // which another test may have made with an explicit path to the same file).
    LibraryLocator.Found found = LibraryLocator.ofSystem().require();
    System.out.println("IREE runtime library from the " + found.source());
    assertThat(found.origin()).isEqualTo(IreeLibrary.Origin.valueOf(expected));
    IreeLibrary library = IreeLibrary.load();
    assertThat(library.path()).isEqualTo(found.path().toRealPath());
    if (found.origin() == IreeLibrary.Origin.CLASS_PATH) {
      // Nothing else could have supplied it...
      assertThat(System.getProperty(IreeLibrary.PROPERTY)).isNull();
      assertThat(System.getenv(IreeLibrary.ENVIRONMENT_VARIABLE)).isNull();
      assertThat(Files.exists(IreeLibrary.conventionalPath(IreeLibrary.IREE_VERSION))).isFalse();
      // ...and the loaded file is the jar's library, extracted into the cache.
      Path cache = ClassPathLibrary.ofSystem().cacheRoot().toRealPath();
      assertThat(library.path().startsWith(cache)).isTrue();
      assertThat(NativeJars.sha256(Files.readAllBytes(library.path()))).isEqualTo(recordedSha256());
    }
    // A newcomer's call: no path anywhere, the module from the shared real data.
    try (IreeSession backend = IreeBackend.open(Corpus.require(Adder.FILE))) {
      FloatArray a = FloatArray.of(new float[] {1, 2, 3, 4}, 4);
      FloatArray b = FloatArray.of(new float[] {10, 20, 30, 40}, 4);
      assertThat(new Iree_Adder(backend).add(a, b).toArray())
          .isEqualTo(new float[] {11, 22, 33, 44});
    }
  }

  /** The SHA-256 the class path's BUILD-INFO records for this machine's library. */
  private static String recordedSha256() throws IOException {
    LibraryLocator system = LibraryLocator.ofSystem();
    String entry =
        ClassPathLibrary.entryName(system.version(), system.platform(), library(system.platform()));
    String info = entry.substring(0, entry.lastIndexOf('/') + 1) + BuildInfo.FILE_NAME;
    URL url = LibraryOriginIntegrationTest.class.getClassLoader().getResource(info);
    assertThat(url).isNotNull();
    try (InputStream in = url.openStream()) {
      return BuildInfo.read(in, url.toString()).sha256();
    }
  }

  private static String library(String platform) {
    return new NativePlatform(platform.substring(0, platform.indexOf('-')), "any").libraryName();
  }
}
