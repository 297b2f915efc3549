package dev.ireestubs.micrometer;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.host.HostModule;
import dev.ireestubs.invoke.IreeInvocationException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.vm.VmList;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The binder publishes what a backend's statistics say, tagged, through a real registry. */
class IreeStubsMetricsTest {

  private static HostModule module(String name) {
    return HostModule.builder(name)
        .valueFunction(
            "scale",
            AbiJson.parseFunction(
                "{\"a\":[[\"ndarray\",\"f32\",1,4]],\"r\":[[\"ndarray\",\"f32\",1,4]],\"v\":1}"),
            args -> {
              FloatArray x = (FloatArray) args.get(0);
              if (x.getFlat(0) < 0) {
                throw new IllegalArgumentException("negative");
              }
              return x;
            })
        .build();
  }

  private static VmList args(float first) {
    return VmList.of(FloatArray.of(new float[] {first, 2, 3, 4}, 4).asBufferView());
  }

  @Test
  void theMetersShowTheBackendsStatistics() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HostModule m = module("speech")) {
      new IreeStubsMetrics(m.statistics(), Tags.of("model", "a")).bindTo(registry);
      m.function("speech.scale").invoke(args(1)).close();
      m.function("speech.scale").invoke(args(2)).close();
      assertThrows(
          IreeInvocationException.class, () -> m.function("speech.scale").invoke(args(-1)));

      Tags tags = Tags.of("backend", "host", "device", "java", "modules", "speech", "model", "a");
      FunctionTimer calls = registry.get(IreeStubsMetrics.CALLS).tags(tags).functionTimer();
      assertThat(calls.count()).isEqualTo(3.0);
      // Micrometer converts through seconds: equal to a nanosecond.
      assertThat(calls.totalTime(TimeUnit.NANOSECONDS))
          .isWithin(1.0)
          .of(m.statistics().getTotalTimeNanos());
      FunctionCounter failures =
          registry.get(IreeStubsMetrics.FAILURES).tags(tags).functionCounter();
      assertThat(failures.count()).isEqualTo(1.0);
      TimeGauge max = registry.get(IreeStubsMetrics.MAX).tags(tags).timeGauge();
      assertThat(max.value(TimeUnit.NANOSECONDS))
          .isWithin(1.0)
          .of(m.statistics().getMaxTimeNanos());
      assertThat(registry.get(IreeStubsMetrics.BYTES_IN).tags(tags).functionCounter().count())
          .isEqualTo(48.0);
      FunctionCounter out = registry.get(IreeStubsMetrics.BYTES_OUT).tags(tags).functionCounter();
      assertThat(out.count()).isEqualTo(32.0);
      assertThat(out.getId().getBaseUnit()).isEqualTo("bytes");
    }
  }

  @Test
  void twoBackendsOfTheSameModulesAreToldApartByATag() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HostModule a = module("speech");
        HostModule b = module("speech")) {
      new IreeStubsMetrics(a.statistics(), Tags.of("replica", "a")).bindTo(registry);
      new IreeStubsMetrics(b.statistics(), Tags.of("replica", "b")).bindTo(registry);
      a.function("speech.scale").invoke(args(1)).close();
      assertThat(registry.get(IreeStubsMetrics.CALLS).tag("replica", "a").functionTimer().count())
          .isEqualTo(1.0);
      assertThat(registry.get(IreeStubsMetrics.CALLS).tag("replica", "b").functionTimer().count())
          .isEqualTo(0.0);
    }
  }
}
