package dev.ireestubs.benchmarks.iree;

import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.iree.Device;
import dev.ireestubs.iree.IreeLibrary;
import dev.ireestubs.iree.IreeRuntime;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * Native memory of eight contexts with micro_speech loaded, on local-sync: a pool of 8 ({@code
 * layout=pool}) against 8 separate sessions of one runtime ({@code layout=sessions}). One shot per
 * fresh JVM: after the library and a runtime are loaded, the memory is read (quiet: after
 * collections), the eight contexts are made and each serves calls from 8 threads at once, and the
 * memory is read again; the {@link NativeMemoryProfiler} reports the growth of the resident set
 * ({@code native.rss}, from {@code /proc/self/status}) and of what glibc's malloc has handed out
 * ({@code native.malloc}, {@code mallinfo2}: IREE's system allocator is malloc). A dry run of the
 * same layout on the same threads comes first, so that the JIT's code, the calling threads' malloc
 * arenas and IREE's one-time state are in neither reading. The shot's time is the making of the
 * eight contexts and their calls. Run by {@link ServingBenchmarkMain}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PoolMemoryBenchmark {

  /** How many contexts. */
  static final int CONTEXTS = 8;

  /** {@code pool}: one IreeSessionPool of 8; {@code sessions}: 8 IreeSessions. */
  @Param({"pool", "sessions"})
  public String layout;

  private IreeRuntime runtime;
  private ExecutorService callers;
  private final List<ModuleBackend> backends = new ArrayList<>();
  private long rssBefore;
  private long mallocBefore;

  /** The growth the last shot measured, read by the profiler in the same JVM. */
  static volatile long rssGrowth = -1;

  static volatile long mallocGrowth = -1;

  @Setup(Level.Iteration)
  public void setUp() throws Exception {
    runtime = IreeRuntime.create(IreeLibrary.load());
    callers = Executors.newFixedThreadPool(CONTEXTS);
    // A dry run of the same layout on the same threads first: the JIT's code, the callers' malloc
    // arenas and IREE's one-time state are then in place, in neither reading.
    makeAndCall();
    closeAll();
    quiet();
    rssBefore = residentSetSize();
    mallocBefore = mallocInUse();
  }

  @Benchmark
  public int eightContexts() throws Exception {
    makeAndCall();
    quiet();
    rssGrowth = residentSetSize() - rssBefore;
    mallocGrowth = mallocInUse() - mallocBefore;
    return backends.size();
  }

  private void makeAndCall() throws Exception {
    Path module = AsyncBenchmarkMain.file(Speech.FILE);
    if (layout.equals("pool")) {
      backends.add(runtime.newPool(Device.LOCAL_SYNC, CONTEXTS).load(module));
    } else {
      for (int i = 0; i < CONTEXTS; i++) {
        backends.add(runtime.newSession(Device.LOCAL_SYNC).load(module));
      }
    }
    callFromEightThreads();
  }

  private void closeAll() {
    backends.forEach(ModuleBackend::close);
    backends.clear();
  }

  /** 8 threads, each making 20 calls, all starting together (each session, or the pool). */
  private void callFromEightThreads() throws Exception {
    byte[] bytes = Files.readAllBytes(AsyncBenchmarkMain.file(Speech.YES));
    CyclicBarrier start = new CyclicBarrier(CONTEXTS);
    List<Future<?>> calls = new ArrayList<>();
    for (int t = 0; t < CONTEXTS; t++) {
      ModuleBackend backend = backends.get(backends.size() == 1 ? 0 : t);
      calls.add(
          callers.submit(
              () -> {
                Speech speech = new Iree_Speech(backend);
                try (UByteArray yes = UByteArray.zeros(1, 49, 40, 1)) {
                  for (int i = 0; i < bytes.length; i++) {
                    yes.setFlat(bytes[i] & 0xFF, i);
                  }
                  start.await();
                  for (int i = 0; i < 20; i++) {
                    try (FloatArray logits = speech.tf2onnx(yes)) {
                      if (logits.get(0, 2) < 9) {
                        throw new AssertionError("not the yes logits");
                      }
                    }
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : calls) {
      f.get();
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    closeAll();
    callers.shutdownNow();
    runtime.close();
  }

  /** Collections, so that direct buffers and unreachable arrays are freed before a reading. */
  private static void quiet() throws InterruptedException {
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(100);
    }
  }

  static long residentSetSize() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
      }
    }
    return -1;
  }

  private static final MemoryLayout MALLINFO2 =
      MemoryLayout.sequenceLayout(10, ValueLayout.JAVA_LONG);

  /** glibc's bytes in use ({@code mallinfo2}: uordblks + hblkhd), or -1 without it. */
  @SuppressWarnings("restricted")
  static long mallocInUse() {
    Linker linker = Linker.nativeLinker();
    var symbol = linker.defaultLookup().find("mallinfo2");
    if (symbol.isEmpty()) {
      return -1;
    }
    MethodHandle h =
        linker.downcallHandle(
            symbol.get(),
            FunctionDescriptor.of(MemoryLayout.structLayout(MALLINFO2.withName("fields"))));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment info = (MemorySegment) h.invokeExact((SegmentAllocator) arena);
      return info.getAtIndex(ValueLayout.JAVA_LONG, 7) + info.getAtIndex(ValueLayout.JAVA_LONG, 4);
    } catch (Throwable t) {
      return -1;
    }
  }
}
