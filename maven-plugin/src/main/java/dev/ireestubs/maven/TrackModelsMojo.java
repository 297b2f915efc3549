package dev.ireestubs.maven;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Before the main sources compile: when a model file ({@code .vmfb} or reflection JSON) that a stub
 * was generated from has changed since, removes the class files that make the compiler think the
 * interface is up to date, so that this build regenerates the stub and checks the interface against
 * the changed model. Runs after the resources are copied, since the processor reads the copies in
 * the class output.
 */
@Mojo(name = "track-models", defaultPhase = LifecyclePhase.PROCESS_RESOURCES, threadSafe = true)
public final class TrackModelsMojo extends AbstractTrackModelsMojo {

  /** Where the annotation processor writes the main sources' stubs (maven-compiler-plugin's). */
  @Parameter(
      defaultValue = "${project.build.directory}/generated-sources/annotations",
      required = true)
  private File generatedSourcesDirectory;

  /** Where the main classes are compiled to. */
  @Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
  private File outputDirectory;

  /** Made by Maven, which then injects the parameters. */
  public TrackModelsMojo() {}

  @Override
  File generatedSources() {
    return generatedSourcesDirectory;
  }

  @Override
  File classes() {
    return outputDirectory;
  }
}
