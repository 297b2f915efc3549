package dev.ireestubs.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Parameter;

/** What the main and test goals share: find stale stubs in one source set and invalidate them. */
abstract class AbstractTrackModelsMojo extends AbstractMojo {

  /** Skips the goal. */
  @Parameter(property = "iree-stubs.skip", defaultValue = "false")
  private boolean skip;

  /** The folder the annotation processor writes generated sources to, with the records. */
  abstract File generatedSources();

  /** The folder the compiler writes classes to. */
  abstract File classes();

  @Override
  public void execute() throws MojoExecutionException {
    if (skip) {
      getLog().info("iree-stubs: skipped");
      return;
    }
    try {
      List<StaleStubs.Stale> stale = StaleStubs.find(generatedSources().toPath());
      for (StaleStubs.Stale s : stale) {
        Path classes = classes().toPath();
        StaleStubs.invalidate(s, classes);
        String source = s.record().source();
        getLog()
            .info(
                "iree-stubs: "
                    + s.reason()
                    + (source.isEmpty()
                        ? ""
                        : "; " + source + " will be recompiled and checked again"));
      }
    } catch (IOException e) {
      throw new MojoExecutionException(
          "iree-stubs: cannot check the model files of the stubs in "
              + generatedSources()
              + ": "
              + e,
          e);
    }
  }
}
