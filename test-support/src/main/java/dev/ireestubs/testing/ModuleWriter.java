package dev.ireestubs.testing;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.ireestubs.testing.TestModules.Spec;
import java.util.List;

/**
 * The {@link FlatBufferBuilder} calls for one {@link Spec}: writes the sections ({@link
 * ModuleSections}, {@link FunctionBodies}), then the root table with the field ids of the spec's
 * revision, and finishes the buffer, bare or size-prefixed, with the spec's identifier.
 */
final class ModuleWriter {
  private final Spec spec;
  private final FlatBufferBuilder b = new FlatBufferBuilder(1024);
  private final ModuleSections sections;
  private final FunctionBodies code;

  ModuleWriter(Spec spec) {
    this.spec = spec;
    this.sections = new ModuleSections(spec, b);
    this.code = new FunctionBodies(spec, b);
  }

  /** The offsets every revision's root points at. */
  private record Common(
      int name,
      int types,
      int imports,
      int exports,
      int descriptors,
      int bytecode,
      int state,
      int rodata,
      int rwdata) {}

  byte[] finish(boolean prefixed) {
    int name = b.createString(spec.name);
    int types = sections.types();
    int imports = sections.imports();
    int exports = sections.exports();
    List<byte[]> bodies = code.bodies();
    int descriptors = code.descriptors(bodies);
    int bytecode = code.bytecode(bodies);
    int state = sections.moduleState();
    int rodata = sections.rodata();
    int rwdata = sections.rwdata();
    Common c =
        new Common(name, types, imports, exports, descriptors, bytecode, state, rodata, rwdata);
    int root;
    switch (spec.schema) {
      case S2019, S2020 -> root = root2019(c);
      case S2021 -> root = root2021(c);
      case S2022_05, S2022_06_27 -> root = root2022May(c);
      case S2022_06_28 -> root = root2022June28(c);
      case S2022_08 -> root = root2022Aug(c);
      case S2023 -> root = root2023(c);
      default -> throw new AssertionError(spec.schema);
    }
    if (prefixed) {
      b.finishSizePrefixed(root, spec.fileIdentifier());
    } else {
      b.finish(root, spec.fileIdentifier());
    }
    return b.sizedByteArray();
  }

  /** 2019-12 and 2020-09: internal_functions at 4. */
  private int root2019(Common c) {
    int internal = sections.functionTables(true);
    b.startTable(10);
    b.addOffset(0, c.name(), 0);
    b.addOffset(1, c.types(), 0);
    b.addOffset(2, c.imports(), 0);
    b.addOffset(3, c.exports(), 0);
    b.addOffset(4, internal, 0);
    b.addOffset(5, c.rodata(), 0);
    b.addOffset(6, c.rwdata(), 0);
    b.addOffset(7, c.state(), 0);
    b.addOffset(8, c.descriptors(), 0);
    b.addOffset(9, c.bytecode(), 0);
    return b.endTable();
  }

  /** 2021-09: internal_functions removed. */
  private int root2021(Common c) {
    b.startTable(10);
    b.addOffset(0, c.name(), 0);
    b.addOffset(1, c.types(), 0);
    b.addOffset(2, c.imports(), 0);
    b.addOffset(3, c.exports(), 0);
    b.addOffset(4, c.rodata(), 0);
    b.addOffset(5, c.rwdata(), 0);
    b.addOffset(6, c.state(), 0);
    b.addOffset(7, c.descriptors(), 0);
    b.addOffset(8, c.bytecode(), 0);
    return b.endTable();
  }

  /** 2022-05-16 and 2022-06-27: bytecode_version at 8. */
  private int root2022May(Common c) {
    b.startTable(11);
    b.addOffset(0, c.name(), 0);
    b.addOffset(1, c.types(), 0);
    b.addOffset(2, c.imports(), 0);
    b.addOffset(3, c.exports(), 0);
    b.addOffset(4, c.rodata(), 0);
    b.addOffset(5, c.rwdata(), 0);
    b.addOffset(6, c.state(), 0);
    b.addOffset(7, c.descriptors(), 0);
    b.addInt(8, spec.bytecodeVersion, 0);
    b.addOffset(9, c.bytecode(), 0);
    return b.endTable();
  }

  /** 2022-06-28: module attrs at 1. */
  private int root2022June28(Common c) {
    int attrs = sections.attrs(spec.moduleAttrs);
    b.startTable(12);
    b.addOffset(0, c.name(), 0);
    b.addOffset(1, attrs, 0);
    b.addOffset(2, c.types(), 0);
    b.addOffset(3, c.imports(), 0);
    b.addOffset(4, c.exports(), 0);
    b.addOffset(5, c.rodata(), 0);
    b.addOffset(6, c.rwdata(), 0);
    b.addOffset(7, c.state(), 0);
    b.addOffset(8, c.descriptors(), 0);
    b.addInt(9, spec.bytecodeVersion, 0);
    b.addOffset(10, c.bytecode(), 0);
    return b.endTable();
  }

  /** 2022-08: version at 1, dependencies at 4. */
  private int root2022Aug(Common c) {
    int attrs = sections.attrs(spec.moduleAttrs);
    int deps = sections.dependencies();
    b.startTable(14);
    b.addOffset(0, c.name(), 0);
    b.addInt(1, (int) spec.version, 0);
    b.addOffset(2, attrs, 0);
    b.addOffset(3, c.types(), 0);
    b.addOffset(4, deps, 0);
    b.addOffset(5, c.imports(), 0);
    b.addOffset(6, c.exports(), 0);
    b.addOffset(7, c.rodata(), 0);
    b.addOffset(8, c.rwdata(), 0);
    b.addOffset(9, c.state(), 0);
    b.addOffset(10, c.descriptors(), 0);
    b.addInt(11, spec.bytecodeVersion, 0);
    b.addOffset(12, c.bytecode(), 0);
    return b.endTable();
  }

  /** 2023-02: requirements at 2, function_signatures at 8. */
  private int root2023(Common c) {
    int attrs = sections.attrs(spec.moduleAttrs);
    int deps = sections.dependencies();
    int signatures = sections.functionTables(false);
    b.startTable(16);
    b.addOffset(0, c.name(), 0);
    b.addInt(1, (int) spec.version, 0);
    b.addInt(2, 1, 0); // requirements: EXT_F32
    b.addOffset(3, attrs, 0);
    b.addOffset(4, c.types(), 0);
    b.addOffset(5, deps, 0);
    b.addOffset(6, c.imports(), 0);
    b.addOffset(7, c.exports(), 0);
    b.addOffset(8, signatures, 0);
    b.addOffset(9, c.rodata(), 0);
    b.addOffset(10, c.rwdata(), 0);
    b.addOffset(11, c.state(), 0);
    b.addOffset(12, c.descriptors(), 0);
    b.addInt(13, spec.bytecodeVersion, 0);
    b.addOffset(14, c.bytecode(), 0);
    return b.endTable();
  }
}
