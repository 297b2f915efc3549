package dev.ireestubs.vmfb;

import dev.ireestubs.vmfb.FlatBuffer.Table;
import dev.ireestubs.vmfb.FlatBuffer.Vector;
import dev.ireestubs.vmfb.ModuleDefLayout.SignatureFormat;
import dev.ireestubs.vmfb.SignatureReader.Signature;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a {@code BytecodeModuleDef} root table: has {@link LayoutChooser} pick the schema layout,
 * then reads in that layout's field ids the name, versions, attributes, exports (each with its
 * signature, from the export itself or from {@code function_signatures}), the internal functions
 * (old layouts) and where the function bodies are. Signatures and attribute lists are decoded by
 * one {@link SignatureReader} per module. Errors in this read are reported as they are: no other
 * layout is tried.
 */
final class ModuleDefReader {

  /** What the root table holds. */
  record Contents(
      VmfbSchemaEra era,
      String name,
      long version,
      Optional<BytecodeVersion> bytecodeVersion,
      VmfbAttributes attributes,
      List<VmfbExport> exports,
      List<VmfbInternalFunction> internalFunctions,
      Optional<BytecodeTypeReader.Code> code) {}

  private final FlatBuffer fb;
  private final ModuleDefLayout layout;
  private final SignatureFormat format;
  private final VmfbSchemaEra era;
  private final SignatureReader signatures = new SignatureReader();

  private ModuleDefReader(FlatBuffer fb, LayoutChooser.Choice choice) {
    this.fb = fb;
    this.layout = choice.layout();
    this.format = choice.signatureFormat();
    this.era = choice.era();
  }

  /**
   * Reads the module whose file identifier ({@code IREE} or {@code BMOD}) has been checked.
   *
   * @param sizePrefixed whether the FlatBuffer had a size prefix: IREE wrote one from 2022-05-20,
   *     so the layouts of that time are tried first, the older ones first otherwise
   */
  static Contents read(FlatBuffer fb, String identifier, boolean sizePrefixed)
      throws VmfbFormatException {
    Table root = fb.root();
    LayoutChooser.Choice choice = LayoutChooser.choose(fb, root, identifier, sizePrefixed);
    return new ModuleDefReader(fb, choice).contents(root);
  }

  private Contents contents(Table root) throws VmfbFormatException {
    String name = root.string(0, "name");
    if (name == null) {
      throw fb.error(root.path + ".name", root.pos, "the module has no name (field 0, required)");
    }
    long version = layout.version < 0 ? 0 : root.u32(layout.version, "version", 0);
    Optional<BytecodeVersion> bytecodeVersion =
        layout.bytecodeVersion < 0
            ? Optional.empty()
            : Optional.of(
                BytecodeVersion.fromPacked(
                    (int) root.u32(layout.bytecodeVersion, "bytecode_version", 0)));
    VmfbAttributes attributes =
        layout.attrs < 0
            ? VmfbAttributes.empty()
            : signatures.attributes(root.vector(layout.attrs, 4, "attrs"));

    Vector internalVector =
        layout.internalFunctions < 0
            ? null
            : root.vector(layout.internalFunctions, 4, "internal_functions");
    List<VmfbInternalFunction> internals = internalFunctions(internalVector);

    Vector signatureVector =
        layout.functionSignatures < 0
            ? null
            : root.vector(layout.functionSignatures, 4, "function_signatures");
    List<VmfbExport> exports =
        exports(
            root.vector(layout.exported, 4, "exported_functions"),
            signatureVector,
            internalVector == null ? null : internals);
    return new Contents(
        era,
        name,
        version,
        bytecodeVersion,
        attributes,
        exports,
        internals,
        code(root, signatureVector, exports, internals));
  }

  /** The functions in {@code internal_functions}; empty when the vector is null. */
  private List<VmfbInternalFunction> internalFunctions(Vector internalVector)
      throws VmfbFormatException {
    List<VmfbInternalFunction> internals = new ArrayList<>();
    for (int i = 0; internalVector != null && i < internalVector.count; i++) {
      Table function = internalVector.table(i);
      Table signatureTable = function.table(1, "signature");
      Signature signature =
          signatureTable == null ? Signature.NONE : signatures.signature(signatureTable, format);
      internals.add(
          new VmfbInternalFunction(
              i,
              Optional.ofNullable(function.string(0, "local_name")),
              signature.callingConvention(),
              signature.attributes()));
    }
    return internals;
  }

  /**
   * The functions in {@code exported_functions}.
   *
   * @param signatureVector {@code function_signatures}, or null (before 2023-02, or absent)
   * @param internals the internal functions, or null when the module has no {@code
   *     internal_functions} vector (an export then has no implementation)
   */
  private List<VmfbExport> exports(
      Vector exportVector, Vector signatureVector, List<VmfbInternalFunction> internals)
      throws VmfbFormatException {
    List<VmfbExport> exports = new ArrayList<>();
    for (int i = 0; exportVector != null && i < exportVector.count; i++) {
      Table export = exportVector.table(i);
      String exportName = export.string(0, "local_name");
      if (exportName == null) {
        throw fb.error(export.path, export.pos, "the export has no local_name");
      }
      int ordinal = export.i32(layout.signatureOnExport ? 2 : 1, "internal_ordinal", 0);
      Signature signature = exportSignature(export, exportName, ordinal, signatureVector);
      Optional<VmfbInternalFunction> implementation = Optional.empty();
      if (internals != null) {
        if (ordinal < 0 || ordinal >= internals.size()) {
          throw ordinalOutside(export, exportName, ordinal, "internal_functions", internals.size());
        }
        implementation = Optional.of(internals.get(ordinal));
      }
      exports.add(
          new VmfbExport(
              exportName,
              ordinal,
              signature.callingConvention(),
              signature.attributes(),
              implementation));
    }
    return exports;
  }

  /**
   * An export's signature: on the export itself before 2023-02, else {@code
   * function_signatures[ordinal]}.
   */
  private Signature exportSignature(
      Table export, String exportName, int ordinal, Vector signatureVector)
      throws VmfbFormatException {
    if (layout.signatureOnExport) {
      Table signatureTable = export.table(1, "signature");
      return signatureTable == null ? Signature.NONE : signatures.signature(signatureTable, format);
    }
    int available = signatureVector == null ? 0 : signatureVector.count;
    if (ordinal < 0 || ordinal >= available) {
      throw ordinalOutside(export, exportName, ordinal, "function_signatures", available);
    }
    return signatures.signature(signatureVector.table(ordinal), format);
  }

  /** An export whose internal_ordinal is outside {@code vector} ({@code count} entries). */
  private VmfbFormatException ordinalOutside(
      Table export, String exportName, int ordinal, String vector, int count) {
    return fb.error(
        export.path,
        export.pos,
        "export '"
            + exportName
            + "' has internal_ordinal "
            + ordinal
            + ", outside "
            + vector
            + " ("
            + count
            + " entries)");
  }

  /**
   * Where the function bodies are, and each internal function's calling convention where the module
   * records one (in {@code function_signatures} from 2023-02; before, on the exports and, until
   * 2021-09, on the internal functions); empty when the module has no bodies.
   */
  private Optional<BytecodeTypeReader.Code> code(
      Table root,
      Vector signatureVector,
      List<VmfbExport> exports,
      List<VmfbInternalFunction> internals)
      throws VmfbFormatException {
    int descriptorSize =
        layout == ModuleDefLayout.FUNCTION_SIGNATURES_2023
            ? ModuleDefLayout.DESCRIPTOR_SIZE_2023
            : ModuleDefLayout.DESCRIPTOR_SIZE_BEFORE_2023;
    Vector descriptors =
        root.vector(layout.functionDescriptors, descriptorSize, "function_descriptors");
    Vector bytecode = root.vector(layout.bytecodeData, 1, "bytecode_data");
    if (descriptors == null || bytecode == null || descriptors.count == 0) {
      return Optional.empty();
    }
    List<Optional<String>> conventions = new ArrayList<>(descriptors.count);
    for (int i = 0; i < descriptors.count; i++) {
      conventions.add(Optional.empty());
    }
    if (signatureVector != null) {
      for (int i = 0; i < Math.min(signatureVector.count, descriptors.count); i++) {
        conventions.set(
            i,
            signatures
                .signature(signatureVector.table(i), layout.signatureFormat)
                .callingConvention());
      }
    }
    for (VmfbInternalFunction f : internals) {
      if (f.ordinal() < descriptors.count) {
        conventions.set(f.ordinal(), f.callingConvention());
      }
    }
    for (VmfbExport e : exports) {
      int o = e.internalOrdinal();
      if (o >= 0 && o < descriptors.count && conventions.get(o).isEmpty()) {
        conventions.set(o, e.callingConvention());
      }
    }
    return Optional.of(
        new BytecodeTypeReader.Code(descriptors, descriptorSize, bytecode, conventions));
  }
}
