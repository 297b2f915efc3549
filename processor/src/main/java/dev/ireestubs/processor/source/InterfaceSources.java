package dev.ireestubs.processor.source;

import java.util.List;
import java.util.Objects;

/**
 * What the sources step found for one interface: the module its functions are looked up in at run
 * time, the source of each method's signature, and the files read.
 *
 * @param moduleName {@code @IreeModule(name)}, or for a compiled module without one the name
 *     compiled into it
 * @param methods one per method whose signature was found, in the declaration's order (a method
 *     whose signature was not found is reported, and missing here)
 * @param inputs the files read from disk, in the order read: what the stub is made from
 */
public record InterfaceSources(
    String moduleName, List<MethodSource> methods, List<ReflectionLoader.Input> inputs) {

  /** Copies the lists. */
  public InterfaceSources {
    Objects.requireNonNull(moduleName, "moduleName");
    methods = List.copyOf(methods);
    inputs = List.copyOf(inputs);
  }
}
