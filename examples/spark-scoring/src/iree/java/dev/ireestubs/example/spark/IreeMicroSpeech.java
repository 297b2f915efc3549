package dev.ireestubs.example.spark;

import dev.ireestubs.invoke.ModuleBackend;
import dev.ireestubs.iree.IreeBackend;
import dev.ireestubs.iree.IreeSessionPool;
import java.io.IOException;

/**
 * micro_speech on IREE's runtime (JDK 22+): a pool of sessions over the real module, one session
 * per task slot of the executor (local-sync: a call runs on its task's thread), so that every task
 * of the JVM calls at once and none waits for another's session. IREE's library is found as
 * runtime-iree finds it (the native jar on the class path, {@code -Diree.runtime.library}, {@code
 * IREE_RUNTIME_LIBRARY}, or where its build script installs it).
 *
 * @param vmfb the module's file (a path, or a name shipped with {@code --files})
 */
public record IreeMicroSpeech(String vmfb) implements ModelSource {

  @Override
  public String name() {
    return "iree:" + vmfb;
  }

  @Override
  public ModuleBackend open(int concurrentCalls) throws IOException {
    int sessions = Math.min(concurrentCalls, IreeSessionPool.MAX_SIZE);
    return IreeBackend.openPool(ModelFiles.resolve(vmfb), IreeBackend.Options.defaults(), sessions);
  }
}
