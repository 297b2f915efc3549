package dev.ireestubs.vmfb;

import dev.ireestubs.vmfb.FlatBuffer.Table;
import dev.ireestubs.vmfb.FlatBuffer.Vector;
import dev.ireestubs.vmfb.ModuleDefLayout.SignatureFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells which {@link ModuleDefLayout} a {@code BytecodeModuleDef} root has, and for {@code BMOD}
 * files how their signatures are laid out.
 *
 * <p>Field ids were renumbered by every schema change and nothing in the buffer names the revision,
 * so each candidate layout is tested, newest first, against features that no other layout can
 * satisfy by accident:
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
final class LayoutChooser {

  private static final int FIRST_MAJOR_WITH_FUNCTION_SIGNATURES = 14;

  /**
   * The layout to read a root with.
   *
   * @param signatureFormat how its signatures are laid out: the layout's, or for {@code BMOD} the
   *     one their shape tells
   * @param era the layout's era, or the 2019 one for signatures without a calling convention
   */
  record Choice(ModuleDefLayout layout, SignatureFormat signatureFormat, VmfbSchemaEra era) {}

  private LayoutChooser() {}

  /**
   * The layout of the module whose file identifier ({@code IREE} or {@code BMOD}) has been checked.
   *
   * @param sizePrefixed whether the FlatBuffer had a size prefix: IREE wrote one from 2022-05-20,
   *     so the layouts of that time are tried first, the older ones first otherwise
   * @throws VmfbFormatException when no layout fits, with each layout's reason
   */
  static Choice choose(FlatBuffer fb, Table root, String identifier, boolean sizePrefixed)
      throws VmfbFormatException {
    boolean bmod = identifier.equals("BMOD");
    List<ModuleDefLayout> candidates = candidates(bmod, sizePrefixed);
    List<String> reasons = new ArrayList<>();
    for (ModuleDefLayout layout : candidates) {
      String mismatch = mismatch(fb, root, layout, false);
      if (mismatch == null) {
        return choice(root, layout, bmod);
      }
      reasons.add(layout.era.displayName() + ": " + mismatch);
    }
    // A module without functions has no descriptors to tell the older layouts apart; it reads
    // the same in any of them in which it has no functions.
    for (ModuleDefLayout layout : candidates) {
      if (layout != ModuleDefLayout.FUNCTION_SIGNATURES_2023
          && mismatch(fb, root, layout, true) == null) {
        return choice(root, layout, bmod);
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

  private static List<ModuleDefLayout> candidates(boolean bmod, boolean sizePrefixed) {
    if (bmod) {
      return List.of(ModuleDefLayout.INTERNAL_FUNCTIONS_2020);
    }
    if (sizePrefixed) {
      return List.of(ModuleDefLayout.values());
    }
    // Bare FlatBuffers predate 2022-05-20: the 2021 and 2020 layouts are the likely ones.
    return List.of(
        ModuleDefLayout.FUNCTION_SIGNATURES_2023,
        ModuleDefLayout.NO_INTERNAL_FUNCTIONS_2021,
        ModuleDefLayout.INTERNAL_FUNCTIONS_2020,
        ModuleDefLayout.BYTECODE_VERSION_2022,
        ModuleDefLayout.MODULE_ATTRIBUTES_2022,
        ModuleDefLayout.DEPENDENCIES_2022);
  }

  private static Choice choice(Table root, ModuleDefLayout layout, boolean bmod) {
    SignatureFormat format = bmod ? bmodSignatureFormat(root) : layout.signatureFormat;
    VmfbSchemaEra era =
        format == SignatureFormat.TYPES_ATTRS
            ? VmfbSchemaEra.SIGNATURES_WITHOUT_CALLING_CONVENTION_2019
            : layout.era;
    return new Choice(layout, format, era);
  }

  /**
   * Why the root cannot have this layout, or null when it can.
   *
   * @param functionless instead of requiring function descriptors over bytecode, require that the
   *     layout's function vectors be absent or empty
   */
  private static String mismatch(
      FlatBuffer fb, Table root, ModuleDefLayout layout, boolean functionless) {
    try {
      if (layout != ModuleDefLayout.FUNCTION_SIGNATURES_2023 && root.slots() > layout.slots) {
        return "the root table has " + root.slots() + " field slots, this layout " + layout.slots;
      }
      if (layout.bytecodeVersion >= 0) {
        BytecodeVersion v =
            BytecodeVersion.fromPacked(
                (int) root.u32(layout.bytecodeVersion, "bytecode_version", 0));
        boolean newest = layout == ModuleDefLayout.FUNCTION_SIGNATURES_2023;
        if (newest != (v.major() >= FIRST_MAJOR_WITH_FUNCTION_SIGNATURES)) {
          return "bytecode_version (field "
              + layout.bytecodeVersion
              + ") reads "
              + v
              + ", this layout has "
              + (newest ? "14.0 or later" : "13.x or earlier");
        }
      }
      if (layout != ModuleDefLayout.FUNCTION_SIGNATURES_2023 && functionless) {
        for (int id :
            new int[] {layout.functionDescriptors, layout.exported, layout.internalFunctions}) {
          Vector functions = root.vector(id, 4, "functions");
          if (functions != null && functions.count > 0) {
            return "field " + id + " holds functions";
          }
        }
      } else if (layout != ModuleDefLayout.FUNCTION_SIGNATURES_2023) {
        return descriptorMismatch(fb, root, layout);
      }
      return null;
    } catch (VmfbFormatException e) {
      return e.detail();
    }
  }

  /**
   * Why the root's function descriptors do not fit this (pre-2023) layout: none, or one naming
   * bytes outside {@code bytecode_data}; null when they fit.
   */
  private static String descriptorMismatch(FlatBuffer fb, Table root, ModuleDefLayout layout)
      throws VmfbFormatException {
    Vector descriptors =
        root.vector(
            layout.functionDescriptors,
            ModuleDefLayout.DESCRIPTOR_SIZE_BEFORE_2023,
            "function_descriptors");
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
    return null;
  }

  /**
   * Whether a {@code BMOD} module's signatures have a calling convention (from 2020-09): yes when
   * some signature has field 3, or a field 2 that reads as a calling-convention string; no when
   * field 2 is there but is not such a string (it is then the reflection attributes). A module
   * whose signatures have neither reads the same either way.
   */
  private static SignatureFormat bmodSignatureFormat(Table root) {
    boolean sawField2 = false;
    try {
      List<Table> found = new ArrayList<>();
      for (int id :
          new int[] {
            ModuleDefLayout.INTERNAL_FUNCTIONS_2020.exported,
            ModuleDefLayout.INTERNAL_FUNCTIONS_2020.internalFunctions
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
}
