package dev.ireestubs.benchmarks;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.invoke.AbiValues;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a {@link dev.ireestubs.host.HostModule} adds to every call of {@code predict} ({@link
 * Model#PREDICT_ABI}): checking a valid argument list and a valid result list against the
 * signature, on lists built once. A valid call should cost a few tens of nanoseconds and allocate
 * nothing; messages are built only when a check fails.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HostCheckBenchmark {

  private FunctionSignature signature;
  private VmList arguments;
  private VmList results;

  @Setup
  public void setUp() {
    signature = AbiJson.parseFunction(Model.PREDICT_ABI);
    VmList features = VmList.variant(2);
    features.push(FloatArray.zeros(1, 224, 224, 3).asBufferView());
    features.push(VmValue.f32(1.0f));
    arguments = VmList.of(features);
    BufferView logits = FloatArray.zeros(1, 1000).asBufferView();
    results = VmList.of(logits, FloatArray.zeros(1, 1000).asBufferView());
  }

  /** The checks a host module runs on {@code predict}'s arguments and results. */
  @Benchmark
  public VmList predictChecks() {
    AbiValues.checkArguments(signature, arguments, "predict");
    AbiValues.checkResults(signature, results, "predict");
    return results;
  }
}
