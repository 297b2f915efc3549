package dev.ireestubs.iree;

import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.ndarray.UByteArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Run in a process of its own by {@link CloseFaultsIntegrationTest}: opens a session on local-task
 * with micro_speech, submits 24 asynchronous calls and ends the JVM at once, with {@code
 * System.exit(0)} ({@code exit}), by returning from {@code main} ({@code return}: the fence waiter
 * is a daemon thread), or after {@code close(Duration.ZERO)} ({@code close-then-exit}).
 *
 * <p>Arguments: the module, the "yes" features, and how to end.
 */
final class ExitWithCallsInFlight {
  private ExitWithCallsInFlight() {}

  public static void main(String[] args) throws Exception {
    Path module = Path.of(args[0]);
    byte[] features = Files.readAllBytes(Path.of(args[1]));
    String how = args[2];
    IreeRuntime runtime = IreeRuntime.create();
    IreeSession session = runtime.newSession(Device.LOCAL_TASK).load(module);
    UByteArray yes = UByteArray.zeros(1, 49, 40, 1);
    for (int i = 0; i < features.length; i++) {
      yes.setFlat(features[i] & 0xFF, i);
    }
    DynamicFunction f = DynamicFunction.of(session.function("module.tf2onnx$async"));
    for (int i = 0; i < 24; i++) {
      f.callAsync(yes);
    }
    System.out.println("submitted 24 calls");
    System.out.flush();
    switch (how) {
      case "exit" -> System.exit(0);
      case "return" -> {}
      case "close-then-exit" -> {
        session.close(Duration.ZERO);
        System.exit(0);
      }
      default -> throw new IllegalArgumentException(how);
    }
  }
}
