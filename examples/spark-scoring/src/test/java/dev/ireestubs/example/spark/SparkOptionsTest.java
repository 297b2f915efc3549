package dev.ireestubs.example.spark;

import static com.google.common.truth.Truth.assertThat;

import java.lang.management.ManagementFactory;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.Test;

/**
 * The JVM options the pom gives the tests and the example's run (spark.java.options) are Spark's
 * own list for JDK 17+, the one spark-submit adds, so that upgrading Spark shows a change here.
 */
class SparkOptionsTest {

  @Test
  void theTestJvmHasSparksModuleOptions() {
    assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments())
        .containsAtLeastElementsIn(JavaModuleOptions.defaultModuleOptionArray());
  }
}
