/**
 * Derive mode, the step before the declaration: for {@code @IreeClient} on a package, {@link
 * dev.ireestubs.processor.derivation.ClientDerivation} loads the module (through the sources
 * step's loader), has runtime-support's {@code ClientDeriver} derive its interface, and writes it
 * annotated {@code @IreeModule}; the next round checks it through the steps like any interface.
 *
 * <p>Reads the declaration (its annotations), the sources (the loader) and diagnostics. Not an API:
 * public for the processor only.
 */
package dev.ireestubs.processor.derivation;
