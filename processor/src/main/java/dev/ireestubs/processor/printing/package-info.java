/**
 * Java source printed from plain values: {@link dev.ireestubs.processor.printing.Code} fragments in
 * JavaPoet's formats, a {@link dev.ireestubs.processor.printing.JavaSource} class of fields,
 * methods and nested classes, printed once by {@code SourcePrinter} after its imports are chosen,
 * in JavaPoet's layout.
 *
 * <p>Reads no other package of the processor; the writing step reads it. Not an API: public for the
 * writing step only.
 */
package dev.ireestubs.processor.printing;
