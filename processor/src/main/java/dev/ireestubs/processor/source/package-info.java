/**
 * The second step, the sources: {@link dev.ireestubs.processor.source.SignatureSources#find} reads
 * the reflection an interface names (an {@code iree.abi} JSON module file or a compiled {@code
 * .vmfb}, found by {@link dev.ireestubs.processor.source.ReflectionLoader}) and finds each method's
 * signature in it or in {@code @IreeFunction(abi)}, as a {@link
 * dev.ireestubs.processor.source.FunctionSource}; an asynchronous method's is its asynchronous
 * export's. The result, {@link dev.ireestubs.processor.source.InterfaceSources}, is what the binder
 * binds; {@link dev.ireestubs.processor.source.InputRecord} records the files read beside the stub,
 * for build tools. For derive mode, {@link dev.ireestubs.processor.source.ClientSources} reads the
 * module an {@code @IreeClient} names. The only step that reads files.
 *
 * <p>Reads the declaration, diagnostics and names. Not an API: public for the processor's later
 * steps only.
 */
package dev.ireestubs.processor.source;
