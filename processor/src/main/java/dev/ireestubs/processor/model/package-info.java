/**
 * The stub's model, which the binder makes and the writer reads: a {@link
 * dev.ireestubs.processor.model.StubModel} with one sealed {@link
 * dev.ireestubs.processor.model.CallPlan} per method (plain, asynchronous, V0 SIP or IREEPyDM),
 * made of sealed {@link dev.ireestubs.processor.model.ValueBinding}s. Immutable plain values, with
 * no compiler type: everything the writer needs, decided.
 *
 * <p>Reads no other package of the processor. Not an API: public for the binding and writing steps
 * only.
 */
package dev.ireestubs.processor.model;
