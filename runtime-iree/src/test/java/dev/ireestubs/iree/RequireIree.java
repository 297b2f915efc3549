package dev.ireestubs.iree;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Integration tests run only when {@link IreeLibrary#locate()} finds a runtime library ({@code
 * -Diree.runtime.library}, {@code IREE_RUNTIME_LIBRARY}, the native jar on the class path, or the
 * conventional location where {@code runtime-iree/scripts/build-iree-runtime.sh} installs it);
 * otherwise each of their tests is skipped (a JUnit assumption, so Surefire counts them as skipped)
 * with a message. A library that is found but does not load fails them: that is a broken set-up,
 * not a missing one.
 */
final class RequireIree {
  private RequireIree() {}

  private static final Optional<Path> LOCATED = IreeLibrary.locate();
  private static boolean told;

  /** The located library, loaded; empty when none is found. For {@code @BeforeAll}. */
  static Optional<IreeLibrary> library() {
    return LOCATED.map(IreeLibrary::load);
  }

  /** A runtime in the located library, or null when none is found. For {@code @BeforeAll}. */
  static IreeRuntime runtimeOrNull() {
    return library().map(IreeRuntime::create).orElse(null);
  }

  /** Skips the calling test with a message when no library is found. For {@code @BeforeEach}. */
  static synchronized void assumeLibrary() {
    if (LOCATED.isPresent()) {
      return;
    }
    String message =
        "SKIPPED: no IREE runtime library found (-Diree.runtime.library, IREE_RUNTIME_LIBRARY,"
            + " the native jar on the class path, "
            + IreeLibrary.conventionalPath(IreeLibrary.IREE_VERSION)
            + "): the integration tests on IREE's runtime do not run; "
            + LibraryLocator.BUILD_SCRIPT
            + " builds and installs IREE v"
            + IreeLibrary.IREE_VERSION
            + "'s runtime there";
    if (!told) {
      System.out.println(message);
      told = true;
    }
    assumeTrue(false, message);
  }

  /**
   * The runtime an integration test class shares, as a JUnit extension: {@code @RegisterExtension
   * static final RequireIree.Runtime IREE = new RequireIree.Runtime();}. Each test is skipped when
   * no library is found ({@link #assumeLibrary}); the runtime is made at its first use and closed
   * after the class's last test.
   */
  static final class Runtime implements BeforeEachCallback, AfterAllCallback {
    private IreeRuntime runtime;

    /** The shared runtime, made on first use. */
    synchronized IreeRuntime runtime() {
      if (runtime == null) {
        runtime = runtimeOrNull();
      }
      return runtime;
    }

    /** A new session on the shared runtime with the module {@code file} of ../shared loaded. */
    IreeSession load(String file) throws IOException {
      return runtime().newSession().load(Corpus.require(file));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
      assumeLibrary();
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
      if (runtime != null) {
        runtime.close();
        runtime = null;
      }
    }
  }
}
