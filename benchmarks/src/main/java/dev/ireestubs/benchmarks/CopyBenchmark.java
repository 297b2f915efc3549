package dev.ireestubs.benchmarks;

import dev.ireestubs.ndarray.FloatArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Copies of a 1x224x224x3 {@code f32} image (150,528 floats, 602,112 bytes) between Java arrays and
 * {@link FloatArray}, flat and nested, into fresh and into reused memory, against bulk copies of
 * the same bytes ({@code baseline*}), and the floors of a nested array ({@code floor*}: reading its
 * rows, allocating one). Compare within one run: the ratio of a copy's time to its baseline's is
 * what matters, absolute times on a shared machine swing with its load. Run with
 *
 * <pre>
 * mvn -q -pl benchmarks -am package -DskipTests exec:exec \
 *     -Dbenchmark.args="CopyBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc"
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CopyBenchmark {

  private static final int N = 224 * 224 * 3;

  private float[] flat;
  private float[][][][] nested;
  private float[] flatOut;
  private float[][][][] nestedOut;
  private FloatArray array;
  private FloatBuffer direct;

  @Setup
  public void setUp() {
    flat = new float[N];
    for (int i = 0; i < N; i++) {
      flat[i] = i * 0.5f;
    }
    nested = new float[1][224][224][3];
    for (int i = 0; i < N; i++) {
      nested[0][i / (224 * 3)][(i / 3) % 224][i % 3] = flat[i];
    }
    flatOut = new float[N];
    nestedOut = new float[1][224][224][3];
    array = FloatArray.of(flat, 1, 224, 224, 3);
    direct = ByteBuffer.allocateDirect(N * 4).order(ByteOrder.nativeOrder()).asFloatBuffer();
  }

  // --- baselines: the same bytes copied in bulk --------------------------------------------------

  /** {@code System.arraycopy} into a reused {@code float[]}: the memory-speed reference. */
  @Benchmark
  public float[] baselineArraycopyReused() {
    System.arraycopy(flat, 0, flatOut, 0, N);
    return flatOut;
  }

  /** {@code FloatBuffer.put(float[])} into reused direct memory. */
  @Benchmark
  public FloatBuffer baselineDirectPutReused() {
    return direct.put(0, flat);
  }

  /** {@code float[].clone()}: a bulk copy into fresh heap memory. */
  @Benchmark
  public float[] baselineCloneFresh() {
    return flat.clone();
  }

  /** Allocating a fresh {@code float[1][224][224][3]}: the floor of a nested copy out. */
  @Benchmark
  public float[][][][] floorNewNested() {
    return new float[1][224][224][3];
  }

  /**
   * Reading a nested {@code float[1][224][224][3]} into a reused {@code float[]} with plain loops:
   * the floor of a nested copy in or out, since its 50,176 rows are separate objects.
   */
  @Benchmark
  public float[] floorNestedGather() {
    int k = 0;
    for (float[][][] a : nested) {
      for (float[][] b : a) {
        for (float[] row : b) {
          for (int j = 0; j < row.length; j++) {
            flatOut[k + j] = row[j];
          }
          k += row.length;
        }
      }
    }
    return flatOut;
  }

  // --- into FloatArray
  // ----------------------------------------------------------------------------

  /** A new array per copy, closed when done: its memory is freed at once. */
  @Benchmark
  public float flatInFresh() {
    try (FloatArray a = FloatArray.of(flat, 1, 224, 224, 3)) {
      return a.getFlat(0);
    }
  }

  /** A new array per copy, never closed: the memory waits for a garbage collection. */
  @Benchmark
  public float flatInFreshNotClosed() {
    FloatArray a = FloatArray.of(flat, 1, 224, 224, 3);
    return a.getFlat(0);
  }

  @Benchmark
  public float nestedInFresh() {
    try (FloatArray a = FloatArray.of(nested)) {
      return a.getFlat(0);
    }
  }

  @Benchmark
  public FloatArray flatInReused() {
    return array.copyFrom(flat);
  }

  @Benchmark
  public FloatArray nestedInReused() {
    return array.copyFrom(nested);
  }

  // --- out of FloatArray
  // --------------------------------------------------------------------------

  @Benchmark
  public float[] flatOutFresh() {
    return array.toArray();
  }

  @Benchmark
  public float[][][][] nestedOutFresh() {
    return array.toArray4D();
  }

  @Benchmark
  public float[] flatOutReused() {
    return array.copyInto(flatOut);
  }

  @Benchmark
  public float[][][][] nestedOutReused() {
    return array.copyInto(nestedOut);
  }
}
