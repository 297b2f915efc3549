package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** {@code 2026-03_elodin_matmul_x86_64_bc17.vmfb}, with typed arrays (shared, not copied). */
@IreeModule(name = "module")
public interface MatmulArrays {
  String FILE = Matmul.FILE;

  @IreeFunction(abi = Matmul.DECLARATION)
  FloatArray matmul(FloatArray a, FloatArray b);
}
