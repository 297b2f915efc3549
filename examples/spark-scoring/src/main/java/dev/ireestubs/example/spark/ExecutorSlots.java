package dev.ireestubs.example.spark;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;

/**
 * How many tasks this executor JVM runs at once: its cores ({@code spark.executor.cores}, or N in a
 * local master {@code local[N]} / {@code local[N,F]}, or the machine's processors for {@code
 * local[*]} and cluster managers that give an executor the whole machine) divided by {@code
 * spark.task.cpus}. A pool of that many sessions lets every task of the JVM call the model at once,
 * and no more sessions than that are ever busy.
 */
public final class ExecutorSlots {
  private ExecutorSlots() {}

  private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\*|\\d+)(?:,\\s*\\d+)?])?");

  /**
   * The task slots of this JVM.
   *
   * @return at least 1; the machine's processors outside Spark
   */
  public static int current() {
    SparkEnv env = SparkEnv.get();
    if (env == null) {
      return Runtime.getRuntime().availableProcessors();
    }
    return of(env.conf());
  }

  /**
   * The task slots an executor with configuration {@code conf} has.
   *
   * @param conf the application's configuration
   * @return at least 1
   */
  public static int of(SparkConf conf) {
    int processors = Runtime.getRuntime().availableProcessors();
    int cores;
    if (conf.contains("spark.executor.cores")) {
      cores = conf.getInt("spark.executor.cores", 1);
    } else {
      Matcher local = LOCAL.matcher(conf.get("spark.master", ""));
      if (local.matches()) {
        String n = local.group(1);
        cores = n == null ? 1 : n.equals("*") ? processors : Integer.parseInt(n);
      } else {
        cores = processors;
      }
    }
    int perTask = Math.max(1, conf.getInt("spark.task.cpus", 1));
    return Math.max(1, cores / perTask);
  }
}
