package dev.ireestubs.example.spark;

import java.util.SplittableRandom;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The example's input table: one micro_speech frame per row, made from the real "yes" features with
 * seeded Gaussian noise (signed 8-bit, clamped), of a standard deviation drawn per row from 0, 8,
 * 24 and 64, so that the model's answers vary. Row {@code id} is the same frame whoever makes it
 * and however the table is partitioned.
 */
public final class SpeechFrames {
  private SpeechFrames() {}

  /** {@code id} (long), {@code features} (binary, 1,960 bytes). */
  public static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("features", DataTypes.BinaryType, false);

  private static final int[] NOISE = {0, 8, 24, 64};

  /**
   * Frame {@code id}.
   *
   * @param yes the "yes" features, 1,960 bytes
   * @param seed the table's seed
   * @param id the row
   * @return a new frame of 1,960 bytes
   */
  public static byte[] frame(byte[] yes, long seed, long id) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + id);
    int sigma = NOISE[random.nextInt(NOISE.length)];
    byte[] frame = new byte[yes.length];
    for (int i = 0; i < frame.length; i++) {
      long v = yes[i] + (sigma == 0 ? 0 : Math.round(random.nextGaussian() * sigma));
      frame[i] = (byte) Math.max(-128, Math.min(127, v));
    }
    return frame;
  }

  /**
   * The table of {@code rows} frames in {@code partitions} partitions, made by the executors.
   *
   * @param spark the session
   * @param yes the "yes" features
   * @param seed the table's seed
   * @param rows how many rows (ids 0 to rows - 1)
   * @param partitions how many partitions
   * @return the table, of {@link #SCHEMA}
   */
  public static Dataset<Row> generate(
      SparkSession spark, byte[] yes, long seed, long rows, int partitions) {
    byte[] template = yes.clone();
    MapFunction<Long, Row> toRow = id -> RowFactory.create(id, frame(template, seed, id));
    return spark.range(0, rows, 1, partitions).map(toRow, Encoders.row(SCHEMA));
  }
}
