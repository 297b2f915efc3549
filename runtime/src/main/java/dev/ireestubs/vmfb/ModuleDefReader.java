package dev.ireestubs.vmfb;

import dev.ireestubs.vmfb.FlatBuffer.Table;
import dev.ireestubs.vmfb.FlatBuffer.Vector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@code BytecodeModuleDef} root table: picks the schema layout, then reads name, versions,
 * attributes, exports and (for old layouts) internal functions.
 *
 * <p><b>Choosing the layout.</b> Field ids were renumbered by every schema change and nothing in
 * the buffer names the revision, so each candidate layout is tested, newest first, against features
 * that no other layout can satisfy by accident:
 *
 * <ul>
 *   <li>the 2023-02 layout: {@code bytecode_version} (field 13) is 14.0 or later, the version that
 *       introduced it;
 *   <li>older layouts: the root has no more field slots than the layout defines, its {@code
 *       bytecode_version} (where it has one) is 13.x or earlier, and it has {@code
 *       function_descriptors} (12-byte structs in these layouts) each naming a byte range inside
 *       {@code bytecode_data}. The two vectors sit at a different pair of field ids in every
 *       layout, so reading them at the wrong ids fails this check.
 * </ul>
 *
 * Size-prefixed FlatBuffers (IREE from 2022-05-20) try the layouts newest first; bare ones (older
 * files) try 2021 and 2020 before the 2022 layouts. The first layout that passes is read; errors in
 * that read are reported as they are (no other layout is tried), so a corrupt module gets the
 * precise message. A module without any function cannot be told apart this way; it is read with the
 * first layout in which it has no function fields. Files with the {@code BMOD} identifier (before
 * 2021-05) can only have the 2019/2020 root layout; whether their signatures carry a calling
 * convention (2020-09 on) is told by their shape.
 */
final class ModuleDefReader {

  static final int DESCRIPTOR_SIZE_BEFORE_2023 = 12;
  static final int DESCRIPTOR_SIZE_2023 = 20;
  private static final int FIRST_MAJOR_WITH_FUNCTION_SIGNATURES = 14;

  /** How a {@code FunctionSignatureDef} is laid out. */
  private enum SignatureFormat {
    /** 2019: 0 argument_types, 1 result_types, 2 reflection_attrs. */
    TYPES_ATTRS,
    /** 2020-09 .. 2022-06-27: 0 argument_types, 1 result_types, 2 calling_convention, 3 attrs. */
    TYPES_CCONV_ATTRS,
    /** 2022-06-27 on: 0 calling_convention, 1 attrs. */
    CCONV_ATTRS,
    /** The 2022-05 layout, which saw both of the previous two: told per signature. */
    EITHER
  }

  /** The root layouts, newest first; field ids as in each schema revision. */
  private enum Layout {
    FUNCTION_SIGNATURES_2023(
        VmfbSchemaEra.FUNCTION_SIGNATURES_2023,
        new Ids()
            .slots(16)
            .version(1)
            .attrs(3)
            .exported(7)
            .functionSignatures(8)
            .functionDescriptors(12)
            .bytecodeVersion(13)
            .bytecodeData(14),
        SignatureFormat.CCONV_ATTRS),
    DEPENDENCIES_2022(
        VmfbSchemaEra.DEPENDENCIES_2022,
        new Ids()
            .slots(14)
            .version(1)
            .attrs(2)
            .exported(6)
            .functionDescriptors(10)
            .bytecodeVersion(11)
            .bytecodeData(12),
        SignatureFormat.CCONV_ATTRS),
    MODULE_ATTRIBUTES_2022(
        VmfbSchemaEra.MODULE_ATTRIBUTES_2022,
        new Ids()
            .slots(12)
            .attrs(1)
            .exported(4)
            .functionDescriptors(8)
            .bytecodeVersion(9)
            .bytecodeData(10),
        SignatureFormat.CCONV_ATTRS),
    BYTECODE_VERSION_2022(
        VmfbSchemaEra.BYTECODE_VERSION_2022,
        new Ids().slots(11).exported(3).functionDescriptors(7).bytecodeVersion(8).bytecodeData(9),
        SignatureFormat.EITHER),
    NO_INTERNAL_FUNCTIONS_2021(
        VmfbSchemaEra.NO_INTERNAL_FUNCTIONS_2021,
        new Ids().slots(10).exported(3).functionDescriptors(7).bytecodeData(8),
        SignatureFormat.TYPES_CCONV_ATTRS),
    INTERNAL_FUNCTIONS_2020(
        VmfbSchemaEra.INTERNAL_FUNCTIONS_2020,
        new Ids().slots(11).exported(3).internalFunctions(4).functionDescriptors(8).bytecodeData(9),
        SignatureFormat.TYPES_CCONV_ATTRS);

    final VmfbSchemaEra era;

    /** The number of root fields the revision defines (its vtable's largest slot count). */
    final int slots;

    final int version;
    final int attrs;
    final int exported;
    final int internalFunctions;
    final int functionSignatures;
    final int functionDescriptors;
    final int bytecodeVersion;
    final int bytecodeData;

    /** Whether exports hold their signature (field 1; internal_ordinal is then field 2). */
    final boolean signatureOnExport;

    final SignatureFormat signatureFormat;

    Layout(VmfbSchemaEra era, Ids ids, SignatureFormat signatureFormat) {
      this.era = era;
      this.slots = ids.slots;
      this.version = ids.version;
      this.attrs = ids.attrs;
      this.exported = ids.exported;
      this.internalFunctions = ids.internalFunctions;
      this.functionSignatures = ids.functionSignatures;
      this.functionDescriptors = ids.functionDescriptors;
      this.bytecodeVersion = ids.bytecodeVersion;
      this.bytecodeData = ids.bytecodeData;
      this.signatureOnExport = ids.functionSignatures < 0;
      this.signatureFormat = signatureFormat;
    }
  }

  /** Root field ids of one layout; -1 for a field the layout does not have. Field 0 is the name. */
  private static final class Ids {
    int slots;
    int version = -1;
    int attrs = -1;
    int exported = -1;
    int internalFunctions = -1;
    int functionSignatures = -1;
    int functionDescriptors = -1;
    int bytecodeVersion = -1;
    int bytecodeData = -1;

    Ids slots(int n) {
      slots = n;
      return this;
    }

    Ids version(int id) {
      version = id;
      return this;
    }

    Ids attrs(int id) {
      attrs = id;
      return this;
    }

    Ids exported(int id) {
      exported = id;
      return this;
    }

    Ids internalFunctions(int id) {
      internalFunctions = id;
      return this;
    }

    Ids functionSignatures(int id) {
      functionSignatures = id;
      return this;
    }

    Ids functionDescriptors(int id) {
      functionDescriptors = id;
      return this;
    }

    Ids bytecodeVersion(int id) {
      bytecodeVersion = id;
      return this;
    }

    Ids bytecodeData(int id) {
      bytecodeData = id;
      return this;
    }
  }

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

  /** A signature's calling convention and attributes. */
  private record Signature(Optional<String> callingConvention, VmfbAttributes attributes) {
    static final Signature NONE = new Signature(Optional.empty(), VmfbAttributes.empty());
  }

  private final FlatBuffer fb;
  private final Map<Long, Signature> signatures = new HashMap<>();
  private final Map<Long, VmfbAttributes> attributeLists = new HashMap<>();

  private ModuleDefReader(FlatBuffer fb) {
    this.fb = fb;
  }

  /**
   * Reads the module whose file identifier ({@code IREE} or {@code BMOD}) has been checked.
   *
   * @param sizePrefixed whether the FlatBuffer had a size prefix: IREE wrote one from 2022-05-20,
   *     so the layouts of that time are tried first, the older ones first otherwise
   */
  static Contents read(FlatBuffer fb, String identifier, boolean sizePrefixed)
      throws VmfbFormatException {
    return new ModuleDefReader(fb).read(identifier, sizePrefixed);
  }

  private Contents read(String identifier, boolean sizePrefixed) throws VmfbFormatException {
    Table root = fb.root();
    boolean bmod = identifier.equals("BMOD");
    List<Layout> candidates = candidates(bmod, sizePrefixed);
    List<String> reasons = new ArrayList<>();
    for (Layout layout : candidates) {
      String mismatch = mismatch(root, layout, false);
      if (mismatch == null) {
        return contents(root, layout, bmod);
      }
      reasons.add(layout.era.displayName() + ": " + mismatch);
    }
    // A module without functions has no descriptors to tell the older layouts apart; it reads
    // the same in any of them in which it has no functions.
    for (Layout layout : candidates) {
      if (layout != Layout.FUNCTION_SIGNATURES_2023 && mismatch(root, layout, true) == null) {
        return contents(root, layout, bmod);
      }
    }
    throw fb.error(
        root.path,
        root.pos,
        "matches no known layout of IREE's BytecodeModuleDef schema for identifier "
            + identifier
            + ": "
            + String.join("; ", reasons));
  }

  private static List<Layout> candidates(boolean bmod, boolean sizePrefixed) {
    if (bmod) {
      return List.of(Layout.INTERNAL_FUNCTIONS_2020);
    }
    if (sizePrefixed) {
      return List.of(Layout.values());
    }
    // Bare FlatBuffers predate 2022-05-20: the 2021 and 2020 layouts are the likely ones.
    return List.of(
        Layout.FUNCTION_SIGNATURES_2023,
        Layout.NO_INTERNAL_FUNCTIONS_2021,
        Layout.INTERNAL_FUNCTIONS_2020,
        Layout.BYTECODE_VERSION_2022,
        Layout.MODULE_ATTRIBUTES_2022,
        Layout.DEPENDENCIES_2022);
  }

  private Contents contents(Table root, Layout layout, boolean bmod) throws VmfbFormatException {
    SignatureFormat format = bmod ? bmodSignatureFormat(root) : layout.signatureFormat;
    VmfbSchemaEra era =
        format == SignatureFormat.TYPES_ATTRS
            ? VmfbSchemaEra.SIGNATURES_WITHOUT_CALLING_CONVENTION_2019
            : layout.era;
    return contents(root, layout, format, era);
  }

  // ------------------------------------------------------------------ layout identification

  /**
   * Why the root cannot have this layout, or null when it can.
   *
   * @param functionless instead of requiring function descriptors over bytecode, require that the
   *     layout's function vectors be absent or empty
   */
  private String mismatch(Table root, Layout layout, boolean functionless) {
    try {
      if (layout != Layout.FUNCTION_SIGNATURES_2023 && root.slots() > layout.slots) {
        return "the root table has " + root.slots() + " field slots, this layout " + layout.slots;
      }
      if (layout.bytecodeVersion >= 0) {
        BytecodeVersion v =
            BytecodeVersion.fromPacked(
                (int) root.u32(layout.bytecodeVersion, "bytecode_version", 0));
        boolean newest = layout == Layout.FUNCTION_SIGNATURES_2023;
        if (newest != (v.major() >= FIRST_MAJOR_WITH_FUNCTION_SIGNATURES)) {
          return "bytecode_version (field "
              + layout.bytecodeVersion
              + ") reads "
              + v
              + ", this layout has "
              + (newest ? "14.0 or later" : "13.x or earlier");
        }
      }
      if (layout != Layout.FUNCTION_SIGNATURES_2023 && functionless) {
        for (int id :
            new int[] {layout.functionDescriptors, layout.exported, layout.internalFunctions}) {
          Vector functions = root.vector(id, 4, "functions");
          if (functions != null && functions.count > 0) {
            return "field " + id + " holds functions";
          }
        }
      } else if (layout != Layout.FUNCTION_SIGNATURES_2023) {
        Vector descriptors =
            root.vector(
                layout.functionDescriptors, DESCRIPTOR_SIZE_BEFORE_2023, "function_descriptors");
        Vector bytecode = root.vector(layout.bytecodeData, 1, "bytecode_data");
        if (descriptors == null || descriptors.count == 0) {
          return "no function_descriptors at field " + layout.functionDescriptors;
        }
        long bytecodeLength = bytecode == null ? 0 : bytecode.count;
        for (int i = 0; i < descriptors.count; i++) {
          long at = descriptors.element(i);
          long offset = fb.i32(at);
          long length = fb.i32(at + 4);
          if (offset < 0 || length < 0 || offset + length > bytecodeLength) {
            return "function_descriptors["
                + i
                + "] (field "
                + layout.functionDescriptors
                + ") names bytes ["
                + offset
                + ", "
                + (offset + length)
                + ") outside bytecode_data (field "
                + layout.bytecodeData
                + ", "
                + bytecodeLength
                + " bytes)";
          }
        }
      }
      return null;
    } catch (VmfbFormatException e) {
      return e.detail();
    }
  }

  /**
   * Whether a {@code BMOD} module's signatures have a calling convention (from 2020-09): yes when
   * some signature has field 3, or a field 2 that reads as a calling-convention string; no when
   * field 2 is there but is not such a string (it is then the reflection attributes). A module
   * whose signatures have neither reads the same either way.
   */
  private SignatureFormat bmodSignatureFormat(Table root) {
    boolean sawField2 = false;
    try {
      List<Table> found = new ArrayList<>();
      for (int id :
          new int[] {
            Layout.INTERNAL_FUNCTIONS_2020.exported,
            Layout.INTERNAL_FUNCTIONS_2020.internalFunctions
          }) {
        Vector functions = root.vector(id, 4, "functions");
        for (int i = 0; functions != null && i < functions.count; i++) {
          Table signature = functions.table(i).table(1, "signature");
          if (signature != null) {
            found.add(signature);
          }
        }
      }
      for (Table signature : found) {
        if (signature.has(3)) {
          return SignatureFormat.TYPES_CCONV_ATTRS;
        }
        if (signature.has(2)) {
          sawField2 = true;
          try {
            if (looksLikeCallingConvention(signature.string(2, "calling_convention"))) {
              return SignatureFormat.TYPES_CCONV_ATTRS;
            }
          } catch (VmfbFormatException notAString) {
            // then field 2 is the attribute vector: keep looking
          }
        }
      }
    } catch (VmfbFormatException e) {
      // The full read reports the problem.
      return SignatureFormat.TYPES_CCONV_ATTRS;
    }
    return sawField2 ? SignatureFormat.TYPES_ATTRS : SignatureFormat.TYPES_CCONV_ATTRS;
  }

  /** {@code 0rr_r}, {@code 0v_v}, {@code 0iCiD_r}: version digit, types, an underscore. */
  static boolean looksLikeCallingConvention(String s) {
    if (s.length() < 2 || s.charAt(0) != '0' || s.indexOf('_') < 0) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ reading

  private Contents contents(Table root, Layout layout, SignatureFormat format, VmfbSchemaEra era)
      throws VmfbFormatException {
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
            : attributes(root.vector(layout.attrs, 4, "attrs"));

    List<VmfbInternalFunction> internals = new ArrayList<>();
    Vector internalVector =
        layout.internalFunctions < 0
            ? null
            : root.vector(layout.internalFunctions, 4, "internal_functions");
    for (int i = 0; internalVector != null && i < internalVector.count; i++) {
      Table function = internalVector.table(i);
      Table signatureTable = function.table(1, "signature");
      Signature signature =
          signatureTable == null ? Signature.NONE : signature(signatureTable, format);
      internals.add(
          new VmfbInternalFunction(
              i,
              Optional.ofNullable(function.string(0, "local_name")),
              signature.callingConvention(),
              signature.attributes()));
    }

    Vector signatureVector =
        layout.functionSignatures < 0
            ? null
            : root.vector(layout.functionSignatures, 4, "function_signatures");
    List<VmfbExport> exports = new ArrayList<>();
    Vector exportVector = root.vector(layout.exported, 4, "exported_functions");
    for (int i = 0; exportVector != null && i < exportVector.count; i++) {
      Table export = exportVector.table(i);
      String exportName = export.string(0, "local_name");
      if (exportName == null) {
        throw fb.error(export.path, export.pos, "the export has no local_name");
      }
      int ordinal = export.i32(layout.signatureOnExport ? 2 : 1, "internal_ordinal", 0);
      Signature signature;
      if (layout.signatureOnExport) {
        Table signatureTable = export.table(1, "signature");
        signature = signatureTable == null ? Signature.NONE : signature(signatureTable, format);
      } else {
        int available = signatureVector == null ? 0 : signatureVector.count;
        if (ordinal < 0 || ordinal >= available) {
          throw fb.error(
              export.path,
              export.pos,
              "export '"
                  + exportName
                  + "' has internal_ordinal "
                  + ordinal
                  + ", outside function_signatures ("
                  + available
                  + " entries)");
        }
        signature = signature(signatureVector.table(ordinal), format);
      }
      Optional<VmfbInternalFunction> implementation = Optional.empty();
      if (internalVector != null) {
        if (ordinal < 0 || ordinal >= internals.size()) {
          throw fb.error(
              export.path,
              export.pos,
              "export '"
                  + exportName
                  + "' has internal_ordinal "
                  + ordinal
                  + ", outside internal_functions ("
                  + internals.size()
                  + " entries)");
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
    return new Contents(
        era,
        name,
        version,
        bytecodeVersion,
        attributes,
        exports,
        internals,
        code(root, layout, signatureVector, exports, internals));
  }

  /**
   * Where the function bodies are, and each internal function's calling convention where the module
   * records one (in {@code function_signatures} from 2023-02; before, on the exports and, until
   * 2021-09, on the internal functions); empty when the module has no bodies.
   */
  private Optional<BytecodeTypeReader.Code> code(
      Table root,
      Layout layout,
      Vector signatureVector,
      List<VmfbExport> exports,
      List<VmfbInternalFunction> internals)
      throws VmfbFormatException {
    int descriptorSize =
        layout == Layout.FUNCTION_SIGNATURES_2023
            ? DESCRIPTOR_SIZE_2023
            : DESCRIPTOR_SIZE_BEFORE_2023;
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
            i, signature(signatureVector.table(i), layout.signatureFormat).callingConvention());
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

  private Signature signature(Table table, SignatureFormat format) throws VmfbFormatException {
    Signature cached = signatures.get(table.pos);
    if (cached != null) {
      return cached;
    }
    if (format == SignatureFormat.EITHER) {
      format =
          table.has(2) || table.has(3)
              ? SignatureFormat.TYPES_CCONV_ATTRS
              : SignatureFormat.CCONV_ATTRS;
    }

    Signature signature =
        switch (format) {
          case TYPES_ATTRS ->
              new Signature(Optional.empty(), attributes(table.vector(2, 4, "reflection_attrs")));
          case TYPES_CCONV_ATTRS ->
              new Signature(
                  Optional.ofNullable(table.string(2, "calling_convention")),
                  attributes(table.vector(3, 4, "reflection_attrs")));
          default ->
              new Signature(
                  Optional.ofNullable(table.string(0, "calling_convention")),
                  attributes(table.vector(1, 4, "attrs")));
        };
    signatures.put(table.pos, signature);
    return signature;
  }

  private VmfbAttributes attributes(Vector vector) throws VmfbFormatException {
    if (vector == null || vector.count == 0) {
      return VmfbAttributes.empty();
    }
    VmfbAttributes cached = attributeLists.get(vector.start);
    if (cached != null) {
      return cached;
    }
    List<VmfbAttributes.Entry> entries = new ArrayList<>(vector.count);
    for (int i = 0; i < vector.count; i++) {
      Table attr = vector.table(i);
      String key = attr.string(0, "key");
      String value = attr.string(1, "value");
      entries.add(new VmfbAttributes.Entry(key == null ? "" : key, value == null ? "" : value));
    }
    VmfbAttributes result = VmfbAttributes.of(entries);
    attributeLists.put(vector.start, result);
    return result;
  }
}
