/**
 * Derive mode's last step, for {@code @IreeClient} on a package: after the declaration step read
 * the annotation ({@code ClientReader}) and the sources step its module ({@code ClientSources}),
 * {@link dev.ireestubs.processor.derivation.ClientDerivation} has iree-stubs-derive's {@code
 * ClientDeriver} derive the module's interface and writes it annotated {@code @IreeModule}; the
 * next round checks it through the steps like any interface.
 *
 * <p>Reads the declaration, the sources and diagnostics. Not an API: public for the processor only.
 */
package dev.ireestubs.processor.derivation;
