/**
 * IREEPyDM (Python data model) programs compiled to IREE, seen from Java: object records, the
 * {@code exception_result} convention, and an invoker.
 *
 * <ul>
 *   <li>{@link dev.ireestubs.pydm.PyTypeCode}: the type-code table and the data each code carries;
 *   <li>{@link dev.ireestubs.pydm.PyObjects}: the codec between object records ({@code [type code,
 *       data?, id?]} variant lists) and Java values ({@code null}, {@code Boolean}, the integer
 *       widths, {@code Float}/{@code Double}, {@link dev.ireestubs.pydm.PyHalf}, {@link
 *       dev.ireestubs.pydm.PyBFloat16}, {@link dev.ireestubs.pydm.PyTuple}, {@code List}, and
 *       {@link dev.ireestubs.pydm.PyObject} for what has no plain form);
 *   <li>{@link dev.ireestubs.pydm.PyExceptionResult} and {@link dev.ireestubs.pydm.PyException}:
 *       each {@code exception_result} as a Java exception with the natural JDK base;
 *   <li>{@link dev.ireestubs.pydm.PyDm} and {@link dev.ireestubs.pydm.PyDmFunction}: the calling
 *       convention ({@code exception_result} first, then the value) for stubs and dynamic calls; a
 *       {@code PyDmFunction} is a {@link dev.ireestubs.invoke.DynamicFunction}, the one shape of
 *       every dynamic call, with the PyDM codec behind it.
 * </ul>
 *
 * <p>The facts come from IREE's "Lowering IREEPyDM to IREE" notes ({@code
 * llvm-external-projects/iree-dialects/docs/Dialect/IREEPyDM/LowerToIREE.md}), the {@code
 * BuiltinTypeCode} enum of the same era ({@code iree-dialects/Dialect/IREEPyDM/IR/Dialect.h}) and
 * the lowering itself ({@code Transforms/ToIREE/TypeConverter.cpp}, {@code LoweringPatterns.cpp}).
 */
package dev.ireestubs.pydm;
