package dev.ireestubs.vmfb;

/**
 * The root layouts of IREE's {@code BytecodeModuleDef} schema this reader knows, newest first: for
 * each, the {@link VmfbSchemaEra} it stands for, the root field ids of that schema revision, and
 * how its {@code FunctionSignatureDef}s are laid out. Field 0 is the name in every layout. {@link
 * LayoutChooser} tells which layout a module has; {@link ModuleDefReader} reads its tables.
 */
enum ModuleDefLayout {
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

  /** The size of a {@code FunctionDescriptor} struct before the 2023-02 layout. */
  static final int DESCRIPTOR_SIZE_BEFORE_2023 = 12;

  /** The size of a {@code FunctionDescriptor} struct in the 2023-02 layout. */
  static final int DESCRIPTOR_SIZE_2023 = 20;

  /** How a {@code FunctionSignatureDef} is laid out. */
  enum SignatureFormat {
    /** 2019: 0 argument_types, 1 result_types, 2 reflection_attrs. */
    TYPES_ATTRS,
    /** 2020-09 .. 2022-06-27: 0 argument_types, 1 result_types, 2 calling_convention, 3 attrs. */
    TYPES_CCONV_ATTRS,
    /** 2022-06-27 on: 0 calling_convention, 1 attrs. */
    CCONV_ATTRS,
    /** The 2022-05 layout, which saw both of the previous two: told per signature. */
    EITHER
  }

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

  ModuleDefLayout(VmfbSchemaEra era, Ids ids, SignatureFormat signatureFormat) {
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
}
