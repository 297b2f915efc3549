package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.invoke.BackendFunction;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.iree.IreeLibrary;
import dev.ireestubs.iree.IreeRuntime;
import dev.ireestubs.iree.IreeSession;
import dev.ireestubs.iree.Segments;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One call of {@code module.add} (two {@code tensor<4xf32>} in, one out) on IREE's runtime, on
 * local-sync, with the inputs {@code iree-benchmark-module} is given ({@code 1,2,3,4} and {@code
 * 10,20,30,40}): through the generated stub, through {@link DynamicFunction}, and through the
 * backend function with prebuilt buffer views; and the loop a caller who owns native memory writes
 * ({@link #stubSegments}). Each call includes reading the result. Run by {@link IreeBenchmarkMain},
 * which needs a runtime library and the module.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IreeCallBenchmark {

  private IreeRuntime runtime;
  private IreeSession session;
  private Adder stub;
  private DynamicFunction dynamic;
  private BackendFunction backend;
  private FloatArray a;
  private FloatArray b;
  private VmList arguments;
  private Arena arena;
  private float[] frame;
  private final float[] frameB = {10, 20, 30, 40};
  private MemorySegment frameIn;
  private MemorySegment out;
  private FloatArray frameArray;
  private FloatArray biasArray;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Path module = IreeBenchmarkMain.module();
    runtime = IreeRuntime.create(IreeLibrary.load());
    session = runtime.newSession().load(module);
    stub = new Iree_Adder(session);
    backend = session.function("module.add");
    dynamic =
        DynamicFunction.of(
            backend,
            Reflection.resolve(backend.reflection(), backend.callingConvention()).signature());
    a = FloatArray.of(new float[] {1, 2, 3, 4}, 4);
    b = FloatArray.of(new float[] {10, 20, 30, 40}, 4);
    BufferView viewA = a.asBufferView();
    BufferView viewB = b.asBufferView();
    arguments = VmList.of(viewA, viewB);
    arena = Arena.ofShared();
    frame = new float[] {1, 2, 3, 4};
    frameIn = Segments.allocate(arena, ElementType.F32, 4);
    MemorySegment bias = Segments.allocate(arena, ElementType.F32, 4);
    MemorySegment.copy(new float[] {10, 20, 30, 40}, 0, bias, ValueLayout.JAVA_FLOAT, 0, 4);
    out = arena.allocate(16);
    frameArray = Segments.wrap(frameIn, ElementType.F32, FloatArray.class, 4);
    biasArray = Segments.wrap(bias, ElementType.F32, FloatArray.class, 4);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    runtime.close();
    arena.close();
  }

  /** A whole call through the generated stub: checks, call, the result as a FloatArray. */
  @Benchmark
  public FloatArray stub() {
    return stub.add(a, b);
  }

  /**
   * The stub with inputs in new arrays each call (the memory is new, so nothing the session kept
   * from an earlier call applies): includes making the two arrays.
   */
  @Benchmark
  public FloatArray stubNewArrays() {
    return stub.add(
        FloatArray.of(new float[] {1, 2, 3, 4}, 4), FloatArray.of(new float[] {10, 20, 30, 40}, 4));
  }

  /**
   * The stub with Java arrays ({@code float[]}): each call copies them into native memory, which
   * IREE imports, and the result out into a new {@code float[]}.
   */
  @Benchmark
  public float[] stubJavaArrays() {
    return stub.addArrays(frame, frameB);
  }

  /** The same call through the dynamic invoker, driven by the module's reflection. */
  @Benchmark
  public Object dynamic() {
    return dynamic.call(a, b);
  }

  /** The backend alone: prebuilt argument list in, result list out (closed). */
  @Benchmark
  public float backend() {
    try (VmList results = backend.invoke(arguments)) {
      return results.getBufferView(0).data().getFloat(0);
    }
  }

  /**
   * A frame loop in memory the caller owns: the frame (a {@code float[]}) copied into a reused
   * native segment, the stub called on arrays over the segments ({@link Segments#wrap}, made once),
   * and the result copied into a reused segment ({@link Segments#copyInto}).
   */
  @Benchmark
  public float stubSegments() {
    MemorySegment.copy(frame, 0, frameIn, ValueLayout.JAVA_FLOAT, 0, frame.length);
    Segments.copyInto(stub.add(frameArray, biasArray), out);
    return out.get(ValueLayout.JAVA_FLOAT, 0);
  }
}
