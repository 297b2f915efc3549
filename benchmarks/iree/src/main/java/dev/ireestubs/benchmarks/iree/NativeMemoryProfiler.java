package dev.ireestubs.benchmarks.iree;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports the growth {@link PoolMemoryBenchmark}'s shot measured (in the same forked JVM), as JMH's
 * secondary results {@code native.rss} and {@code native.malloc}, in MiB.
 */
public final class NativeMemoryProfiler implements InternalProfiler {
  @Override
  public String getDescription() {
    return "native memory growth of the contexts (RSS, glibc malloc)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    PoolMemoryBenchmark.rssGrowth = -1;
    PoolMemoryBenchmark.mallocGrowth = -1;
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    if (PoolMemoryBenchmark.rssGrowth < 0) {
      return List.of();
    }
    return List.of(
        mib("native.rss", PoolMemoryBenchmark.rssGrowth),
        mib("native.malloc", PoolMemoryBenchmark.mallocGrowth));
  }

  private static ScalarResult mib(String label, long bytes) {
    return new ScalarResult(label, bytes / 1048576.0, "MiB", AggregationPolicy.AVG);
  }
}
