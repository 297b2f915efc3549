package dev.ireestubs.example.spark;

import dev.ireestubs.iree.IreeSessionPool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.apache.spark.sql.SparkSession;

/**
 * A Spark application of its own for {@link IreePoolAtExitTest}: scores frames on IREE's runtime in
 * local mode (the executor's pool opens), stops Spark and returns without closing anything. At the
 * JVM's end a hook of its own waits for {@link ExecutorBackend}'s shutdown hook to close the pool,
 * then prints what it saw: rows scored, closes, whether the pool is closed, and malloc's in-use
 * bytes before the IREE job, after it and after the close.
 */
public final class ScoreThenExit {
  private ScoreThenExit() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("score-then-exit");
    IreeMicroSpeech iree = new IreeMicroSpeech(LocalSpark.vmfb());
    SparkSession spark = LocalSpark.start("local[2]");
    String frames = LocalSpark.writeFrames(spark, dir, 400, 4);
    OptionalLong before = NativeMemory.quiet(1000);
    long scored = SpeechScoring.score(spark.read().parquet(frames), iree).count();
    IreeSessionPool pool = (IreeSessionPool) ExecutorBackend.backend(iree.name());
    OptionalLong open = NativeMemory.quiet(1000);
    spark.stop();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (ExecutorBackend.closes(iree.name()) == 0
                        && System.nanoTime() < deadline) {
                      Thread.sleep(20);
                    }
                    OptionalLong after = NativeMemory.quiet(1000);
                    System.out.printf(
                        "scored=%d sessions=%d closes=%d closed=%b malloc before=%d open=%d"
                            + " after=%d%n",
                        scored,
                        pool.size(),
                        ExecutorBackend.closes(iree.name()),
                        pool.isClosed(),
                        before.orElse(-1),
                        open.orElse(-1),
                        after.orElse(-1));
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }));
  }
}
