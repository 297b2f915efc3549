package dev.ireestubs.processor.diagnostics;

import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * The user's source files as the compiler knows them: whether an element is compiled from source in
 * this compilation (so that a diagnostic on it shows its line), and the file on disk an element is
 * written in. Without javac's tree API (another compiler, or javac behind a wrapper), every element
 * is taken to have source, and none a file.
 */
public final class SourceFiles {

  /** javac's trees, or null. */
  private final Trees trees;

  private SourceFiles(Trees trees) {
    this.trees = trees;
  }

  /** The source files of the compilation {@code env} processes. */
  public static SourceFiles of(ProcessingEnvironment env) {
    try {
      return new SourceFiles(Trees.instance(env));
    } catch (RuntimeException | LinkageError e) {
      // Not javac, or javac behind a wrapper: diagnostics then go on the elements as they are.
      return new SourceFiles(null);
    }
  }

  /** True when {@code e} was compiled from source in this compilation (so it has lines). */
  public boolean hasSource(Element e) {
    if (trees == null) {
      return true;
    }
    Element top = e;
    for (Element up = e; up != null; up = up.getEnclosingElement()) {
      if (up instanceof TypeElement) {
        top = up;
      }
    }
    try {
      return trees.getPath(top) != null;
    } catch (RuntimeException ex) {
      return true;
    }
  }

  /** The file on disk whose source declares {@code e}; empty when the compiler cannot say. */
  public Optional<Path> fileOf(Element e) {
    if (trees == null) {
      return Optional.empty();
    }
    try {
      TreePath path = trees.getPath(e);
      if (path == null) {
        return Optional.empty();
      }
      URI uri = path.getCompilationUnit().getSourceFile().toUri();
      if (!"file".equalsIgnoreCase(uri.getScheme())) {
        return Optional.empty();
      }
      return Optional.of(Paths.get(uri));
    } catch (RuntimeException ex) {
      return Optional.empty();
    }
  }
}
