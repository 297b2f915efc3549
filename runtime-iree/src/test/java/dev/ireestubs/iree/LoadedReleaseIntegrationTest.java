package dev.ireestubs.iree;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.vmfb.RuntimeGeneration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which IREE release the tests run on, and which C API generation it is bound with, as a user sees
 * them ({@link IreeRuntime#release()}, {@link IreeLibrary#apiGeneration()}); the first test prints
 * them, so that a run's output says which release its counts are for.
 */
class LoadedReleaseIntegrationTest {

  @RegisterExtension static final RequireIree.Runtime IREE = new RequireIree.Runtime();

  @Test
  void theRuntimeSaysWhichReleaseItRunsOn() {
    IreeRuntime runtime = IREE.runtime();
    IreeLibrary library = runtime.library();
    System.out.println(
        "runtime-iree's integration tests run on IREE "
            + runtime.release().orElse("of an unknown release")
            + " ("
            + library.path()
            + "), bound with the C API of "
            + library.apiGeneration());
    assertThat(runtime.release()).isEqualTo(library.release());
    assertThat(runtime.toString()).contains(runtime.release().orElse("of an unknown release"));
  }

  @Test
  void theBindingIsTheGenerationOfTheRelease() {
    IreeLibrary library = IREE.runtime().library();
    RuntimeGeneration generation = library.generation();
    if (generation == RuntimeGeneration.IREE_3_12_AND_LATER) {
      assertThat(library.apiGeneration()).isEqualTo("IREE 3.12 and later (hal 0.7)");
    } else if (generation == RuntimeGeneration.IREE_3_11_AND_EARLIER) {
      assertThat(library.apiGeneration()).isEqualTo("IREE 3.11 and earlier (hal 0.6)");
    }
  }

  @Test
  void theReleaseAskedForIsTheOneLoaded() {
    // When a release is asked for and no library file is named, that release's library is loaded.
    String asked = System.getProperty(IreeLibrary.VERSION_PROPERTY);
    if (asked == null
        || asked.isBlank()
        || System.getProperty(IreeLibrary.PROPERTY) != null
        || System.getenv(IreeLibrary.ENVIRONMENT_VARIABLE) != null) {
      return;
    }
    assertThat(IREE.runtime().release()).hasValue(asked.strip());
  }
}
