package dev.ireestubs.processor.diagnostics;

/**
 * Where a diagnostic goes: an element of the user's source, and possibly one of its annotations and
 * an annotation value. Opaque outside the steps that read the compiler's elements (the declaration
 * step and derive mode make them as {@link ElementLocation}s, {@link Reporter} reads them), so the
 * binder works on plain values and never on {@code javax.lang.model} types.
 */
public interface Location {}
