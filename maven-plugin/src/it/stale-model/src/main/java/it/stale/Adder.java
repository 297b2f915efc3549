package it.stale;

import dev.ireestubs.annotations.IreeModule;

/** Checked against models/adder.abi.json, which the second build replaces. */
@IreeModule(name = "module", abi = "adder.abi.json")
public interface Adder {
  int add(int a, int b);
}
