package dev.ireestubs.vmfb;

import dev.ireestubs.vmfb.FlatBuffer.Table;
import dev.ireestubs.vmfb.FlatBuffer.Vector;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Reads a module's imports ({@code imported_functions}) and the parameter scopes its {@code
 * io_parameters} calls name.
 *
 * <p><b>Scopes.</b> A scope is not a field of the module: it is a {@code !vm.buffer} operand (the
 * fifth, {@code source_scope}) of each call to {@code io_parameters.load} or {@code
 * io_parameters.gather}, made by a {@code vm.const.ref.rodata} of a read-only data segment that
 * holds the name. This reader finds them in the bytecode of 2023-layout modules: each {@code
 * vm.call} (opcode 0x58: i32 function ordinal with the import bit 0x80000000, u16 operand count,
 * u16 registers) of one of those imports with as many operands as the import's calling convention
 * has arguments; then, inside the same function and before the call, the nearest {@code
 * vm.const.ref.rodata} (opcode 0x11: i32 segment ordinal, u16 ref register) that writes the scope's
 * register; then that segment's embedded bytes, kept when they are short UTF-8 text. A call whose
 * scope cannot be traced so adds nothing: the result lists the scopes found, which for modules
 * IREE's compiler wrote (straight-line initialisers) are all of them.
 */
final class ImportReader {

  /** {@code imported_functions} field ids by layout era; -1 when not read. */
  static int importsField(VmfbSchemaEra era) {
    return switch (era) {
      case FUNCTION_SIGNATURES_2023 -> 6;
      case DEPENDENCIES_2022 -> 5;
      case MODULE_ATTRIBUTES_2022 -> 3;
      default -> 2;
        // 2019 .. 2022-05: field 2 in every layout
    };
  }

  /** {@code dependencies} field ids by layout era (the field before the imports); -1 before. */
  static int dependenciesField(VmfbSchemaEra era) {
    return switch (era) {
      case FUNCTION_SIGNATURES_2023, DEPENDENCIES_2022 -> importsField(era) - 1;
      default -> -1;
    };
  }

  private static final int OPTIONAL_FLAG = 1 << 1;
  private static final long DEPENDENCY_REQUIRED = 1;
  private static final int OP_CONST_REF_RODATA = 0x11;
  private static final int OP_CALL = 0x58;
  private static final long IMPORT_BIT = 0x80000000L;
  private static final int REF_REGISTER_BIT = 0x8000;
  private static final int REGISTER_MASK = 0x3FFF;
  private static final int SCOPE_OPERAND = 4;
  private static final int MAX_SCOPE_BYTES = 256;
  private static final int RODATA_EMBEDDED_DATA = 2; // after the compression_type union's 2 slots

  private ImportReader() {}

  static List<VmfbImport> imports(FlatBuffer fb, Table root, VmfbSchemaEra era)
      throws VmfbFormatException {
    boolean current = era == VmfbSchemaEra.FUNCTION_SIGNATURES_2023;
    Vector vector = root.vector(importsField(era), 4, "imported_functions");
    List<VmfbImport> imports = new ArrayList<>();
    for (int i = 0; vector != null && i < vector.count; i++) {
      Table imp = vector.table(i);
      String name = imp.string(0, "full_name");
      if (name == null) {
        throw fb.error(imp.path, imp.pos, "the import has no full_name");
      }
      Optional<String> cconv = Optional.empty();
      boolean optional = false;
      if (current) {
        Table signature = imp.table(1, "signature");
        cconv =
            signature == null
                ? Optional.empty()
                : Optional.ofNullable(signature.string(0, "calling_convention"));
        optional = (imp.u32(2, "flags", 0) & OPTIONAL_FLAG) != 0;
      }
      imports.add(new VmfbImport(name, cconv, optional));
    }
    return imports;
  }

  /**
   * The module's dependency table ({@code ModuleDependencyDef}: 0 name, 1 minimum_version, 2 flags
   * with REQUIRED by default); empty for layouts before 2022-08.
   */
  static List<VmfbDependency> dependencies(FlatBuffer fb, Table root, VmfbSchemaEra era)
      throws VmfbFormatException {
    int field = dependenciesField(era);
    if (field < 0) {
      return List.of();
    }
    Vector vector = root.vector(field, 4, "dependencies");
    List<VmfbDependency> dependencies = new ArrayList<>();
    for (int i = 0; vector != null && i < vector.count; i++) {
      Table dependency = vector.table(i);
      String name = dependency.string(0, "name");
      if (name == null) {
        throw fb.error(dependency.path, dependency.pos, "the dependency has no name");
      }
      long flags = dependency.u32(2, "flags", DEPENDENCY_REQUIRED);
      dependencies.add(
          new VmfbDependency(
              name, dependency.u32(1, "minimum_version", 0), (flags & OPTIONAL_FLAG) != 0));
    }
    return dependencies;
  }

  /** The scopes the module's parameter calls name, sorted; see the class comment. */
  static List<String> parameterScopes(
      FlatBuffer fb, Table root, VmfbSchemaEra era, List<VmfbImport> imports)
      throws VmfbFormatException {
    if (era != VmfbSchemaEra.FUNCTION_SIGNATURES_2023) {
      return List.of();
    }
    List<long[]> targets = new ArrayList<>(); // {ordinal | import bit, operand count}
    for (int i = 0; i < imports.size(); i++) {
      VmfbImport imp = imports.get(i);
      if ((imp.name().equals("io_parameters.load") || imp.name().equals("io_parameters.gather"))
          && imp.callingConvention().isPresent()) {
        int arguments = argumentCount(imp.callingConvention().get());
        if (arguments > SCOPE_OPERAND) {
          targets.add(new long[] {i | IMPORT_BIT, arguments});
        }
      }
    }
    if (targets.isEmpty()) {
      return List.of();
    }
    Vector code = root.vector(14, 1, "bytecode_data");
    Vector descriptors =
        root.vector(12, ModuleDefLayout.DESCRIPTOR_SIZE_2023, "function_descriptors");
    Vector rodata = root.vector(9, 4, "rodata_segments");
    if (code == null || descriptors == null || rodata == null) {
      return List.of();
    }
    TreeSet<String> scopes = new TreeSet<>();
    for (int f = 0; f < descriptors.count; f++) {
      long offset = fb.i32(descriptors.element(f));
      long length = fb.i32(descriptors.element(f) + 4);
      if (offset < 0 || length < 0 || offset + length > code.count) {
        continue;
      }
      long from = code.start + offset;
      long to = from + length;
      for (long pc = from; pc + 7 <= to; pc++) {
        if (fb.u8(pc) != OP_CALL) {
          continue;
        }
        long function = fb.u32(pc + 1);
        int count = fb.u16(pc + 5);
        for (long[] target : targets) {
          if (function == target[0] && count == target[1] && pc + 7 + 2L * count <= to) {
            int register = fb.u16(pc + 7 + 2L * SCOPE_OPERAND);
            scopeWritten(fb, rodata, from, pc, register).ifPresent(scopes::add);
          }
        }
      }
    }
    return List.copyOf(scopes);
  }

  /** The text of the rodata segment last loaded into ref {@code register} before {@code call}. */
  private static Optional<String> scopeWritten(
      FlatBuffer fb, Vector rodata, long from, long call, int register) throws VmfbFormatException {
    if ((register & REF_REGISTER_BIT) == 0) {
      return Optional.empty();
    }
    for (long pc = call - 7; pc >= from; pc--) {
      if (fb.u8(pc) != OP_CONST_REF_RODATA) {
        continue;
      }
      long ordinal = fb.u32(pc + 1);
      int written = fb.u16(pc + 5);
      if ((written & REF_REGISTER_BIT) != 0
          && (written & REGISTER_MASK) == (register & REGISTER_MASK)
          && ordinal < rodata.count) {
        Table segment = rodata.table((int) ordinal);
        Vector bytes = segment.vector(RODATA_EMBEDDED_DATA, 1, "embedded_data");
        return bytes == null ? Optional.empty() : text(fb, bytes);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> text(FlatBuffer fb, Vector bytes) {
    if (bytes.count > MAX_SCOPE_BYTES) {
      return Optional.empty();
    }
    byte[] b = new byte[bytes.count];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) fb.u8(bytes.element(i));
      if (b[i] >= 0 && b[i] < 0x20) {
        return Optional.empty();
      }
    }
    try {
      return Optional.of(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(b))
              .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /** Arguments in a non-variadic calling convention such as {@code 0rIrrrIiirrr_r}; -1 else. */
  static int argumentCount(String cconv) {
    int underscore = cconv.indexOf('_');
    if (cconv.isEmpty() || underscore < 1 || cconv.indexOf('C') >= 0) {
      return -1;
    }
    String args = cconv.substring(1, underscore);
    return args.equals("v") ? 0 : args.length();
  }
}
