/**
 * Reading compiled IREE modules ({@code .vmfb}): {@link dev.ireestubs.vmfb.VmfbReader} turns a
 * file, byte array or buffer into an immutable {@link dev.ireestubs.vmfb.VmfbModule} with the
 * module's name, version, {@linkplain dev.ireestubs.vmfb.BytecodeVersion bytecode version},
 * attributes, {@linkplain dev.ireestubs.vmfb.VmfbSchemaEra schema era}, {@linkplain
 * dev.ireestubs.vmfb.VmfbContainer container}, and every {@linkplain dev.ireestubs.vmfb.VmfbExport
 * export} with its calling convention and reflection attributes.
 *
 * <h2>What it reads</h2>
 *
 * <ul>
 *   <li>Containers: a bare FlatBuffer (before 2022-05-20), a size-prefixed one, and a ZIP archive
 *       whose stored entry {@code module.fb} holds it (IREE's default since 2022-05-25).
 *   <li>File identifiers {@code BMOD} (before 2021-05-05) and {@code IREE}.
 *   <li>Every layout of the {@code BytecodeModuleDef} schema from 2019-12 on. The schema has no
 *       explicit field ids and was renumbered many times; the reader tells the layouts apart by
 *       features that cannot match by accident (the bytecode version, and function descriptors that
 *       must land inside the bytecode) and reads signatures where each era keeps them: on each
 *       export until 2023-02, in {@code function_signatures[internal_ordinal]} since. Reflection
 *       that compilers before 2021-09 put on the internal function implementing an export (e.g.
 *       {@code simple_mul$sync}) is reached through the export's internal ordinal ({@link
 *       dev.ireestubs.vmfb.VmfbExport#reflection()}).
 * </ul>
 *
 * <p>Each export also carries the types its function body states ({@link
 * dev.ireestubs.vmfb.VmfbExport#bytecodeTypes()}): the reader decodes the bodies of bytecode 13,
 * 15, 16 and 17 and follows the constant operands of their {@code hal.buffer_view.assert} and
 * {@code hal.buffer_view.create} calls, the source of types for modules imported from PyTorch or
 * ONNX, which carry no reflection.
 *
 * <p>And whether its calls may run {@code vm.yield} ({@link
 * dev.ireestubs.vmfb.VmfbExport#yieldReach()}): a separate pass decodes every function body, finds
 * the yields and follows the calls between functions, listing the imports they reach; IREE's
 * runtime cannot run a function that yields, and the runtime backend refuses its calls.
 *
 * <p>Reflection strings are exposed raw. {@link dev.ireestubs.vmfb.VmfbExport} parses the formats
 * the {@code abi} package reads today: {@code iree.abi} JSON and the V0 {@code f}/{@code sip}
 * attributes. The {@code iree.abi.declaration} text and the calling convention are left to their
 * own parsers.
 *
 * <h2>Untrusted input</h2>
 *
 * Every offset and length is checked before it is followed or used, and the checks come before any
 * allocation, so an allocation is never larger than the bytes that remain. Offsets are followed
 * only as deep as the schema goes, with no recursion, so cycles and self-references cannot loop.
 * Strings, signatures and attribute lists are decoded once per position, so a module whose tables
 * alias one another costs no more than its size. Whatever is not a readable module is a {@link
 * dev.ireestubs.vmfb.VmfbFormatException} naming the source, the schema path (e.g. {@code
 * BytecodeModuleDef.exported_functions[2].local_name}), the byte offset and what was expected; Git
 * LFS pointers, text and JSON files get their own messages.
 *
 * <h2>Why not flatbuffers-java, and why not java.util.zip</h2>
 *
 * <p><b>FlatBuffers.</b> The reader has its own bounds-checked table access (about 300 lines,
 * package-private) instead of {@code com.google.flatbuffers:flatbuffers-java}. That library's
 * {@code Table} accessors, which generated code uses, trust the buffer: they check nothing against
 * hostile offsets, and its string accessor sizes its decoding from the length field; it has no
 * verifier for Java. Using it safely would mean validating every offset ourselves before each call,
 * which is the whole of the work. Generated classes would not help either: they fit one schema
 * revision, and this reader needs seven, with renumbered fields. Tests use flatbuffers-java's
 * {@code FlatBufferBuilder} to write modules of every era, so the reader is checked against the
 * reference implementation's encoding.
 *
 * <p><b>ZIP.</b> The reader finds {@code module.fb} through the archive's central directory (ZIP64
 * included) with its own small parser, not {@code java.util.zip}: {@code ZipFile} opens only files
 * on disk (not a byte array or buffer), and {@code ZipInputStream} walks local headers only, copies
 * the data, reports corrupt archives without offsets, and would inflate a compressed entry of any
 * size. The reader needs the entry's absolute offset, to read the FlatBuffer in place without
 * copying, and must accept IREE's own quirk that the size prefix of {@code module.fb} covers 4
 * bytes past the entry's recorded size. A compressed {@code module.fb} (IREE always stores it) is
 * reported, not inflated.
 *
 * <h2>Large files</h2>
 *
 * Reading a {@link java.nio.file.Path} touches only the ZIP directory and the module's FlatBuffer
 * (which is at most 2 GiB by construction), mapping the latter for large modules, so files with
 * gigabytes of embedded constants read quickly.
 */
package dev.ireestubs.vmfb;
