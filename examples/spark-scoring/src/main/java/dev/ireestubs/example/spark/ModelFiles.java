package dev.ireestubs.example.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.SparkFiles;

/**
 * Where an executor finds a file the application names: the path itself when it exists on this
 * machine (local mode, a shared file system), else the copy {@code spark-submit --files} (or {@code
 * SparkContext.addFile}) put in this executor's working files.
 */
public final class ModelFiles {
  private ModelFiles() {}

  /**
   * Resolves {@code file} in this JVM.
   *
   * @param file a path, or a file name shipped with {@code --files}
   * @return the file to read
   * @throws IllegalArgumentException when neither exists, naming both places
   */
  public static Path resolve(String file) {
    Path given = Path.of(file);
    if (Files.isRegularFile(given)) {
      return given;
    }
    String shipped = null;
    try {
      shipped = SparkFiles.get(given.getFileName().toString());
    } catch (RuntimeException e) {
      // no SparkContext in this JVM: only the path itself counts
    }
    if (shipped != null && Files.isRegularFile(Path.of(shipped))) {
      return Path.of(shipped);
    }
    throw new IllegalArgumentException(
        "model file "
            + file
            + " not found: neither at that path nor among the files shipped to this executor"
            + (shipped == null ? "" : " (" + shipped + ")")
            + "; pass it with spark-submit --files or put it where every executor reads it");
  }
}
