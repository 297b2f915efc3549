package dev.ireestubs.processor;

/**
 * Where a diagnostic goes: an element of the user's source, and possibly one of its annotations and
 * an annotation value. Opaque outside the declaration step ({@link DeclarationReader} makes them,
 * {@link Reporter} reads them), so the binder works on plain values and never on {@code
 * javax.lang.model} types.
 */
interface Location {}
