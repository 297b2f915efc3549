/**
 * Rules for names that several steps share: Java names and the type-style form of a key, the
 * nearest name to suggest for a misspelling, the parts of a value's path ({@code predict:
 * features.image}), and {@link dev.ireestubs.processor.names.UniqueNames}, the allocator every
 * identifier of generated code goes through.
 *
 * <p>Reads no other package of the processor. Not an API: public for the processor's other packages
 * only.
 */
package dev.ireestubs.processor.names;
