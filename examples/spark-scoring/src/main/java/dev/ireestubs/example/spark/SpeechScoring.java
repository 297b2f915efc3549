package dev.ireestubs.example.spark;

import dev.ireestubs.invoke.CallStatistics;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The example application: makes a Parquet table of micro_speech frames, scores it with the typed
 * stub inside {@code mapPartitions} ({@link ScorePartition}), writes the predictions beside the
 * input keys as Parquet, and prints what it found. Arguments ({@code --name value}): {@code
 * backend} ({@code host}: the host-module fake; {@code iree}: IREE's runtime with the real module,
 * JDK 22+), {@code rows}, {@code partitions}, {@code master} (none: spark-submit's), {@code model}
 * and {@code yes} (files: paths, or names shipped with {@code --files}), {@code data} (the folder
 * for both tables).
 */
public final class SpeechScoring {
  private SpeechScoring() {}

  /** The table's seed. */
  static final long SEED = 39;

  /**
   * Runs the example.
   *
   * @param args {@code --name value} pairs
   * @throws IOException when the "yes" features cannot be read
   */
  public static void main(String[] args) throws IOException {
    Map<String, String> options = options(args);
    String backend = options.getOrDefault("backend", "host");
    long rows = Long.parseLong(options.getOrDefault("rows", "20000"));
    int partitions = Integer.parseInt(options.getOrDefault("partitions", "8"));
    String model = required(options, "model");
    String yesFile = required(options, "yes");
    // A Hadoop path or URI (hdfs:///..., s3a://...), not a java.nio one.
    String data = options.getOrDefault("data", "scoring").replaceAll("/+$", "");
    ModelSource source = source(backend, model, yesFile);

    SparkSession.Builder builder = SparkSession.builder().appName("iree-stubs spark scoring");
    if (options.containsKey("master")) {
      builder.master(options.get("master"));
    }
    SparkSession spark = builder.getOrCreate();
    try {
      run(spark, source, Files.readAllBytes(ModelFiles.resolve(yesFile)), rows, partitions, data);
    } finally {
      spark.stop();
    }
  }

  private static void run(
      SparkSession spark, ModelSource source, byte[] yes, long rows, int partitions, String data) {
    PrintStream out = System.out;
    String frames = data + "/frames.parquet";
    String predictions = data + "/predictions.parquet";
    SpeechFrames.generate(spark, yes, SEED, rows, partitions)
        .write()
        .mode(SaveMode.Overwrite)
        .parquet(frames);
    out.printf(
        "frames: %d rows in %d partitions, %s (Spark %s, master %s, Java %s)%n",
        rows,
        partitions,
        frames,
        spark.version(),
        spark.sparkContext().master(),
        Runtime.version());

    long start = System.nanoTime();
    score(spark.read().parquet(frames), source)
        .write()
        .mode(SaveMode.Overwrite)
        .parquet(predictions);
    double seconds = (System.nanoTime() - start) / 1e9;
    out.printf(
        Locale.ROOT,
        "scored with %s in %.2f s (%.0f rows/s, Parquet read and write included): %s%n",
        source.name(),
        seconds,
        rows / seconds,
        predictions);

    Dataset<Row> scored = spark.read().parquet(predictions);
    out.println("labels:");
    for (Row r : scored.groupBy("label").count().orderBy("label").collectAsList()) {
      out.printf("  %-8s %d%n", r.getString(0), r.getLong(1));
    }
    out.println("first rows:");
    for (Row r : scored.orderBy("id").limit(4).collectAsList()) {
      out.printf("  %d %-8s %s%n", r.getLong(0), r.getString(1), r.getList(2));
    }
    // Each backend registers its statistics with its JVM's MBean server: in local mode the
    // driver's JVM is the executors'; on a cluster each executor has its own.
    for (CallStatistics stats : CallStatisticsBeans.inThisJvm()) {
      out.printf(
          "statistics in this JVM: %s on %s, %s: %d calls, %d failed%n",
          stats.getBackend(),
          stats.getDevice(),
          stats.getModules(),
          stats.getCalls(),
          stats.getFailures());
    }
    out.printf(
        "backend opened in this JVM: %d time(s) for %s%n",
        ExecutorBackend.opens(source.name()), source.name());
  }

  /**
   * The scoring step: {@code frames} ({@link SpeechFrames#SCHEMA}) to predictions ({@link
   * ScorePartition#SCHEMA}).
   *
   * @param frames the input table
   * @param source the model and how executors open it
   * @return the predictions, one per input row
   */
  public static Dataset<Row> score(Dataset<Row> frames, ModelSource source) {
    return frames.mapPartitions(new ScorePartition(source), Encoders.row(ScorePartition.SCHEMA));
  }

  /**
   * The model source a backend name stands for.
   *
   * @param backend {@code host} or {@code iree}
   * @param model the module's file
   * @param yes the "yes" features' file (for the host fake)
   * @return the source
   */
  static ModelSource source(String backend, String model, String yes) {
    return switch (backend) {
      case "host" -> new FakeMicroSpeech(model, yes);
      case "iree" -> iree(model);
      default -> throw new IllegalArgumentException("--backend is host or iree, not " + backend);
    };
  }

  /** IREE's source, compiled only on JDK 22+ (src/iree/java), hence found by name from here. */
  private static ModelSource iree(String model) {
    try {
      return Class.forName("dev.ireestubs.example.spark.IreeMicroSpeech")
          .asSubclass(ModelSource.class)
          .getConstructor(String.class)
          .newInstance(model);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "--backend iree needs IREE's runtime backend, built on JDK 22 or newer; this build"
              + " ran on Java "
              + Runtime.version().feature(),
          e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return value;
  }
}
