package dev.ireestubs.example.spark;

import static com.google.common.truth.Truth.assertThat;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class ExecutorSlotsTest {
  private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

  private static int slots(String... settings) {
    SparkConf conf = new SparkConf(false);
    for (int i = 0; i < settings.length; i += 2) {
      conf.set(settings[i], settings[i + 1]);
    }
    return ExecutorSlots.of(conf);
  }

  @Test
  void localMastersGiveTheirThreads() {
    assertThat(slots("spark.master", "local")).isEqualTo(1);
    assertThat(slots("spark.master", "local[2]")).isEqualTo(2);
    assertThat(slots("spark.master", "local[3,2]")).isEqualTo(3);
    assertThat(slots("spark.master", "local[*]")).isEqualTo(PROCESSORS);
  }

  @Test
  void executorCoresAreSharedByTaskCpus() {
    assertThat(slots("spark.master", "yarn", "spark.executor.cores", "4")).isEqualTo(4);
    assertThat(slots("spark.executor.cores", "4", "spark.task.cpus", "2")).isEqualTo(2);
    assertThat(slots("spark.executor.cores", "1", "spark.task.cpus", "2")).isEqualTo(1);
  }

  @Test
  void withoutExecutorCoresAnExecutorHasTheMachine() {
    assertThat(slots("spark.master", "spark://host:7077")).isEqualTo(PROCESSORS);
  }
}
