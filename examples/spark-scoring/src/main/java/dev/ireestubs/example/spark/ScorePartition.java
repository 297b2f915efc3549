package dev.ireestubs.example.spark;

import dev.ireestubs.ndarray.ByteArray;
import dev.ireestubs.ndarray.FloatArray;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Scores one partition of {@link SpeechFrames#SCHEMA} rows through the typed stub, lazily (a row is
 * scored when Spark pulls its prediction), into {@link #SCHEMA} rows: the input's key beside the
 * label and the logits.
 *
 * <p>The stub comes from {@link ExecutorBackend}: one backend per executor JVM, shared by its
 * tasks. The native input array is made once per partition and refilled for every row; it is closed
 * when the partition is done, and by a task-completion listener when the task fails or is killed
 * half-way. Each result array is closed as soon as its four logits are read.
 *
 * <p>The same function runs on any {@link ModelSource}: the host-module fake, or IREE's runtime.
 */
public final class ScorePartition implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1L;

  /** {@code id} (long), {@code label} (string), {@code logits} (array of 4 floats). */
  public static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("label", DataTypes.StringType, false)
          .add("logits", DataTypes.createArrayType(DataTypes.FloatType, false), false);

  private final ModelSource source;

  /**
   * A partition function on {@code source}'s backend.
   *
   * @param source the model and how an executor opens it
   */
  public ScorePartition(ModelSource source) {
    this.source = source;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> rows) {
    MicroSpeech speech = ExecutorBackend.stub(source);
    ByteArray input = ByteArray.zeros(1, 49, 40, 1);
    TaskContext task = TaskContext.get();
    if (task != null) {
      TaskCompletionListener close = done -> input.close(); // success, failure or kill
      task.addTaskCompletionListener(close);
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        if (rows.hasNext()) {
          return true;
        }
        input.close();
        return false;
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Row row = rows.next();
        long id = row.getLong(0);
        float[] logits = score(speech, input, id, (byte[]) row.get(1));
        return RowFactory.create(id, label(logits), logits);
      }
    };
  }

  /**
   * Scores one frame through {@code speech}, refilling {@code input}: what the partition function
   * does per row, and what a plain loop does too.
   *
   * @param speech the stub
   * @param input a 1x49x40x1 array to refill
   * @param id the row's key, for messages
   * @param features the row's frame
   * @return the four logits
   * @throws IllegalArgumentException when the frame does not have 1,960 bytes
   */
  public static float[] score(MicroSpeech speech, ByteArray input, long id, byte[] features) {
    if (features == null || features.length != MicroSpeech.FRAME_BYTES) {
      throw new IllegalArgumentException(
          "row "
              + id
              + ": features has "
              + (features == null ? "no value" : features.length + " bytes")
              + ", micro_speech takes "
              + MicroSpeech.FRAME_BYTES
              + " (1x49x40x1)");
    }
    input.copyFrom(features);
    try (FloatArray result = speech.tf2onnx(input)) {
      return result.toArray();
    }
  }

  /**
   * The label of the largest logit.
   *
   * @param logits silence, unknown, yes, no
   * @return one of {@link MicroSpeech#LABELS}
   */
  public static String label(float[] logits) {
    int best = 0;
    for (int k = 1; k < logits.length; k++) {
      if (logits[k] > logits[best]) {
        best = k;
      }
    }
    return MicroSpeech.LABELS.get(best);
  }
}
