package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/**
 * {@code 2026-08_djl-iree-engine_scale_bc17.vmfb}, a module that loads its weights from parameter
 * archives. The declaration is the module's own ({@code StubDeclarationsTest} compares it with the
 * file).
 */
@IreeModule(name = "module")
public interface Scale {
  String FILE = "vmfb/2026-08_djl-iree-engine_scale_bc17.vmfb";
  String DECLARATION = "sync func @scale(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)";

  @IreeFunction(abi = DECLARATION)
  FloatArray scale(FloatArray x);
}
