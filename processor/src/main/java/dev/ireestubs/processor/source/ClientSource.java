package dev.ireestubs.processor.source;

import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.vmfb.VmfbModule;
import java.util.Map;

/**
 * The module an {@code @IreeClient} names, read by {@link ClientSources}: what derive mode derives.
 */
public sealed interface ClientSource {

  /** A compiled module, as the {@code .vmfb} reader read it. */
  record Compiled(VmfbModule module) implements ClientSource {}

  /** An {@code iree.abi} JSON module file: each function's signature, by name, in file order. */
  record Json(Map<String, FunctionSignature> functions) implements ClientSource {}
}
