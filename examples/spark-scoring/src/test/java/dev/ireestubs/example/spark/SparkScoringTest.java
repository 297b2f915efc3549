package dev.ireestubs.example.spark;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.SparkException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition function in Spark's local mode ({@code local[2]}) on the host-module fake of
 * micro_speech: every row scored once, the same predictions as a plain Java loop over the same rows
 * through the same stub, the backend opened once in the JVM whatever the tasks and jobs.
 */
class SparkScoringTest {
  private static final long ROWS = 3000;
  private static final int PARTITIONS = 8;

  @TempDir static Path dir;
  private static SparkSession spark;
  private static FakeMicroSpeech source;
  private static String frames;

  @BeforeAll
  static void start() {
    source = new FakeMicroSpeech(LocalSpark.vmfb(), LocalSpark.yesFile());
    spark = LocalSpark.start("local[2]");
    frames = LocalSpark.writeFrames(spark, dir, ROWS, PARTITIONS);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void everyRowIsScoredOnceAsAPlainLoopScoresIt() {
    String out = dir.resolve("predictions.parquet").toString();
    SpeechScoring.score(spark.read().parquet(frames), source)
        .write()
        .mode(SaveMode.Overwrite)
        .parquet(out);
    Dataset<Row> predictions = spark.read().parquet(out);

    Map<Long, float[]> spark = LocalSpark.byId(predictions);
    Map<Long, float[]> loop =
        LocalSpark.plainLoop(SparkScoringTest.spark, frames, ExecutorBackend.stub(source));
    assertThat(spark.keySet()).isEqualTo(loop.keySet());
    assertThat(spark).hasSize((int) ROWS);
    for (Map.Entry<Long, float[]> e : loop.entrySet()) {
      assertThat(spark.get(e.getKey())).isEqualTo(e.getValue());
    }
    // The labels are the largest logit's, and the table has more than one.
    assertThat(predictions.select("label").distinct().count()).isGreaterThan(1L);
    for (Row r : predictions.limit(50).collectAsList()) {
      assertThat(r.getString(1)).isEqualTo(ScorePartition.label(spark.get(r.getLong(0))));
    }
  }

  @Test
  void theBackendIsOpenedOnceForEveryTaskAndJobOfTheJvm() {
    Dataset<Row> input = spark.read().parquet(frames).repartition(PARTITIONS);
    assertThat(SpeechScoring.score(input, source).count()).isEqualTo(ROWS);
    assertThat(SpeechScoring.score(input.repartition(5), source).count()).isEqualTo(ROWS);

    assertThat(ExecutorBackend.opens(source.name())).isEqualTo(1);
    assertThat(ExecutorBackend.closes(source.name())).isEqualTo(0);
    assertThat(ExecutorBackend.backend(source.name())).isNotNull();
  }

  @Test
  void aFrameOfTheWrongSizeFailsTheJobNamingTheRow() {
    Dataset<Row> bad =
        spark.createDataFrame(
            java.util.List.of(RowFactory.create(7L, new byte[] {1, 2, 3})), SpeechFrames.SCHEMA);
    SparkException e =
        assertThrows(
            SparkException.class,
            () ->
                bad.mapPartitions(new ScorePartition(source), Encoders.row(ScorePartition.SCHEMA))
                    .collectAsList());
    assertThat(e).hasMessageThat().contains("row 7: features has 3 bytes, micro_speech takes 1960");
  }
}
