package dev.ireestubs.benchmarks;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.internal.Marshal;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The cost of the Java side of a call, with a host module whose function returns precomputed
 * results (so what is measured is marshalling and checking, not a model): a generated stub against
 * the dynamic invoker, and a typed array (no copy) against a Java array (copied) for a 224x224x3
 * image.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CallPathBenchmark {

  private static final AbiType.NdArray IMAGE =
      new AbiType.NdArray(ElementType.F32, Shape.of(1, 224, 224, 3));

  private Scorer stub;
  private DynamicFunction dynamic;
  private Scorer.Features features;
  private Map<String, Object> featureMap;
  private float[][][][] javaImage;

  @Setup
  public void setUp() {
    FunctionSignature signature = AbiJson.parseFunction(Scorer.ABI);
    BufferView logits = FloatArray.zeros(1, 1000).asBufferView();
    HostModule module =
        HostModule.builder("bench")
            .function("score", signature, args -> VmList.of(logits, VmValue.i32(7)))
            .build();
    stub = new Iree_Scorer(module);
    dynamic = DynamicFunction.of(module.function("bench.score"), signature);
    FloatArray image = FloatArray.zeros(1, 224, 224, 3);
    features = new Scorer.Features(image, 1.0f);
    featureMap = Map.of("image", image, "temperature", 1.0f);
    javaImage = new float[1][224][224][3];
  }

  /** A whole call through the generated stub: pack, host-module checks, unpack into records. */
  @Benchmark
  public Scorer.Scores generatedStub() {
    return stub.score(features);
  }

  /** The same call through the dynamic invoker (maps in, maps out). */
  @Benchmark
  public Object dynamicInvoker() {
    return dynamic.call(List.of(featureMap), Map.of());
  }

  /** Passing a typed array: checks, then shares its memory. */
  @Benchmark
  public BufferView typedArrayArgument() {
    return Marshal.array(features.image(), IMAGE, "score: features.image");
  }

  /** Passing a Java array: copied into direct memory first (602 KB). */
  @Benchmark
  public BufferView javaArrayArgument() {
    return Marshal.array(
        Marshal.copy(javaImage, FloatArray::of, IMAGE, "score: features.image"),
        IMAGE,
        "score: features.image");
  }
}
