package dev.ireestubs.invoke;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where a stub's calls go: loaded modules whose functions can be looked up by {@code
 * module.function} and invoked with the IREE VM's native calling convention. Implemented by {@link
 * dev.ireestubs.host.HostModule} (modules written in Java, the embedded default) and by the IREE
 * runtime backend.
 *
 * <p>A function is named {@code module.function}, or by its function name alone when exactly one
 * loaded module exports a function of that name ({@code tf2onnx} for {@code module.tf2onnx}, as
 * {@code iree-run-module --function=tf2onnx} accepts it): {@link #qualify} is that rule, which
 * every implementation's {@link #lookup} follows.
 *
 * <p>Closing a backend releases what it holds; functions looked up from it refuse calls afterwards.
 * Implementations document their thread safety; both shipped with iree-stubs allow concurrent
 * calls.
 */
public interface ModuleBackend extends AutoCloseable {

  /**
   * The function named {@code module.function}, or {@code function} alone when one loaded module
   * exports it, if loaded.
   *
   * @param name the module's name and the function's, joined by a dot; or the function's name alone
   * @return the function, or empty when no loaded module exports it (or, for a name alone, when
   *     several do)
   */
  Optional<BackendFunction> lookup(String name);

  /**
   * The function named {@code module.function}, or {@code function} alone when one loaded module
   * exports it.
   *
   * @param name the module's name and the function's, joined by a dot; or the function's name alone
   * @return the function, ready to be invoked
   * @throws IreeFunctionNotFoundException naming the function and listing the loaded ones, or the
   *     modules that export a name given alone when there are several
   */
  default BackendFunction function(String name) {
    return lookup(name)
        .orElseThrow(
            () -> {
              List<String> loaded = functionNames();
              List<String> exporting = exporters(name, loaded);
              return exporting.size() > 1
                  ? IreeFunctionNotFoundException.ambiguous(name, exporting)
                  : new IreeFunctionNotFoundException(name, loaded);
            });
  }

  /**
   * The qualified name a lookup by {@code name} means: {@code name} itself when it is qualified
   * ({@code module.function}) or names no single function; the one loaded {@code module.name} when
   * {@code name} is a function's name alone and exactly one module exports it.
   *
   * @param name the name looked up
   * @param functionNames the backend's qualified function names
   * @return the qualified name to look up
   */
  static String qualify(String name, Collection<String> functionNames) {
    List<String> exporting = exporters(name, functionNames);
    return exporting.size() == 1 ? exporting.get(0) : name;
  }

  /**
   * The qualified names that a function's name given alone could mean; none for a qualified one.
   */
  private static List<String> exporters(String name, Collection<String> functionNames) {
    if (name.indexOf('.') >= 0) {
      return List.of();
    }
    String suffix = "." + name;
    return functionNames.stream()
        .filter(n -> n.endsWith(suffix) && n.indexOf('.') == n.length() - suffix.length())
        .sorted()
        .collect(Collectors.toList());
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
