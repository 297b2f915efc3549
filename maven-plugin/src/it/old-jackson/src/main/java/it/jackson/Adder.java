package it.jackson;

import dev.ireestubs.annotations.IreeModule;
import dev.ireestubs.ndarray.FloatArray;

/** Checked at compile time against adder.abi.json, read with the runtime's own Jackson. */
@IreeModule(name = "module", abi = "adder.abi.json")
public interface Adder {
  FloatArray add(FloatArray a, FloatArray b);
}
