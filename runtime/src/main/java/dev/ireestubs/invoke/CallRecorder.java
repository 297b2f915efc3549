package dev.ireestubs.invoke;

import dev.ireestubs.vm.BufferView;
import dev.ireestubs.vm.VmList;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.function.Supplier;

/**
 * How every backend iree-stubs ships reports its calls: one JFR event per call ({@value
 * CallEvent#NAME}) while a recording takes it, and the backend's {@link CallStatistics}, which
 * {@link #register} publishes as an MXBean. A backend times each call from when it takes it:
 *
 * <pre>{@code
 * long start = System.nanoTime();
 * Object event = CallRecorder.begin();             // null unless a JFR recording may take it
 * ... the call ...
 * recorder.succeeded(name, start, event, bytesIn, bytesOut, false);   // or failed(...)
 * }</pre>
 *
 * <p>Without a recording a call costs two {@code nanoTime} reads and a few uncontended adds, and
 * allocates nothing: no event object exists until JFR has been started in the process (and one is
 * kept only while a recording enables the event). The system property {@value #JFR_PROPERTY} {@code
 * =false} leaves the event out altogether (and so does a run time without the {@code jdk.jfr}
 * module).
 *
 * <p>Thread-safe.
 */
public final class CallRecorder {

  /** The system property that, set to {@code false}, turns the JFR event off for the process. */
  public static final String JFR_PROPERTY = "dev.ireestubs.jfr";

  /** The longest error text an event carries. */
  private static final int MAX_ERROR = 1_000;

  /** How deep {@link #bytes} looks into nested lists (a list may even hold itself). */
  private static final int MAX_DEPTH = 16;

  /**
   * Whether this run time has JMX at all (a jlinked image may lack {@code java.management}); kept
   * here, not in {@link StatisticsMBeans}, whose loading would fail without it.
   */
  static final boolean JMX_AVAILABLE = ModuleLayer.boot().findModule("java.management").isPresent();

  private static final boolean JFR =
      !"false".equals(System.getProperty(JFR_PROPERTY))
          && ModuleLayer.boot().findModule("jdk.jfr").isPresent();

  private final Counters counters;
  private volatile StatisticsMBeans.Registration registration;

  private CallRecorder(Counters counters) {
    this.counters = counters;
  }

  /**
   * A recorder for one backend, not registered yet.
   *
   * @param backend the backend's kind: {@code host}, {@code iree-session}, {@code iree-pool}
   * @param device the device it runs on ({@code java} for host modules)
   * @param modules the names of the modules it has loaded, read when asked; it must not hold the
   *     backend itself (the MBean server would then keep an unclosed backend from being collected)
   * @return a new recorder, every count at zero
   */
  public static CallRecorder create(String backend, String device, Supplier<List<String>> modules) {
    return new CallRecorder(
        new Counters(
            Objects.requireNonNull(backend, "backend"),
            Objects.requireNonNull(device, "device"),
            Objects.requireNonNull(modules, "modules")));
  }

  /**
   * Registers the statistics with the platform MBean server as {@code
   * dev.ireestubs:type=CallStatistics,backend=<backend>,id=<n>}, until {@link #unregister()} or
   * until {@code owner} is garbage collected. Does nothing without the {@code java.management}
   * module, and only logs when the server refuses: monitoring never stops a backend.
   *
   * @param owner the backend; only its reachability is watched
   * @return this recorder
   */
  public CallRecorder register(Object owner) {
    Objects.requireNonNull(owner, "owner");
    if (registration == null && JMX_AVAILABLE) {
      registration = StatisticsMBeans.register(counters, counters.backend, owner);
    }
    return this;
  }

  /** Removes the MXBean {@link #register} registered; does nothing when none is. */
  public void unregister() {
    StatisticsMBeans.Registration r = registration;
    registration = null;
    if (r != null) {
      r.unregister();
    }
  }

  /**
   * The name the statistics are registered under.
   *
   * @return the {@code ObjectName}'s text, or null when not registered
   */
  public String objectName() {
    StatisticsMBeans.Registration r = registration;
    return r == null ? null : r.name();
  }

  /**
   * The statistics, live.
   *
   * @return the counters this recorder adds to
   */
  public CallStatistics statistics() {
    return counters;
  }

  /**
   * The JFR event of a call that starts now, begun; null when no recording may take it (JFR not
   * started in this process, the event not enabled, or turned off by {@value #JFR_PROPERTY}).
   *
   * @return the event to pass to {@link #succeeded} or {@link #failed}, or null
   */
  public static Object begin() {
    return JFR ? Jfr.begin() : null;
  }

  /**
   * Records a call that succeeded.
   *
   * @param qualifiedName {@code module.function}
   * @param start {@link System#nanoTime()} when the backend took the call
   * @param event what {@link #begin()} returned
   * @param bytesIn {@link #bytes} of the arguments
   * @param bytesOut {@link #bytes} of the results
   * @param async whether the call was asynchronous (then it ends at its signal fence)
   */
  public void succeeded(
      String qualifiedName, long start, Object event, long bytesIn, long bytesOut, boolean async) {
    long nanos = System.nanoTime() - start;
    counters.add(nanos, bytesIn, bytesOut, false);
    if (event != null) {
      Jfr.commit(event, this, qualifiedName, async, bytesIn, bytesOut, null);
    }
  }

  /**
   * Records a call that failed.
   *
   * @param qualifiedName {@code module.function}
   * @param start {@link System#nanoTime()} when the backend took the call
   * @param event what {@link #begin()} returned
   * @param bytesIn {@link #bytes} of the arguments (0 when they were refused)
   * @param failure why it failed
   * @param async whether the call was asynchronous
   */
  public void failed(
      String qualifiedName,
      long start,
      Object event,
      long bytesIn,
      Throwable failure,
      boolean async) {
    long nanos = System.nanoTime() - start;
    counters.add(nanos, bytesIn, 0, true);
    if (event != null) {
      Jfr.commit(event, this, qualifiedName, async, bytesIn, 0, failure);
    }
  }

  /**
   * The bytes of array data in {@code list}: the byte length of every buffer view, in nested lists
   * too (16 levels deep at most).
   *
   * @param list arguments or results; null counts 0
   * @return bytes
   */
  public static long bytes(VmList list) {
    return list == null ? 0 : bytes(list, 0);
  }

  private static long bytes(VmList list, int depth) {
    long sum = 0;
    int n = list.size();
    for (int i = 0; i < n; i++) {
      Object element = list.get(i);
      if (element instanceof BufferView view) {
        sum += view.byteLength();
      } else if (element instanceof VmList nested && depth < MAX_DEPTH) {
        sum += bytes(nested, depth + 1);
      }
    }
    return sum;
  }

  @Override
  public String toString() {
    return "CallRecorder " + counters.backend + " " + counters.device;
  }

  /**
   * The counters of one backend; registered as its MXBean. A call adds to the stripe its thread's
   * id picks: its counts sit together on a line no other stripe's share, so calls on different
   * cores do not write the same cache line (as one adder per count would, each of them, with calls
   * on two cores at once), and a read sums the stripes.
   */
  private static final class Counters implements CallStatistics {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    /** A stripe's slots: calls, failures, nanoseconds, bytes in, bytes out. */
    private static final int CALLS = 0;

    private static final int FAILURES = 1;
    private static final int NANOS = 2;
    private static final int IN = 3;
    private static final int OUT = 4;

    /** Longs from one stripe to the next: 128 bytes, two cache lines (prefetchers pair lines). */
    private static final int STRIDE = 16;

    /** Stripes: four per processor, a power of two from 4 to 64. */
    private static final int STRIPES =
        Integer.highestOneBit(
            Math.max(4, Math.min(64, 4 * Runtime.getRuntime().availableProcessors()) * 2 - 1));

    final String backend;
    final String device;
    final Supplier<List<String>> modules;

    /**
     * The stripes' slots, from index {@link #STRIDE} on (the first stride keeps off the header).
     */
    private final long[] slots = new long[(STRIPES + 1) * STRIDE];

    final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

    Counters(String backend, String device, Supplier<List<String>> modules) {
      this.backend = backend;
      this.device = device;
      this.modules = modules;
    }

    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+, and we run on 17
    void add(long nanos, long in, long out, boolean failed) {
      long id = Thread.currentThread().getId();
      int stripe = (int) ((id * 0x9E3779B97F4A7C15L) >>> 40) & (STRIPES - 1);
      int at = (stripe + 1) * STRIDE;
      SLOT.getAndAdd(slots, at + CALLS, 1L);
      if (failed) {
        SLOT.getAndAdd(slots, at + FAILURES, 1L);
      }
      SLOT.getAndAdd(slots, at + NANOS, nanos);
      maxNanos.accumulate(nanos); // writes only a new maximum
      if (in != 0) {
        SLOT.getAndAdd(slots, at + IN, in);
      }
      if (out != 0) {
        SLOT.getAndAdd(slots, at + OUT, out);
      }
    }

    /** The sum of one count over the stripes. */
    private long sum(int slot) {
      long sum = 0;
      for (int stripe = 1; stripe <= STRIPES; stripe++) {
        sum += (long) SLOT.getVolatile(slots, stripe * STRIDE + slot);
      }
      return sum;
    }

    @Override
    public String getBackend() {
      return backend;
    }

    @Override
    public String getDevice() {
      return device;
    }

    @Override
    public List<String> getModules() {
      return List.copyOf(modules.get());
    }

    @Override
    public long getCalls() {
      return sum(CALLS);
    }

    @Override
    public long getFailures() {
      return sum(FAILURES);
    }

    @Override
    public long getTotalTimeNanos() {
      return sum(NANOS);
    }

    @Override
    public long getMaxTimeNanos() {
      return maxNanos.get();
    }

    @Override
    public long getBytesIn() {
      return sum(IN);
    }

    @Override
    public long getBytesOut() {
      return sum(OUT);
    }

    @Override
    public String toString() {
      return backend
          + " "
          + device
          + " "
          + getModules()
          + ": "
          + getCalls()
          + " calls, "
          + getFailures()
          + " failed, "
          + getTotalTimeNanos()
          + " ns, max "
          + getMaxTimeNanos()
          + " ns, "
          + getBytesIn()
          + " B in, "
          + getBytesOut()
          + " B out";
    }
  }

  /** The JFR side, loaded only when the {@code jdk.jfr} module is there. */
  private static final class Jfr {
    private Jfr() {}

    static Object begin() {
      if (!jdk.jfr.FlightRecorder.isInitialized()) {
        return null; // no recording has ever started: make no event at all
      }
      CallEvent event = new CallEvent();
      if (!event.isEnabled()) {
        return null;
      }
      event.begin();
      return event;
    }

    static void commit(
        Object begun,
        CallRecorder recorder,
        String qualifiedName,
        boolean async,
        long bytesIn,
        long bytesOut,
        Throwable failure) {
      CallEvent event = (CallEvent) begun;
      event.end();
      if (!event.shouldCommit()) {
        return;
      }
      int dot = qualifiedName.indexOf('.');
      event.module = dot < 0 ? "" : qualifiedName.substring(0, dot);
      event.function = qualifiedName.substring(dot + 1);
      event.backend = recorder.counters.backend;
      event.device = recorder.counters.device;
      event.async = async;
      event.bytesIn = bytesIn;
      event.bytesOut = bytesOut;
      event.outcome = failure == null ? "ok" : "failed";
      if (failure != null) {
        String text = failure.toString();
        event.error = text.length() > MAX_ERROR ? text.substring(0, MAX_ERROR) + "..." : text;
      }
      event.commit();
    }
  }
}
