package dev.ireestubs.example.spark;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.iree.IreeSessionPool;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same partition function on IREE's runtime with the real micro_speech module, inside Spark on
 * this JDK (22+), two task threads ({@code local[2,2]}: a failed attempt is retried once): every
 * row scored once, exactly as a plain loop through the same stub scores it, the real model's answer
 * for the clean "yes" frames, one pool per JVM.
 */
class IreeSparkScoringTest {
  private static final long ROWS = 800;

  /**
   * What {@code iree-run-module --function=tf2onnx} prints for the "yes" features on IREE 3.11.0
   * (the shared folder's README).
   */
  private static final float[] YES_LOGITS = {-12.6956f, -3.90635f, 9.94343f, -3.28488f};

  @TempDir static Path dir;
  private static SparkSession spark;
  private static IreeMicroSpeech source;
  private static String frames;

  @BeforeAll
  static void start() {
    String vmfb = LocalSpark.vmfb();
    RequireIree.library();
    source = new IreeMicroSpeech(vmfb);
    spark = LocalSpark.start("local[2,2]");
    frames = LocalSpark.writeFrames(spark, dir, ROWS, 6);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void everyRowIsScoredOnceAsAPlainLoopScoresIt() {
    TaskRetryTest.FAILED.set(0);
    String out = dir.resolve("predictions.parquet").toString();
    spark
        .read()
        .parquet(frames)
        .mapPartitions(
            new TaskRetryTest.FailOnce(new ScorePartition(source)),
            Encoders.row(ScorePartition.SCHEMA))
        .write()
        .mode(SaveMode.Overwrite)
        .parquet(out);

    Map<Long, float[]> written = LocalSpark.byId(spark.read().parquet(out));
    Map<Long, float[]> loop = LocalSpark.plainLoop(spark, frames, ExecutorBackend.stub(source));
    assertThat(TaskRetryTest.FAILED.get()).isEqualTo(1);
    assertThat(written.keySet()).isEqualTo(loop.keySet());
    assertThat(written).hasSize((int) ROWS);
    for (Map.Entry<Long, float[]> e : loop.entrySet()) {
      assertThat(written.get(e.getKey())).isEqualTo(e.getValue());
    }
    byte[] yes = LocalSpark.yes();
    int clean = 0;
    for (long id = 0; id < ROWS; id++) {
      if (Arrays.equals(SpeechFrames.frame(yes, LocalSpark.SEED, id), yes)) {
        assertThat(written.get(id)).usingTolerance(1e-4).containsExactly(YES_LOGITS).inOrder();
        clean++;
      }
    }
    assertThat(clean).isGreaterThan(0);
    assertThat(ExecutorBackend.opens(source.name())).isEqualTo(1);
  }

  @Test
  void oneBackendServesEveryTaskOfTheJvm() {
    var input = spark.read().parquet(frames).repartition(7);
    assertThat(SpeechScoring.score(input, source).count()).isEqualTo(ROWS);
    assertThat(SpeechScoring.score(input, source).count()).isEqualTo(ROWS);
    assertThat(ExecutorBackend.opens(source.name())).isEqualTo(1);
    // One session per task thread of local[2,2].
    assertThat(((IreeSessionPool) ExecutorBackend.backend(source.name())).size()).isEqualTo(2);
  }
}
