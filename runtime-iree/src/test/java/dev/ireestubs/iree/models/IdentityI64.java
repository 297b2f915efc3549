package dev.ireestubs.iree.models;

import dev.ireestubs.annotations.IreeFunction;
import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.LongArray;

/** {@code 2026-03_elodin_identity_i64_x86_64_bc17.vmfb}. */
@IreeModule(name = "module")
public interface IdentityI64 {
  String FILE = "vmfb/2026-03_elodin_identity_i64_x86_64_bc17.vmfb";
  String DECLARATION =
      "sync func @identity_i64(%input0: tensor<4xi64>) -> (%output0: tensor<4xi64>)";

  @IreeFunction(value = "identity_i64", abi = DECLARATION)
  LongArray identity(LongArray values);
}
