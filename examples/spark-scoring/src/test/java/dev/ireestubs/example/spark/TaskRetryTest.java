package dev.ireestubs.example.spark;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task that fails half-way through its partition, once: Spark runs the partition again from its
 * first row, and the Parquet output commits only the successful attempt's file, so no row is lost
 * or written twice. Local mode retries only with {@code local[N,F]} (F attempts per task; {@code
 * spark.task.maxFailures} is ignored there).
 */
class TaskRetryTest {
  private static final long ROWS = 2000;
  private static final int PARTITIONS = 4;
  private static final int FAILING_PARTITION = 1;

  /** How many attempts were failed on purpose (the test's JVM runs the tasks: local mode). */
  static final AtomicInteger FAILED = new AtomicInteger();

  @TempDir static Path dir;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = LocalSpark.start("local[2,2]");
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  /** {@link ScorePartition}, failing its first attempt on one partition after 100 rows. */
  static final class FailOnce implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final ScorePartition scoring;

    FailOnce(ScorePartition scoring) {
      this.scoring = scoring;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> rows) throws Exception {
      Iterator<Row> scored = scoring.call(rows);
      TaskContext task = TaskContext.get();
      if (task.partitionId() != FAILING_PARTITION || task.attemptNumber() > 0) {
        return scored;
      }
      return new Iterator<>() {
        private int n;

        @Override
        public boolean hasNext() {
          return scored.hasNext();
        }

        @Override
        public Row next() {
          if (++n == 100) {
            FAILED.incrementAndGet();
            throw new IllegalStateException("failed on purpose after 99 rows of partition 1");
          }
          return scored.next();
        }
      };
    }
  }

  @Test
  void aRetriedTaskLosesAndDuplicatesNoRow() {
    FakeMicroSpeech source = new FakeMicroSpeech(LocalSpark.vmfb(), LocalSpark.yesFile());
    String frames = LocalSpark.writeFrames(spark, dir, ROWS, PARTITIONS);
    String out = dir.resolve("predictions.parquet").toString();

    spark
        .read()
        .parquet(frames)
        .mapPartitions(
            new FailOnce(new ScorePartition(source)), Encoders.row(ScorePartition.SCHEMA))
        .write()
        .mode(SaveMode.Overwrite)
        .parquet(out);

    assertThat(FAILED.get()).isEqualTo(1); // the retry succeeded, or the job would have failed
    Map<Long, float[]> written = LocalSpark.byId(spark.read().parquet(out)); // fails on a duplicate
    Map<Long, float[]> loop = LocalSpark.plainLoop(spark, frames, ExecutorBackend.stub(source));
    assertThat(written.keySet()).isEqualTo(loop.keySet());
    assertThat(written).hasSize((int) ROWS);
    for (Map.Entry<Long, float[]> e : loop.entrySet()) {
      assertThat(written.get(e.getKey())).isEqualTo(e.getValue());
    }
    assertThat(ExecutorBackend.opens(source.name())).isEqualTo(1);
  }
}
