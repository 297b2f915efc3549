package dev.ireestubs.invoke;

import java.util.List;
import java.util.Optional;

/**
 * Where a stub's calls go: loaded modules whose functions can be looked up by {@code
 * module.function} and invoked with the IREE VM's native calling convention. Implemented by {@link
 * dev.ireestubs.host.HostModule} (modules written in Java, the embedded default) and by the IREE
 * runtime backend.
 *
 * <p>Closing a backend releases what it holds; functions looked up from it refuse calls afterwards.
 * Implementations document their thread safety; both shipped with iree-stubs allow concurrent
 * calls.
 */
public interface ModuleBackend extends AutoCloseable {

  /**
   * The function named {@code module.function}, if loaded.
   *
   * @param qualifiedName the module's name and the function's, joined by a dot
   * @return the function, or empty when no loaded module exports it
   */
  Optional<BackendFunction> lookup(String qualifiedName);

  /**
   * The function named {@code module.function}.
   *
   * @param qualifiedName the module's name and the function's, joined by a dot
   * @return the function, ready to be invoked
   * @throws IreeFunctionNotFoundException naming the function and listing the loaded ones
   */
  default BackendFunction function(String qualifiedName) {
    return lookup(qualifiedName)
        .orElseThrow(() -> new IreeFunctionNotFoundException(qualifiedName, functionNames()));
  }

  /**
   * The qualified names ({@code module.function}) of every exported function, sorted.
   *
   * @return every function the backend can call, by qualified name; unmodifiable
   */
  List<String> functionNames();

  /** Releases the backend; closing twice does nothing. */
  @Override
  void close();
}
