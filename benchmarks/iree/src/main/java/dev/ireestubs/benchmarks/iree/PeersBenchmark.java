package dev.ireestubs.benchmarks.iree;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.ireestubs.benchmarks.iree.PeerCalls.Pattern;
import dev.ireestubs.iree.IreeLibrary;
import dev.ireestubs.iree.IreeRuntime;
import dev.ireestubs.iree.IreeSession;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link PeerCalls}' patterns under JMH, for its GC profiler ({@code -prof gc}: heap bytes per call
 * over every thread): {@code exec:exec@peers-gc}. {@link PeersBenchmarkMain} measures the CPU time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PeersBenchmark {

  @Param({
    "REUSED",
    "NEW_INPUTS",
    "NEW_INPUTS_READ",
    "NEW_INPUTS_TO_ARRAY",
    "NEW_INPUTS_BUFFER",
    "MAKE_AND_CLOSE"
  })
  public Pattern pattern;

  private IreeRuntime runtime;
  private OrtSession ort;
  private PeerCalls peers;

  @Setup(Level.Trial)
  public void setUp() throws IOException, OrtException {
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    ort = PeerCalls.ortSession(env);
    runtime = IreeRuntime.create(IreeLibrary.load());
    IreeSession session = runtime.newSession().load(IreeBenchmarkMain.module());
    peers = new PeerCalls(env, ort, session);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws OrtException {
    peers.close();
    runtime.close();
    ort.close();
  }

  @Benchmark
  public float ort() throws OrtException {
    return peers.ort(pattern);
  }

  @Benchmark
  public float stub() {
    return peers.stub(pattern);
  }
}
