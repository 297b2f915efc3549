/**
 * Derive mode: the whole Java interface of a module, from its compiled {@code .vmfb} or its {@code
 * iree.abi} JSON file, with deterministic Java names. {@link dev.ireestubs.derive.ClientDeriver}
 * decides it, {@link dev.ireestubs.derive.InterfaceWriter} prints it; the annotation processor
 * ({@code @IreeClient}) and the cli ({@code inspect}) are thin front ends over the two.
 *
 * <p>Used at build time only; generated stubs never call it.
 */
package dev.ireestubs.derive;
