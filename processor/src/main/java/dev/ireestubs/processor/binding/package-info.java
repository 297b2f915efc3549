/**
 * The third step, the binding: {@link dev.ireestubs.processor.binding.InterfaceBinder} matches each
 * method's Java types to the type records of the signature the sources step found, through {@code
 * dev.ireestubs.abi.JavaMapping} (the mapping the runtime uses too), reporting every mismatch on
 * its element with the fix, and assembles the stub's model. Decisions live here; no file is read
 * and no compiler type goes in or out.
 *
 * <p>Reads the declaration, the sources, the model, diagnostics and names. Not an API: public for
 * the processor only.
 */
package dev.ireestubs.processor.binding;
