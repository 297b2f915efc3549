package dev.ireestubs.testing;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipOutputStream;

/**
 * Builds IREE modules of every schema revision with flatbuffers-java's {@link FlatBufferBuilder},
 * so the reader is tested without real files. Field ids are written out in this package ({@code
 * ModuleWriter}, {@code ModuleSections}) from the schema history table (section 7.1 of the ABI
 * reference), independently of the reader's own tables.
 *
 * <p>Lives in the test-support module, so that every module's tests build modules the same way.
 *
 * <p>Modules carry what real ones carry besides reflection (types, an import, module state,
 * function descriptors over bytecode, rodata, dependencies), so that layout detection sees
 * realistic neighbours.
 */
public final class TestModules {

  private TestModules() {}

  /** The schema revisions, with the root field ids of each. */
  public enum Schema {
    /** 2019-12: BMOD, signatures {0 argument_types, 1 result_types, 2 reflection_attrs}. */
    S2019,
    /** 2020-09: signatures {0 argument_types, 1 result_types, 2 calling_convention, 3 attrs}. */
    S2020,
    /** 2021-09: internal_functions removed. */
    S2021,
    /** 2022-05-16: bytecode_version at 8; long signatures. */
    S2022_05,
    /** 2022-06-27: same root, signatures {0 calling_convention, 1 attrs}. */
    S2022_06_27,
    /** 2022-06-28: module attrs at 1. */
    S2022_06_28,
    /** 2022-08: version, dependencies. */
    S2022_08,
    /** 2023-02: function_signatures; exports {0 local_name, 1 internal_ordinal}. */
    S2023
  }

  /** One internal function (or, from 2023-02, one function_signatures entry). */
  public record Fn(String name, String cconv, List<String> attrs) {
    public static Fn of(String name, String cconv, String... attrs) {
      return new Fn(name, cconv, List.of(attrs));
    }
  }

  /** One export: for revisions with a signature on the export, its own cconv and attrs. */
  public record Export(String name, int ordinal, String cconv, List<String> attrs) {
    public static Export of(String name, int ordinal, String cconv, String... attrs) {
      return new Export(name, ordinal, cconv, List.of(attrs));
    }
  }

  /** What to build. */
  public static final class Spec {
    Schema schema = Schema.S2023;
    String identifier; // null: the schema's (fileIdentifier)
    String name = "module";
    long version = 0;
    int bytecodeVersion = 0x000F0000;
    List<String> moduleAttrs = List.of();
    List<Fn> functions = new ArrayList<>();
    List<Export> exports = new ArrayList<>();
    java.util.Map<Integer, byte[]> bodies = new java.util.HashMap<>();
    List<String[]> imports = List.<String[]>of(new String[] {"hal.buffer_view.create", "0r_r"});
    int i32Registers = 16;
    int refRegisters = 16;

    /** Replaces export {@code index} (tests that corrupt one export of a typical module). */
    public Spec replaceExport(int index, Export export) {
      exports.set(index, export);
      return this;
    }

    /** Repeats each export's table this many times in the exports vector (aliasing tests). */
    int exportRepeat = 1;

    /** The schema revision; it also picks the file identifier unless one is set. */
    public Spec schema(Schema s) {
      schema = s;
      return this;
    }

    /** A file identifier in place of the schema's ({@code BMOD} for 2019-12, else {@code IREE}). */
    public Spec identifier(String id) {
      identifier = id;
      return this;
    }

    /** The identifier written: the one set, else the schema's, whatever the order of the calls. */
    String fileIdentifier() {
      return identifier != null ? identifier : schema == Schema.S2019 ? "BMOD" : "IREE";
    }

    public Spec name(String n) {
      name = n;
      return this;
    }

    /** The module's version, a uint32 in every layout that has one. */
    public Spec version(long v) {
      if (v < 0 || v > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException("a module version is a uint32, but got " + v);
      }
      version = v;
      return this;
    }

    public Spec bytecodeVersion(int major, int minor) {
      bytecodeVersion = (major << 16) | minor;
      return this;
    }

    public Spec moduleAttrs(String... kv) {
      moduleAttrs = List.of(kv);
      return this;
    }

    public Spec function(String fname, String cconv, String... attrs) {
      functions.add(Fn.of(fname, cconv, attrs));
      return this;
    }

    public Spec export(String ename, int ordinal, String cconv, String... attrs) {
      exports.add(Export.of(ename, ordinal, cconv, attrs));
      return this;
    }

    /**
     * The body of internal function {@code function} (see {@link TestBytecode}); without one, a
     * function's body is a block that returns its first arguments of each result's kind.
     */
    public Spec body(int function, byte[] code) {
      bodies.put(function, code);
      return this;
    }

    /** The imports, as name and calling convention pairs, replacing the default one. */
    public Spec imports(String... nameAndCconv) {
      if (nameAndCconv.length % 2 != 0) {
        throw new IllegalArgumentException(
            "imports take pairs of a name and a calling convention, but got "
                + nameAndCconv.length
                + " strings");
      }
      List<String[]> list = new ArrayList<>();
      for (int i = 0; i + 1 < nameAndCconv.length; i += 2) {
        list.add(new String[] {nameAndCconv[i], nameAndCconv[i + 1]});
      }
      imports = list;
      return this;
    }

    /** The register counts every function descriptor states. */
    public Spec registers(int i32, int refs) {
      i32Registers = i32;
      refRegisters = refs;
      return this;
    }

    public Spec exportRepeat(int n) {
      exportRepeat = n;
      return this;
    }

    public byte[] bare() {
      return build(false);
    }

    public byte[] sizePrefixed() {
      return build(true);
    }

    /**
     * An archive as IREE writes it: module.fb padded to 64 bytes, ZIP64 records, one executable.
     */
    public byte[] ireeZip() {
      return TestModules.ireeZip(sizePrefixed(), false);
    }

    private byte[] build(boolean prefixed) {
      return new ModuleWriter(this).finish(prefixed);
    }
  }

  public static Spec spec() {
    return new Spec();
  }

  /** A typical module of the given revision: simple_mul, its async variant, __init. */
  public static Spec typical(Schema schema) {
    Spec s = spec().schema(schema);
    switch (schema) {
      case S2019, S2020 ->
          // Reflection sits on the internal $sync function; the export points at it.
          s.function("simple_mul", "0rr_r")
              .function("simple_mul$async", "0rirrri_r")
              .function("simple_mul$sync", "0rr_r", "f", "I11!B3!d4B3!d4R6!B3!d4", "fv", "1")
              .function("__init", "0v_v")
              .export("simple_mul$async", 1, "0rirrri_r")
              .export("simple_mul", 2, "0rr_r")
              .export("__init", 3, "0v_v");
      case S2023 ->
          s.bytecodeVersion(15, 0)
              .moduleAttrs("iree.compiler", "test")
              .function("_helper", "0r_r", "internal.attr", "not an export")
              .function(
                  "main",
                  "0rr_r",
                  "iree.abi.declaration",
                  "sync func @main(%input0: tensor<4xf32>, %input1: tensor<4xf32>) -> (%output0:"
                      + " tensor<4xf32>)")
              .function("__init", "0v_v")
              .export("main", 1, null)
              .export("__init", 2, null);
      default -> {
        s.bytecodeVersion(schema == Schema.S2022_08 ? 13 : 2, 0)
            .function("filter_add", "0rrr_r")
            .function("__init", "0v_v")
            .export("filter_add", 0, "0rrr_r", "iree.abi.model", "coarse-fences")
            .export("__init", 1, "0v_v");
        if (schema == Schema.S2022_06_28 || schema == Schema.S2022_08) {
          s.moduleAttrs("origin", "unit test");
        }
        if (schema == Schema.S2022_08) {
          s.version(3);
        }
      }
    }
    return s;
  }

  // ------------------------------------------------------------------ ZIP archives

  /**
   * The archive IREE writes: a local header for module.fb with a 0xCAFE padding field and a ZIP64
   * sizes field so that the data starts at byte 64; the size-prefixed module padded so prefix + 4
   * is a multiple of 64, its recorded size equal to the prefix (4 bytes short, as IREE records it);
   * an executable entry; a central directory with ZIP64 fields, a ZIP64 end record, its locator and
   * an end record whose directory offset is 0xFFFFFFFF.
   *
   * @param sizePrefixedModule the module as {@link Spec#sizePrefixed()} writes it
   * @param deflateMarker write method 8 for module.fb (the bytes stay as they are)
   */
  public static byte[] ireeZip(byte[] sizePrefixedModule, boolean deflateMarker) {
    return ModuleArchives.ireeZip(sizePrefixedModule, deflateMarker);
  }

  /**
   * A plain archive from {@link ZipOutputStream}: entries in the given order, module.fb stored (or
   * deflated), no alignment, no ZIP64.
   */
  public static byte[] javaZip(byte[] moduleFb, boolean deflate, String... otherNamesFirst) {
    return ModuleArchives.javaZip(moduleFb, deflate, otherNamesFirst);
  }
}
