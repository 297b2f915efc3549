package dev.ireestubs.micrometer;

import dev.ireestubs.invoke.CallStatistics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Publishes one backend's {@link CallStatistics} (a {@code HostModule}'s, an {@code IreeSession}'s
 * or an {@code IreeSessionPool}'s {@code statistics()}) as Micrometer meters, the figures its
 * MXBean shows:
 *
 * <ul>
 *   <li>{@value #CALLS}: a function timer, the calls that ended and their total time;
 *   <li>{@value #FAILURES}: a function counter, the calls that ended with an exception;
 *   <li>{@value #MAX}: a time gauge, the longest call since the backend was made;
 *   <li>{@value #BYTES_IN}, {@value #BYTES_OUT}: function counters, the bytes of array data passed
 *       in and returned.
 * </ul>
 *
 * <p>Each is tagged {@code backend} ({@code host}, {@code iree-session}, {@code iree-pool}), {@code
 * device} and {@code modules} (the module names loaded when the binder binds, comma-separated),
 * plus the tags given. Two backends with the same modules need a tag that tells them apart (say
 * {@code Tags.of("model", "speech-a")}): Micrometer keeps one meter per name and tags.
 *
 * <pre>{@code
 * new IreeStubsMetrics(pool.statistics()).bindTo(registry);
 * }</pre>
 *
 * <p>The meters read the statistics when the registry publishes, and hold them weakly: once the
 * backend is closed and collected they report no value.
 */
public final class IreeStubsMetrics implements MeterBinder {

  /** The calls that ended, and their total time (a function timer). */
  public static final String CALLS = "ireestubs.calls";

  /** The calls that ended with an exception (a function counter). */
  public static final String FAILURES = "ireestubs.calls.failed";

  /** The longest call (a time gauge). */
  public static final String MAX = "ireestubs.calls.max";

  /** Bytes of array data passed in as arguments (a function counter). */
  public static final String BYTES_IN = "ireestubs.bytes.in";

  /** Bytes of array data returned as results (a function counter). */
  public static final String BYTES_OUT = "ireestubs.bytes.out";

  private final CallStatistics statistics;
  private final Iterable<Tag> tags;

  /**
   * A binder for {@code statistics}, tagged by backend, device and modules.
   *
   * @param statistics a backend's {@code statistics()}
   */
  public IreeStubsMetrics(CallStatistics statistics) {
    this(statistics, Tags.empty());
  }

  /**
   * A binder for {@code statistics} with {@code tags} added to backend, device and modules.
   *
   * @param statistics a backend's {@code statistics()}
   * @param tags more tags for every meter, e.g. one telling two backends of the same modules apart
   */
  public IreeStubsMetrics(CallStatistics statistics, Iterable<Tag> tags) {
    this.statistics = Objects.requireNonNull(statistics, "statistics");
    this.tags = Objects.requireNonNull(tags, "tags");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Tags all =
        Tags.of(
                "backend", statistics.getBackend(),
                "device", statistics.getDevice(),
                "modules", String.join(",", statistics.getModules()))
            .and(tags);
    FunctionTimer.builder(
            CALLS,
            statistics,
            CallStatistics::getCalls,
            CallStatistics::getTotalTimeNanos,
            TimeUnit.NANOSECONDS)
        .description("Calls through an iree-stubs backend that ended, and their time")
        .tags(all)
        .register(registry);
    FunctionCounter.builder(FAILURES, statistics, s -> s.getFailures())
        .description("Calls through an iree-stubs backend that ended with an exception")
        .tags(all)
        .register(registry);
    TimeGauge.builder(MAX, statistics, TimeUnit.NANOSECONDS, s -> s.getMaxTimeNanos())
        .description("The longest call through an iree-stubs backend")
        .tags(all)
        .register(registry);
    FunctionCounter.builder(BYTES_IN, statistics, s -> s.getBytesIn())
        .description("Bytes of array data passed to an iree-stubs backend's calls")
        .baseUnit(BaseUnits.BYTES)
        .tags(all)
        .register(registry);
    FunctionCounter.builder(BYTES_OUT, statistics, s -> s.getBytesOut())
        .description("Bytes of array data returned by an iree-stubs backend's calls")
        .baseUnit(BaseUnits.BYTES)
        .tags(all)
        .register(registry);
  }
}
