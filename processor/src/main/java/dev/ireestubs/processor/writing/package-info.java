/**
 * The last step, the writing: {@link dev.ireestubs.processor.writing.StubWriter} writes a stub
 * model as the stub class {@code Iree_<Interface>}, laid out by {@code StubLayout} to stay far from
 * the class-file limits: the calls ({@code CallWriter}, {@code ValueCode}, {@code SipCode}), the
 * signatures as code ({@code SignatureCode}, {@code FunctionConstants}), bodies that methods share
 * ({@code SharedBodies}), every name hygienic ({@code StubScope}, {@code MethodScope}). It writes
 * what the model says and decides nothing.
 *
 * <p>Reads the model, printing and names: never the compiler, the declaration or the binder. Not an
 * API: public for the processor only.
 */
package dev.ireestubs.processor.writing;
