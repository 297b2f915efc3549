package dev.ireestubs.processor.source;

import dev.ireestubs.processor.declaration.Declaration;
import java.util.Objects;
import java.util.Optional;

/**
 * One method whose signature the sources step found: what the binder binds.
 *
 * @param method the method as the binder binds it: as declared, or for an asynchronous method the
 *     view of it that returns the future's result type, takes no wait fence and names the
 *     asynchronous export it calls
 * @param function where the signature of the function it calls comes from
 * @param async for an asynchronous method, the future it returns and its wait fence
 */
public record MethodSource(
    Declaration.Method method, FunctionSource function, Optional<Async> async) {

  /** Checks that every part is there. */
  public MethodSource {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(async, "async");
  }

  /**
   * What an asynchronous method adds to the call: its function takes a wait and a signal fence
   * (checked).
   *
   * @param fenced true when the method returns {@code FencedFuture}, which carries the call's
   *     signal fence; false for {@code CompletableFuture}
   * @param waitParameter the name of its last parameter, the {@code Fence} the call waits for, if
   *     it has one (not among the view's parameters, which are the function's arguments)
   */
  public record Async(boolean fenced, Optional<String> waitParameter) {

    /** Checks that every part is there. */
    public Async {
      Objects.requireNonNull(waitParameter, "waitParameter");
    }
  }
}
