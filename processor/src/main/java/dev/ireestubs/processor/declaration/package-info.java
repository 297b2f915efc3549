/**
 * The first step, the declaration: {@link dev.ireestubs.processor.declaration.DeclarationReader}
 * reads an {@code @IreeModule} interface once into a {@link
 * dev.ireestubs.processor.declaration.Declaration} of plain values (its methods, the records they
 * use, the annotations, as {@link dev.ireestubs.processor.declaration.JavaType}s and locations),
 * reporting what is wrong with the declaration itself, and lists every type it names that does not
 * resolve: the interface then waits for a later round before any file is read. For derive mode,
 * {@link dev.ireestubs.processor.declaration.ClientReader} reads each {@code @IreeClient} into a
 * {@link dev.ireestubs.processor.declaration.ClientDeclaration}. The one step, with derive mode,
 * that asks the compiler about the user's types.
 *
 * <p>Reads diagnostics. Not an API: public for the processor's later steps only.
 */
package dev.ireestubs.processor.declaration;
