package dev.ireestubs.example.spark;

import dev.ireestubs.invoke.ModuleBackend;
import java.io.IOException;
import java.io.Serializable;

/**
 * How an executor opens the backend that runs the model: shipped to the executors inside the
 * partition function, and opened there at most once per JVM ({@link ExecutorBackend}).
 */
public interface ModelSource extends Serializable {

  /**
   * What this source opens, as a key: sources with the same name share one backend in a JVM.
   *
   * @return a name unique to the model and the backend's kind, e.g. {@code host:micro_speech}
   */
  String name();

  /**
   * Opens the backend, in the executor.
   *
   * @param concurrentCalls how many tasks of this JVM may call it at once (the executor's task
   *     slots): the size of a pool of sessions
   * @return a backend the stub binds to, safe to call from that many threads
   * @throws IOException when the model's file cannot be read
   */
  ModuleBackend open(int concurrentCalls) throws IOException;
}
