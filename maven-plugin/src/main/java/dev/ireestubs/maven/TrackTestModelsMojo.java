package dev.ireestubs.maven;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code track-models} for the test sources: runs after the test resources are copied and before
 * they compile.
 */
@Mojo(
    name = "track-test-models",
    defaultPhase = LifecyclePhase.PROCESS_TEST_RESOURCES,
    threadSafe = true)
public final class TrackTestModelsMojo extends AbstractTrackModelsMojo {

  /** Where the annotation processor writes the test sources' stubs (maven-compiler-plugin's). */
  @Parameter(
      defaultValue = "${project.build.directory}/generated-test-sources/test-annotations",
      required = true)
  private File generatedTestSourcesDirectory;

  /** Where the test classes are compiled to. */
  @Parameter(defaultValue = "${project.build.testOutputDirectory}", required = true)
  private File testOutputDirectory;

  /** Made by Maven, which then injects the parameters. */
  public TrackTestModelsMojo() {}

  @Override
  File generatedSources() {
    return generatedTestSourcesDirectory;
  }

  @Override
  File classes() {
    return testOutputDirectory;
  }
}
