package dev.ireestubs.example.spark;

import dev.ireestubs.invoke.ModuleBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One backend per model per executor JVM, shared by every task that JVM runs: opened by the first
 * task that needs it (sized to the executor's task slots, {@link ExecutorSlots}), kept across
 * tasks, stages and jobs, and closed when the JVM ends (a shutdown hook: an executor's JVM exits
 * when its application ends or the executor is removed). Opening a model per task would load it,
 * and make its sessions, once per partition; per JVM it is once.
 *
 * <p>The stub bound to the backend is kept with it: a stub holds no state, so every task of the JVM
 * calls the same one.
 */
public final class ExecutorBackend {
  private ExecutorBackend() {}

  /** A backend and the stub bound to it. */
  private record Opened(ModuleBackend backend, MicroSpeech stub) {}

  private static final Map<String, Opened> OPEN = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> OPENS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> CLOSES = new ConcurrentHashMap<>();
  private static final AtomicBoolean HOOKED = new AtomicBoolean();

  /**
   * The stub on this JVM's backend for {@code source}, opening the backend on first use (other
   * tasks asking meanwhile wait for it). A failed open is not kept: the next task tries again.
   *
   * @param source the model and how to open it
   * @return the JVM's stub for it
   * @throws UncheckedIOException when the model's file cannot be read
   */
  public static MicroSpeech stub(ModelSource source) {
    return OPEN.computeIfAbsent(source.name(), name -> open(source)).stub();
  }

  private static Opened open(ModelSource source) {
    if (HOOKED.compareAndSet(false, true)) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(ExecutorBackend::closeAll, "iree-stubs-executor-backends"));
    }
    ModuleBackend backend;
    try {
      backend = source.open(ExecutorSlots.current());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open " + source.name(), e);
    }
    try {
      MicroSpeech stub = new Iree_MicroSpeech(backend); // checks the stub against the module
      OPENS.computeIfAbsent(source.name(), k -> new AtomicInteger()).incrementAndGet();
      return new Opened(backend, stub);
    } catch (RuntimeException e) {
      backend.close();
      throw e;
    }
  }

  /**
   * Closes every backend of this JVM (the shutdown hook does it at the JVM's end); a later {@link
   * #stub} opens a new one.
   */
  public static void closeAll() {
    for (String name : List.copyOf(OPEN.keySet())) {
      Opened opened = OPEN.remove(name);
      if (opened != null) {
        opened.backend().close();
        CLOSES.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
      }
    }
  }

  /**
   * How many times this JVM opened a backend for {@code name}.
   *
   * @param name a {@link ModelSource#name()}
   * @return the count, 0 when never
   */
  public static int opens(String name) {
    AtomicInteger n = OPENS.get(name);
    return n == null ? 0 : n.get();
  }

  /**
   * How many times this JVM closed a backend for {@code name}.
   *
   * @param name a {@link ModelSource#name()}
   * @return the count, 0 when never
   */
  public static int closes(String name) {
    AtomicInteger n = CLOSES.get(name);
    return n == null ? 0 : n.get();
  }

  /**
   * The backend open for {@code name} in this JVM, if any (for statistics: {@code
   * backend.statistics()}).
   *
   * @param name a {@link ModelSource#name()}
   * @return the backend, or null when none is open
   */
  public static ModuleBackend backend(String name) {
    Opened opened = OPEN.get(name);
    return opened == null ? null : opened.backend();
  }
}
