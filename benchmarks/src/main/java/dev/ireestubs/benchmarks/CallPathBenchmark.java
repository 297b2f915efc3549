package dev.ireestubs.benchmarks;

import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.ModuleBackend;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The Java side of a call, three ways over the same backend function: the generated stub, code
 * written by hand against the same API ({@link VmList}, {@link BufferView}, the array classes) with
 * no checks, and the dynamic invoker. {@code backend=raw} runs the function's body and checks
 * nothing ({@link RawBackend}), so what remains is the caller's own marshalling; {@code
 * backend=host} is a {@link HostModule}, which checks arguments and results against the signature.
 * The bodies return precomputed results, so no model runs: stub / hand-written on {@code raw} is
 * what the stub's checks cost, and {@code -prof gc} gives the bytes each way allocates per call.
 *
 * <p>{@code predict}: {@code (sdict{image: 1x224x224x3 f32, temperature: f32}) -> sdict{logits,
 * probabilities: 1x1000 f32}} (inlined); {@code add}: {@code (i32, i32) -> i32}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CallPathBenchmark {

  /** {@code raw}: a backend that checks nothing; {@code host}: a {@link HostModule}. */
  @Param({"raw", "host"})
  public String backend;

  private Model stub;
  private Model handWritten;
  private BackendFunction predictFunction;
  private BackendFunction addFunction;
  private DynamicFunction dynamicPredict;
  private DynamicFunction dynamicAdd;
  private Model.Features features;
  private Map<String, Object> featureMap;
  private int a = 2;
  private int b = 40;

  @Setup
  public void setUp() {
    ModelBackends bodies = new ModelBackends();
    ModuleBackend module =
        bodies.backend(backend.equals("raw"), List.of("predict"), List.of("add"));
    stub = new Iree_Model(module);
    predictFunction = module.function("bench.predict");
    addFunction = module.function("bench.add");
    handWritten = new HandWrittenModel(predictFunction, addFunction);
    dynamicPredict = DynamicFunction.of(predictFunction, bodies.predict);
    dynamicAdd = DynamicFunction.of(addFunction, bodies.add);
    FloatArray image = FloatArray.zeros(1, 224, 224, 3);
    features = new Model.Features(image, 1.0f);
    featureMap = Map.of("image", image, "temperature", 1.0f);
  }

  /** {@code predict} through the generated stub: pack, call, check, unpack into records. */
  @Benchmark
  public Model.Scores predictStub() {
    return stub.predict(features);
  }

  /**
   * {@code predict} marshalled by hand with the same API, checking nothing ({@link
   * HandWrittenModel}).
   */
  @Benchmark
  public Model.Scores predictHandWritten() {
    return handWritten.predict(features);
  }

  /** {@code predict} through the dynamic invoker: a map in, a map out. */
  @Benchmark
  public Object predictDynamic() {
    return dynamicPredict.call(featureMap);
  }

  /** {@code add} through the generated stub. */
  @Benchmark
  public int addStub() {
    return stub.add(a, b);
  }

  /**
   * {@code add} marshalled by hand with the same API, checking nothing ({@link HandWrittenModel}).
   */
  @Benchmark
  public int addHandWritten() {
    return handWritten.add(a, b);
  }

  /**
   * {@link #addHandWritten}'s body written into the benchmark method itself, where the JIT compiles
   * it into the measuring loop; a stub's (or a client class's) method is a call that the JIT does
   * not inline into its caller once its compiled code exceeds {@code InlineSmallCode}.
   */
  @Benchmark
  public int addHandWrittenInline() {
    VmList arguments = VmList.variant(2);
    arguments.push(VmValue.i32(a));
    arguments.push(VmValue.i32(b));
    return addFunction.invoke(arguments).getValue(0).asI32();
  }

  /** {@code add} through the dynamic invoker: boxed in, boxed out. */
  @Benchmark
  public Object addDynamic() {
    return dynamicAdd.call(a, b);
  }
}
