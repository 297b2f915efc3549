/**
 * Diagnostics: where they go and how they read. {@link
 * dev.ireestubs.processor.diagnostics.Reporter} collects one interface's diagnostics (never thrown,
 * printed once the interface is not deferred), each starting with a stable {@link
 * dev.ireestubs.processor.diagnostics.Tag} and placed at a {@link
 * dev.ireestubs.processor.diagnostics.Location}, opaque to all but the steps that read the
 * compiler's elements ({@link dev.ireestubs.processor.diagnostics.ElementLocation}); {@link
 * dev.ireestubs.processor.diagnostics.Messages} keeps quoted metadata to a readable size; {@link
 * dev.ireestubs.processor.diagnostics.SourceFiles} says which elements have lines to show.
 *
 * <p>Reads no other package of the processor; the declaration, source, binding and derivation steps
 * and the processor read it. Not an API: public for the processor's other packages only.
 */
package dev.ireestubs.processor.diagnostics;
