package dev.ireestubs.benchmarks;

import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.ndarray.FloatArray;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a call costs through a body two methods share ({@link RepeatedModel}) against the same call
 * through a method's own inline body ({@link Model}), on a backend that checks nothing ({@link
 * RawBackend}): {@code predict} and {@code add}, each alone and, for the shared body, both methods
 * in turn (one body, two functions). Run it with
 *
 * <pre>
 * mvn -q -pl benchmarks -am package -DskipTests exec:exec -Dbenchmark.args="SharedBodyBenchmark -prof gc"
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SharedBodyBenchmark {

  private Model inline;
  private RepeatedModel shared;
  private Model.Features features;
  private int a = 2;
  private int b = 40;

  @Setup
  public void setUp() {
    ModuleBackend raw =
        new ModelBackends()
            .backend(true, List.of("predict", "predictAgain"), List.of("add", "addAgain"));
    inline = new Iree_Model(raw);
    shared = new Iree_RepeatedModel(raw);
    features = new Model.Features(FloatArray.zeros(1, 224, 224, 3), 1.0f);
  }

  /** {@code predict} through its own inline body. */
  @Benchmark
  public Model.Scores predictInline() {
    return inline.predict(features);
  }

  /** {@code predict} through the body it shares with {@code predictAgain}. */
  @Benchmark
  public Model.Scores predictShared() {
    return shared.predict(features);
  }

  /** Both methods of the shared body in turn: two calls per operation. */
  @Benchmark
  public Model.Scores predictSharedByBoth() {
    shared.predict(features);
    return shared.predictAgain(features);
  }

  /** {@code add} through its own inline body. */
  @Benchmark
  public int addInline() {
    return inline.add(a, b);
  }

  /** {@code add} through the body it shares with {@code addAgain}. */
  @Benchmark
  public int addShared() {
    return shared.add(a, b);
  }

  /** Both methods of the shared body in turn: two calls per operation. */
  @Benchmark
  public int addSharedByBoth() {
    return shared.add(a, b) + shared.addAgain(b, a);
  }
}
