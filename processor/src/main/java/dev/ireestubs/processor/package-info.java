/**
 * The iree-stubs annotation processor: {@link dev.ireestubs.processor.IreeStubsProcessor}, the
 * class builds name, and a thin shell that runs the steps below in order on every {@code
 * IreeModule} interface.
 *
 * <p>Each step is a package that reads only the steps before it (the layering is checked by {@code
 * ArchitectureTest} in this package's tests, which lists what each package may read):
 *
 * <pre>
 * derivation   @IreeClient on a package: a module's interface derived and written
 * declaration  the interface read once into plain values
 * source       the reflection it names read; each method's signature found
 * binding      Java types matched to type records, every mismatch reported -> model
 * model        the stub's immutable model: one CallPlan per method
 * writing      the model written as the stub's code
 * printing     Java source printed from plain values (imports chosen once)
 * diagnostics  where diagnostics go and how they read (every step but writing and printing)
 * names        rules for names every step shares
 * </pre>
 *
 * <p>Nothing here is an API: the packages' types are public to one another only, because Java has
 * no friend packages. The processor jar's one public type is the processor itself.
 */
package dev.ireestubs.processor;
