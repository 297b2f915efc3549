package dev.ireestubs.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A deterministic single-byte mutation sweep over the compiled modules of {@code
 * ../shared/iree-reflection}: each byte of a module set to 0x00, to 0xFF, and to its value plus and
 * minus one (each distinct new value once), every result handed to a {@link Check}. A check that
 * returns is a pass; one that throws is a finding. A check that does not return within {@link
 * #STALL_MILLIS} is reported as a hang.
 *
 * <p>{@link Plan#full} visits every byte of every module, except in modules over {@link
 * Plan#LARGE_FILE} bytes, where it visits the last {@link Plan#TAIL} bytes (the ZIP directory), a
 * seeded sample of {@link Plan#HEAD_OFFSETS} offsets among the first {@link Plan#HEAD} (the ZIP
 * local header and {@code module.fb}) and of {@link Plan#MIDDLE_OFFSETS} between the two. {@link
 * Plan#sample} draws a seeded number of mutations from the same space. Both are repeatable: the
 * same corpus and seed give the same inputs in the same order.
 *
 * <p>Findings are kept as {@link Mutation} records (a corpus file, an offset, a new byte), one a
 * line in {@code vmfb-sweep-findings.txt} beside this class, so that a regression test can apply
 * them to the corpus without any {@code .vmfb} being committed.
 */
public final class ByteSweep {

  /** The corpus folders swept, in order. */
  public static final List<String> FOLDERS = List.of("vmfb", "models", "params", "hal07");

  /** How long one check may run before the sweep reports a hang. */
  public static final long STALL_MILLIS = 30_000;

  private static final String FINDINGS = "vmfb-sweep-findings.txt";

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ByteSweep() {}

  /**
   * One input: {@code file} (relative to the corpus folder, e.g. {@code vmfb/x.vmfb}) with the byte
   * at {@code offset} set to {@code value}.
   *
   * @param file the module, relative to the corpus folder, with {@code /} separators
   * @param offset the byte's offset from 0
   * @param value the new byte, 0 to 255
   */
  public record Mutation(String file, int offset, int value) {

    /** The record as a findings line: {@code file offset 0xNN}. */
    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%s %d 0x%02X", file, offset, value);
    }

    /**
     * Parses a findings line ({@code file offset 0xNN}, extra words ignored).
     *
     * @param line the line
     * @return the mutation it records
     */
    public static Mutation parse(String line) {
      String[] w = line.trim().split("\\s+");
      if (w.length < 3) {
        throw new IllegalArgumentException("not a mutation record (file offset 0xNN): " + line);
      }
      return new Mutation(w[0], Integer.parseInt(w[1]), Integer.decode(w[2]));
    }

    /**
     * The module in {@code corpus} with this byte changed.
     *
     * @param corpus the {@code iree-reflection} folder
     * @return the mutated bytes
     * @throws IOException when the file cannot be read
     */
    public byte[] apply(Path corpus) throws IOException {
      byte[] b = Files.readAllBytes(corpus.resolve(file));
      if (offset >= b.length) {
        throw new IllegalArgumentException(this + ": the file has only " + b.length + " bytes");
      }
      b[offset] = (byte) value;
      return b;
    }
  }

  /** What a sweep does with one mutated module; throwing anything is a finding. */
  @FunctionalInterface
  public interface Check {
    /**
     * Checks one input; the array is reused once this returns, so the check must not keep it.
     *
     * @param module the mutated module's bytes
     * @param mutation what was changed
     * @throws Exception a finding
     */
    void run(byte[] module, Mutation mutation) throws Exception;
  }

  /** The distinct new values of a byte: 0x00, 0xFF, +1, -1, without the original. */
  static int[] values(int original) {
    int[] candidates = {0x00, 0xFF, (original + 1) & 0xFF, (original - 1) & 0xFF};
    return Arrays.stream(candidates).filter(v -> v != original).distinct().toArray();
  }

  /** The modules of the corpus folders, sorted by path; relative names use {@code /}. */
  public static List<String> modules(Path corpus) {
    List<String> out = new ArrayList<>();
    for (String folder : FOLDERS) {
      Path dir = corpus.resolve(folder);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> files = Files.list(dir)) {
        files
            .filter(p -> p.getFileName().toString().endsWith(".vmfb"))
            .map(p -> folder + "/" + p.getFileName())
            .sorted()
            .forEach(out::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /** The findings kept as regression inputs ({@code vmfb-sweep-findings.txt}). */
  public static List<Mutation> findings() {
    try (InputStream in = ByteSweep.class.getResourceAsStream(FINDINGS)) {
      if (in == null) {
        throw new IllegalStateException(FINDINGS + " is missing from test-support");
      }
      List<Mutation> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          out.add(Mutation.parse(line));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Which mutations a sweep visits. */
  public static final class Plan {
    /** Modules over this many bytes are sampled by {@link #full}. */
    public static final int LARGE_FILE = 1 << 20;

    /** The leading bytes of a large module, where {@link #HEAD_OFFSETS} offsets are sampled. */
    public static final int HEAD = 128 * 1024;

    /** The offsets sampled among a large module's first {@link #HEAD} bytes. */
    public static final int HEAD_OFFSETS = 12 * 1024;

    /** The trailing bytes of a large module visited in full. */
    public static final int TAIL = 4 * 1024;

    /** The offsets sampled between a large module's head and tail. */
    public static final int MIDDLE_OFFSETS = 4 * 1024;

    private final long seed;
    private final int count;

    private Plan(long seed, int count) {
      this.seed = seed;
      this.count = count;
    }

    /**
     * Every byte of every module (large ones sampled, see the class comment).
     *
     * @param seed for the offsets sampled in large modules
     * @return the plan
     */
    public static Plan full(long seed) {
      return new Plan(seed, -1);
    }

    /**
     * {@code count} mutations drawn with {@code seed}: a module uniformly, then an offset and one
     * of its new values.
     *
     * @param seed the random seed
     * @param count how many mutations
     * @return the plan
     */
    public static Plan sample(long seed, int count) {
      return new Plan(seed, count);
    }

    /** The offsets {@link #full} visits in a module of {@code size} bytes, ascending. */
    int[] offsets(int size) {
      if (size <= LARGE_FILE) {
        return IntStream.range(0, size).toArray();
      }
      SplittableRandom random = new SplittableRandom(seed ^ size);
      int middle = size - HEAD - TAIL;
      return IntStream.concat(
              IntStream.concat(
                  random.ints(HEAD_OFFSETS, 0, HEAD).sorted().distinct(),
                  random.ints(MIDDLE_OFFSETS, HEAD, HEAD + middle).sorted().distinct()),
              IntStream.range(size - TAIL, size))
          .toArray();
    }

    boolean sampled() {
      return count >= 0;
    }
  }

  /** One kind of finding: its first input, and how many inputs gave it. */
  public record Finding(Mutation first, String exception, String stack, int count) {}

  /**
   * What a sweep did: the inputs checked, the time taken, and the findings by kind (an exception
   * class and the frame it was thrown from).
   *
   * @param modules how many modules were read
   * @param reads how many mutated inputs were checked
   * @param millis the wall time of the sweep
   * @param cpuMillis the CPU time of the thread that ran the checks (on a busy machine, much less
   *     than the wall time)
   * @param findings each kind of finding once
   * @param hang the input a check did not return from, or null
   */
  public record Report(
      int modules, long reads, long millis, long cpuMillis, List<Finding> findings, Mutation hang) {

    /** Whether every check returned. */
    public boolean clean() {
      return findings.isEmpty() && hang == null;
    }

    /** A summary and every finding with its record line and stack trace. */
    public String describe() {
      StringBuilder sb =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "%,d single-byte mutations of %d modules checked in %.1f s (%.1f s of CPU,"
                      + " %.0f us of CPU per read), %d kinds of finding",
                  reads,
                  modules,
                  millis / 1000.0,
                  cpuMillis / 1000.0,
                  cpuMillis * 1000.0 / Math.max(1, reads),
                  findings.size()));
      if (hang != null) {
        sb.append("\nHANG: no result after ").append(STALL_MILLIS).append(" ms: ").append(hang);
      }
      for (Finding f : findings) {
        sb.append(
            String.format(
                Locale.ROOT,
                "%nFINDING (%,d inputs): %s%n  first input: %s%n%s",
                f.count(),
                f.exception(),
                f.first(),
                f.stack()));
      }
      return sb.toString();
    }
  }

  /**
   * Runs {@code check} over the mutations of {@code plan}; reads {@code corpus} on the calling
   * thread and checks on a worker thread, which is left behind (a daemon) if it hangs.
   *
   * @param corpus the {@code iree-reflection} folder
   * @param plan which mutations
   * @param check what each mutated module must pass
   * @param progress where a line goes after each module of a full sweep; null for none
   * @return what happened
   * @throws InterruptedException when interrupted while waiting for the worker
   */
  public static Report run(Path corpus, Plan plan, Check check, PrintStream progress)
      throws InterruptedException {
    Objects.requireNonNull(check, "check");
    List<String> modules = modules(corpus);
    Map<String, byte[]> bytes = new LinkedHashMap<>();
    for (String m : modules) {
      try {
        bytes.put(m, Files.readAllBytes(corpus.resolve(m)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Worker worker = new Worker(plan, bytes, check, progress);
    Thread thread = new Thread(worker, "byte-sweep");
    thread.setDaemon(true);
    long start = System.nanoTime();
    thread.start();
    Mutation hang = null;
    while (true) {
      thread.join(1000);
      if (!thread.isAlive()) {
        break;
      }
      Worker.Progress p = worker.progress;
      if (p != null && System.nanoTime() - p.startNanos > STALL_MILLIS * 1_000_000L) {
        hang = p.mutation;
        worker.stop = true;
        break;
      }
    }
    if (worker.failure != null) {
      throw new IllegalStateException("the sweep itself failed", worker.failure);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    long cpuMillis = worker.cpuNanos / 1_000_000;
    if (hang != null) {
      cpuMillis = THREADS.getThreadCpuTime(thread.getId()) / 1_000_000;
    }
    return new Report(
        modules.size(),
        worker.reads.get(),
        millis,
        cpuMillis,
        List.copyOf(worker.findings.values()),
        hang);
  }

  private static final class Worker implements Runnable {
    record Progress(Mutation mutation, long startNanos) {}

    private final Plan plan;
    private final Map<String, byte[]> modules;
    private final Check check;
    private final PrintStream out;
    private final long start = System.nanoTime();
    private final Map<String, Finding> findings = new LinkedHashMap<>();
    volatile Progress progress;
    volatile boolean stop;
    final AtomicLong reads = new AtomicLong();
    volatile Throwable failure;
    volatile long cpuNanos;

    Worker(Plan plan, Map<String, byte[]> modules, Check check, PrintStream out) {
      this.plan = plan;
      this.modules = modules;
      this.check = check;
      this.out = out;
    }

    @Override
    public void run() {
      try {
        if (plan.sampled()) {
          sample();
        } else {
          full();
        }
      } catch (Throwable t) {
        failure = t;
      }
      cpuNanos = THREADS.getCurrentThreadCpuTime();
    }

    private void full() {
      for (Map.Entry<String, byte[]> m : modules.entrySet()) {
        byte[] b = m.getValue();
        for (int offset : plan.offsets(b.length)) {
          int original = b[offset] & 0xFF;
          for (int v : values(original)) {
            if (stop) {
              return;
            }
            one(m.getKey(), b, offset, v);
          }
          b[offset] = (byte) original;
        }
        if (out != null) {
          out.printf(
              Locale.ROOT,
              "%-90s %,10d reads so far, %6.0f s, %d kinds of finding%n",
              m.getKey(),
              reads.get(),
              (System.nanoTime() - start) / 1e9,
              findings.size());
        }
      }
    }

    private void sample() {
      SplittableRandom random = new SplittableRandom(plan.seed);
      List<String> names = new ArrayList<>(modules.keySet());
      for (int i = 0; i < plan.count && !stop; i++) {
        String name = names.get(random.nextInt(names.size()));
        byte[] b = modules.get(name);
        int offset = random.nextInt(b.length);
        int original = b[offset] & 0xFF;
        int[] values = values(original);
        one(name, b, offset, values[random.nextInt(values.length)]);
        b[offset] = (byte) original;
      }
    }

    private void one(String name, byte[] b, int offset, int value) {
      Mutation m = new Mutation(name, offset, value);
      b[offset] = (byte) value;
      progress = new Progress(m, System.nanoTime());
      try {
        check.run(b, m);
      } catch (Throwable t) {
        record(m, t);
      }
      reads.incrementAndGet();
    }

    private void record(Mutation m, Throwable t) {
      StackTraceElement at = t.getStackTrace().length > 0 ? t.getStackTrace()[0] : null;
      String key = t.getClass().getName() + " at " + at;
      Finding f = findings.get(key);
      if (f == null) {
        StringWriter trace = new StringWriter();
        t.printStackTrace(new PrintWriter(trace));
        findings.put(key, new Finding(m, t.toString(), trace.toString(), 1));
      } else {
        findings.put(key, new Finding(f.first(), f.exception(), f.stack(), f.count() + 1));
      }
    }
  }
}
