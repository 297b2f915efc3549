package dev.ireestubs.example.spark;

import dev.ireestubs.testing.SharedData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * What the Spark tests share: a local session (stopped by the test class), the real model's files
 * from ../shared (the test is skipped without them), and a frames table written as Parquet.
 */
final class LocalSpark {
  private LocalSpark() {}

  static final long SEED = 39;

  /** The real module, or a skipped test. */
  static String vmfb() {
    return SharedData.require("models/" + MicroSpeech.FILE).toString();
  }

  /** The "yes" features' file, or a skipped test. */
  static String yesFile() {
    return SharedData.require("models/" + MicroSpeech.YES).toString();
  }

  /** The "yes" features. */
  static byte[] yes() {
    try {
      return Files.readAllBytes(Path.of(yesFile()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A new local session on {@code master} (its UI off, a Parquet read split into small tasks). */
  static SparkSession start(String master) {
    return SparkSession.builder()
        .appName("iree-stubs spark tests")
        .master(master)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        // Small files: a Parquet read gives several partitions (tasks), not one.
        .config("spark.sql.files.maxPartitionBytes", "256k")
        .getOrCreate();
  }

  /** Writes {@code rows} frames in {@code partitions} partitions under {@code dir}; their path. */
  static String writeFrames(SparkSession spark, Path dir, long rows, int partitions) {
    String path = dir.resolve("frames.parquet").toString();
    SpeechFrames.generate(spark, yes(), SEED, rows, partitions)
        .write()
        .mode(SaveMode.Overwrite)
        .parquet(path);
    return path;
  }

  /** Predictions by id; fails on a duplicated id. */
  static Map<Long, float[]> byId(Dataset<Row> predictions) {
    Map<Long, float[]> byId = new HashMap<>();
    for (Row r : predictions.collectAsList()) {
      List<Float> logits = r.getList(2);
      float[] a = new float[logits.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = logits.get(i);
      }
      if (byId.put(r.getLong(0), a) != null) {
        throw new AssertionError("row " + r.getLong(0) + " predicted twice");
      }
    }
    return byId;
  }

  /**
   * The plain Java loop: every row of the Parquet table at {@code frames}, read on the driver,
   * scored one after the other through {@code speech}, by id.
   */
  static Map<Long, float[]> plainLoop(SparkSession spark, String frames, MicroSpeech speech) {
    Map<Long, float[]> byId = new HashMap<>();
    try (var input = dev.ireestubs.ndarray.ByteArray.zeros(1, 49, 40, 1)) {
      for (Row r : spark.read().parquet(frames).collectAsList()) {
        long id = r.getLong(0);
        byId.put(id, ScorePartition.score(speech, input, id, (byte[]) r.get(1)));
      }
    }
    return byId;
  }
}
