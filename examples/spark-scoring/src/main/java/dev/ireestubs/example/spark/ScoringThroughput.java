package dev.ireestubs.example.spark;

import dev.ireestubs.ndarray.ByteArray;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * What Spark adds per row: rows per second of a plain Java loop through the stub (one thread, the
 * frames already in memory), then of the Spark job on {@code local[1]} and {@code local[2]} (read
 * the Parquet table, score in {@code mapPartitions}, write to Spark's {@code noop} sink, so no
 * output file), each after a warm-up pass, best of three; and the JVM's resident memory (in local
 * mode the driver's JVM is the executor's). The backend is closed between the two Spark runs so
 * that each opens a pool sized to its own task slots. Same arguments as {@link SpeechScoring}
 * ({@code --master} is ignored).
 */
public final class ScoringThroughput {
  private ScoringThroughput() {}

  private static final int REPEATS = 3;

  /**
   * Runs the measurement and prints a table.
   *
   * @param args {@code --name value} pairs, as {@link SpeechScoring#main} takes
   * @throws IOException when a file cannot be read
   */
  public static void main(String[] args) throws IOException {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].substring(2), args[i + 1]);
    }
    long rows = Long.parseLong(options.getOrDefault("rows", "20000"));
    int partitions = Integer.parseInt(options.getOrDefault("partitions", "8"));
    ModelSource source =
        SpeechScoring.source(
            options.getOrDefault("backend", "host"), options.get("model"), options.get("yes"));
    byte[] yes = Files.readAllBytes(ModelFiles.resolve(options.get("yes")));
    String frames =
        options.getOrDefault("data", "scoring").replaceAll("/+$", "") + "/frames.parquet";
    PrintStream out = System.out;

    SparkSession spark = session("local[2]");
    SpeechFrames.generate(spark, yes, SpeechScoring.SEED, rows, partitions)
        .write()
        .mode(SaveMode.Overwrite)
        .parquet(frames);
    List<Row> inMemory = spark.read().parquet(frames).collectAsList();
    List<String> lines = new ArrayList<>();
    double loop = best(() -> plainLoop(source, inMemory), rows);
    lines.add(line("plain Java loop, 1 thread (frames in memory)", loop, loop));
    spark.stop();

    for (String master : List.of("local[1]", "local[2]")) {
      ExecutorBackend.closeAll(); // a pool sized to this master's task slots
      SparkSession s = session(master);
      Dataset<Row> input = s.read().parquet(frames);
      double rate =
          best(
              () ->
                  SpeechScoring.score(input, source)
                      .write()
                      .format("noop")
                      .mode("overwrite")
                      .save(),
              rows);
      lines.add(line("Spark " + master + ": Parquet, mapPartitions, noop sink", rate, loop));
      lines.add(
          String.format(
              Locale.ROOT,
              "  JVM after %s: resident %d MiB, peak %d MiB, heap used %d MiB",
              master,
              proc("VmRSS") >> 20,
              proc("VmHWM") >> 20,
              (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20));
      s.stop();
    }
    out.printf(
        "%s, %d rows of %d partitions, Java %s, %d processors%n",
        source.name(),
        rows,
        partitions,
        Runtime.version(),
        Runtime.getRuntime().availableProcessors());
    out.println("| run | rows/s | µs per row | vs loop |");
    out.println("|---|---:|---:|---:|");
    lines.forEach(out::println);
  }

  private static SparkSession session(String master) {
    return SparkSession.builder()
        .appName("iree-stubs scoring throughput")
        .master(master)
        .config("spark.ui.enabled", "false")
        .getOrCreate();
  }

  private static void plainLoop(ModelSource source, List<Row> rows) {
    MicroSpeech speech = ExecutorBackend.stub(source);
    try (ByteArray input = ByteArray.zeros(1, 49, 40, 1)) {
      for (Row r : rows) {
        ScorePartition.score(speech, input, r.getLong(0), (byte[]) r.get(1));
      }
    }
  }

  /** Rows per second of the best of {@link #REPEATS} timed runs after one warm-up run. */
  private static double best(Runnable run, long rows) {
    run.run();
    long best = Long.MAX_VALUE;
    for (int i = 0; i < REPEATS; i++) {
      long start = System.nanoTime();
      run.run();
      best = Math.min(best, System.nanoTime() - start);
    }
    return rows / (best / 1e9);
  }

  private static String line(String what, double rate, double loop) {
    return String.format(
        Locale.ROOT, "| %s | %.0f | %.1f | %.2f |", what, rate, 1e6 / rate, rate / loop);
  }

  /** A /proc/self/status field in bytes, or -1 off Linux. */
  private static long proc(String field) {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (l.startsWith(field + ":")) {
          return Long.parseLong(l.substring(field.length() + 1).trim().split("\\s+")[0]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }
}
