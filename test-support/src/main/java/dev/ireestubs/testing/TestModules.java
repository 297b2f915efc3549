package dev.ireestubs.testing;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Builds IREE modules of every schema revision with flatbuffers-java's {@link FlatBufferBuilder},
 * so the reader is tested without real files. Field ids are written out here from the schema
 * history table (section 7.1 of the ABI reference), independently of the reader's own tables.
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
    String identifier = "IREE";
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

    public Spec schema(Schema s) {
      schema = s;
      if (s == Schema.S2019) {
        identifier = "BMOD";
      }
      return this;
    }

    public Spec identifier(String id) {
      identifier = id;
      return this;
    }

    public Spec name(String n) {
      name = n;
      return this;
    }

    public Spec version(long v) {
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
      return new Writer(this).finish(prefixed);
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

  /** The FlatBufferBuilder calls for one spec. */
  private static final class Writer {
    private final Spec spec;
    private final FlatBufferBuilder b = new FlatBufferBuilder(1024);

    Writer(Spec spec) {
      this.spec = spec;
    }

    private boolean longSignatures() {
      return spec.schema == Schema.S2019
          || spec.schema == Schema.S2020
          || spec.schema == Schema.S2021
          || spec.schema == Schema.S2022_05;
    }

    private int attrs(List<String> kv) {
      if (kv.isEmpty()) {
        return 0;
      }
      int[] tables = new int[kv.size() / 2];
      for (int i = 0; i < tables.length; i++) {
        int k = b.createString(kv.get(2 * i));
        int v = b.createString(kv.get(2 * i + 1));
        b.startTable(2);
        b.addOffset(0, k, 0);
        b.addOffset(1, v, 0);
        tables[i] = b.endTable();
      }
      return b.createVectorOfTables(tables);
    }

    private int ints(int... values) {
      b.startVector(4, values.length, 4);
      for (int i = values.length - 1; i >= 0; i--) {
        b.addInt(values[i]);
      }
      return b.endVector();
    }

    private int signature(String cconv, List<String> kv) {
      int a = attrs(kv);
      int c = cconv == null ? 0 : b.createString(cconv);
      if (spec.schema == Schema.S2019) {
        int args = ints(0, 0);
        int results = ints(0);
        b.startTable(3);
        b.addOffset(0, args, 0);
        b.addOffset(1, results, 0);
        b.addOffset(2, a, 0);
        return b.endTable();
      }
      if (longSignatures()) {
        int args = ints(0, 0);
        int results = ints(0);
        b.startTable(4);
        b.addOffset(0, args, 0);
        b.addOffset(1, results, 0);
        b.addOffset(2, c, 0);
        b.addOffset(3, a, 0);
        return b.endTable();
      }
      b.startTable(2);
      b.addOffset(0, c, 0);
      b.addOffset(1, a, 0);
      return b.endTable();
    }

    private int types() {
      String[] names = {"!hal.buffer_view", "!hal.device", "i32"};
      int[] tables = new int[names.length];
      for (int i = 0; i < names.length; i++) {
        int s = b.createString(names[i]);
        b.startTable(1);
        b.addOffset(0, s, 0);
        tables[i] = b.endTable();
      }
      return b.createVectorOfTables(tables);
    }

    private int imports() {
      int[] tables = new int[spec.imports.size()];
      for (int i = 0; i < tables.length; i++) {
        int sig = signature(spec.imports.get(i)[1], List.of());
        int n = b.createString(spec.imports.get(i)[0]);
        b.startTable(3);
        b.addOffset(0, n, 0);
        b.addOffset(1, sig, 0);
        if (spec.schema == Schema.S2023) {
          b.addInt(2, 1, 1);
        }
        tables[i] = b.endTable();
      }
      return b.createVectorOfTables(tables);
    }

    private int moduleState() {
      b.startTable(2);
      b.addInt(0, 16, 0);
      b.addInt(1, 2, 0);
      return b.endTable();
    }

    private int rodata() {
      int data = b.createByteVector(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
      b.startTable(5);
      b.addOffset(2, data, 0);
      return b.createVectorOfTables(new int[] {b.endTable()});
    }

    private int rwdata() {
      b.startTable(1);
      b.addInt(0, 64, 0);
      return b.createVectorOfTables(new int[] {b.endTable()});
    }

    private int dependencies() {
      int n = b.createString("hal");
      b.startTable(3);
      b.addOffset(0, n, 0);
      b.addInt(1, 2, 0);
      return b.createVectorOfTables(new int[] {b.endTable()});
    }

    /** Each function's body, in order: given, or the default one. */
    private List<byte[]> bodies() {
      List<byte[]> out = new ArrayList<>();
      for (int i = 0; i < Math.max(1, spec.functions.size()); i++) {
        byte[] given = spec.bodies.get(i);
        out.add(
            given != null
                ? given
                : defaultBody(i < spec.functions.size() ? spec.functions.get(i).cconv() : null));
      }
      return out;
    }

    /** A block returning the first arguments of each result's kind (refs, then i32 registers). */
    private byte[] defaultBody(String cconv) {
      TestBytecode code = new TestBytecode();
      if (spec.bytecodeVersion >= (15 << 16)) {
        code.block();
      }
      List<Integer> regs = new ArrayList<>();
      int underscore = cconv == null ? -1 : cconv.indexOf('_');
      int refs = 0;
      int ints = 0;
      for (int i = underscore + 1; underscore > 0 && i < cconv.length(); i++) {
        char c = cconv.charAt(i);
        if (c == 'r') {
          regs.add(TestBytecode.ref(refs++ % spec.refRegisters));
        } else if (c == 'i' || c == 'f') {
          regs.add(TestBytecode.i32(ints++ % spec.i32Registers));
        } else if (c == 'I' || c == 'F') {
          ints += ints % 2;
          regs.add(TestBytecode.i32(ints % spec.i32Registers));
          ints += 2;
        }
      }
      return code.ret(regs.stream().mapToInt(Integer::intValue).toArray()).bytes();
    }

    private int descriptors(List<byte[]> bodies) {
      int n = spec.functions.size();
      boolean wide = spec.schema == Schema.S2023;
      int[] offsets = new int[n];
      for (int i = 1; i < n; i++) {
        offsets[i] = offsets[i - 1] + padded(bodies.get(i - 1).length);
      }
      b.startVector(wide ? 20 : 12, n, 4);
      for (int i = n - 1; i >= 0; i--) {
        if (wide) {
          b.prep(4, 20);
          b.putShort((short) spec.refRegisters);
          b.putShort((short) spec.i32Registers);
          b.putShort((short) 1); // block count
          b.putShort((short) 0); // reserved
          b.putInt(0); // requirements
        } else {
          b.prep(4, 12);
          b.putShort((short) spec.refRegisters);
          b.putShort((short) spec.i32Registers);
        }
        b.putInt(bodies.get(i).length);
        b.putInt(offsets[i]);
      }
      return b.endVector();
    }

    /** Bodies start 8-aligned, as IREE lays them out. */
    private static int padded(int length) {
      return (length + 7) & ~7;
    }

    private int bytecode(List<byte[]> bodies) {
      ByteArrayOutputStream code = new ByteArrayOutputStream();
      for (byte[] body : bodies) {
        code.write(body, 0, body.length);
        for (int i = body.length; i < padded(body.length); i++) {
          code.write(0);
        }
      }
      return b.createByteVector(code.toByteArray());
    }

    private int functionTables(boolean internal) {
      int[] tables = new int[spec.functions.size()];
      for (int i = 0; i < tables.length; i++) {
        Fn f = spec.functions.get(i);
        int sig = signature(f.cconv(), f.attrs());
        if (internal) {
          int n = f.name() == null ? 0 : b.createString(f.name());
          b.startTable(2);
          b.addOffset(0, n, 0);
          b.addOffset(1, sig, 0);
          tables[i] = b.endTable();
        } else {
          tables[i] = sig;
        }
      }
      return b.createVectorOfTables(tables);
    }

    private int exports() {
      List<Integer> tables = new ArrayList<>();
      for (Export e : spec.exports) {
        int n = b.createString(e.name());
        int t;
        if (spec.schema == Schema.S2023) {
          b.startTable(2);
          b.addOffset(0, n, 0);
          b.addInt(1, e.ordinal(), 0);
          t = b.endTable();
        } else {
          int sig = signature(e.cconv(), e.attrs());
          b.startTable(3);
          b.addOffset(0, n, 0);
          b.addOffset(1, sig, 0);
          b.addInt(2, e.ordinal(), 0);
          t = b.endTable();
        }
        for (int r = 0; r < spec.exportRepeat; r++) {
          tables.add(t);
        }
      }
      return b.createVectorOfTables(tables.stream().mapToInt(Integer::intValue).toArray());
    }

    byte[] finish(boolean prefixed) {
      int name = b.createString(spec.name);
      int types = types();
      int imports = imports();
      int exports = exports();
      List<byte[]> bodies = bodies();
      int descriptors = descriptors(bodies);
      int bytecode = bytecode(bodies);
      int state = moduleState();
      int rodata = rodata();
      int rwdata = rwdata();
      int root;
      switch (spec.schema) {
        case S2019, S2020 -> {
          int internal = functionTables(true);
          b.startTable(10);
          b.addOffset(0, name, 0);
          b.addOffset(1, types, 0);
          b.addOffset(2, imports, 0);
          b.addOffset(3, exports, 0);
          b.addOffset(4, internal, 0);
          b.addOffset(5, rodata, 0);
          b.addOffset(6, rwdata, 0);
          b.addOffset(7, state, 0);
          b.addOffset(8, descriptors, 0);
          b.addOffset(9, bytecode, 0);
          root = b.endTable();
        }
        case S2021 -> {
          b.startTable(10);
          b.addOffset(0, name, 0);
          b.addOffset(1, types, 0);
          b.addOffset(2, imports, 0);
          b.addOffset(3, exports, 0);
          b.addOffset(4, rodata, 0);
          b.addOffset(5, rwdata, 0);
          b.addOffset(6, state, 0);
          b.addOffset(7, descriptors, 0);
          b.addOffset(8, bytecode, 0);
          root = b.endTable();
        }
        case S2022_05, S2022_06_27 -> {
          b.startTable(11);
          b.addOffset(0, name, 0);
          b.addOffset(1, types, 0);
          b.addOffset(2, imports, 0);
          b.addOffset(3, exports, 0);
          b.addOffset(4, rodata, 0);
          b.addOffset(5, rwdata, 0);
          b.addOffset(6, state, 0);
          b.addOffset(7, descriptors, 0);
          b.addInt(8, spec.bytecodeVersion, 0);
          b.addOffset(9, bytecode, 0);
          root = b.endTable();
        }
        case S2022_06_28 -> {
          int attrs = attrs(spec.moduleAttrs);
          b.startTable(12);
          b.addOffset(0, name, 0);
          b.addOffset(1, attrs, 0);
          b.addOffset(2, types, 0);
          b.addOffset(3, imports, 0);
          b.addOffset(4, exports, 0);
          b.addOffset(5, rodata, 0);
          b.addOffset(6, rwdata, 0);
          b.addOffset(7, state, 0);
          b.addOffset(8, descriptors, 0);
          b.addInt(9, spec.bytecodeVersion, 0);
          b.addOffset(10, bytecode, 0);
          root = b.endTable();
        }
        case S2022_08 -> {
          int attrs = attrs(spec.moduleAttrs);
          int deps = dependencies();
          b.startTable(14);
          b.addOffset(0, name, 0);
          b.addInt(1, (int) spec.version, 0);
          b.addOffset(2, attrs, 0);
          b.addOffset(3, types, 0);
          b.addOffset(4, deps, 0);
          b.addOffset(5, imports, 0);
          b.addOffset(6, exports, 0);
          b.addOffset(7, rodata, 0);
          b.addOffset(8, rwdata, 0);
          b.addOffset(9, state, 0);
          b.addOffset(10, descriptors, 0);
          b.addInt(11, spec.bytecodeVersion, 0);
          b.addOffset(12, bytecode, 0);
          root = b.endTable();
        }
        case S2023 -> {
          int attrs = attrs(spec.moduleAttrs);
          int deps = dependencies();
          int signatures = functionTables(false);
          b.startTable(16);
          b.addOffset(0, name, 0);
          b.addInt(1, (int) spec.version, 0);
          b.addInt(2, 1, 0); // requirements: EXT_F32
          b.addOffset(3, attrs, 0);
          b.addOffset(4, types, 0);
          b.addOffset(5, deps, 0);
          b.addOffset(6, imports, 0);
          b.addOffset(7, exports, 0);
          b.addOffset(8, signatures, 0);
          b.addOffset(9, rodata, 0);
          b.addOffset(10, rwdata, 0);
          b.addOffset(11, state, 0);
          b.addOffset(12, descriptors, 0);
          b.addInt(13, spec.bytecodeVersion, 0);
          b.addOffset(14, bytecode, 0);
          root = b.endTable();
        }
        default -> throw new AssertionError(spec.schema);
      }
      if (prefixed) {
        b.finishSizePrefixed(root, spec.identifier);
      } else {
        b.finish(root, spec.identifier);
      }
      return b.sizedByteArray();
    }
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
  @SuppressWarnings("ByteBufferBackingArray") // every buffer is le(n): allocated, offset 0
  public static byte[] ireeZip(byte[] sizePrefixedModule, boolean deflateMarker) {
    int flatBuffer = sizePrefixedModule.length - 4;
    int padded = roundUp(4 + flatBuffer, 64);
    byte[] module = Arrays.copyOf(sizePrefixedModule, padded);
    ByteBuffer.wrap(module).order(ByteOrder.LITTLE_ENDIAN).putInt(0, padded - 4);
    long moduleRecorded = padded - 4L;
    byte[] executable = "\u007fELF executable bytes".getBytes(StandardCharsets.ISO_8859_1);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<byte[]> central = new ArrayList<>();
    String[] names = {"module.fb", "main_dispatch_0_embedded_elf_x86_64.so"};
    byte[][] datas = {module, executable};
    long[] recorded = {moduleRecorded, executable.length};
    for (int i = 0; i < 2; i++) {
      byte[] name = names[i].getBytes(StandardCharsets.UTF_8);
      long headerAt = out.size();
      int method = i == 0 && deflateMarker ? 8 : 0;
      // Pad so that the data is 64-byte aligned: 30 + name + (4 + pad) + 20 (ZIP64 field).
      int fixed = 30 + name.length + 4 + 20;
      int pad = (int) (roundUp(headerAt + fixed, 64) - (headerAt + fixed));
      CRC32 crc = new CRC32();
      crc.update(datas[i], 0, (int) Math.min(datas[i].length, recorded[i]));
      ByteBuffer h = le(30 + name.length + 4 + pad + 20);
      h.putInt(0x04034b50).putShort((short) 45).putShort((short) 0);
      h.putShort((short) method).putShort((short) 0).putShort((short) 0x21);
      h.putInt((int) crc.getValue()).putInt(-1).putInt(-1);
      h.putShort((short) name.length).putShort((short) (4 + pad + 20));
      h.put(name);
      h.putShort((short) 0xFECA).putShort((short) pad).put(new byte[pad]);
      h.putShort((short) 1).putShort((short) 16).putLong(recorded[i]).putLong(recorded[i]);
      out.writeBytes(h.array());
      out.writeBytes(datas[i]);

      ByteBuffer c = le(46 + name.length + 28);
      c.putInt(0x02014b50).putShort((short) 45).putShort((short) 45).putShort((short) 0);
      c.putShort((short) method).putShort((short) 0).putShort((short) 0x21);
      c.putInt((int) crc.getValue()).putInt(-1).putInt(-1);
      c.putShort((short) name.length).putShort((short) 28).putShort((short) 0);
      c.putShort((short) 0).putShort((short) 0).putInt(0).putInt(-1);
      c.put(name);
      c.putShort((short) 1).putShort((short) 24).putLong(recorded[i]).putLong(recorded[i]);
      c.putLong(headerAt);
      central.add(c.array());
    }
    long directoryAt = out.size();
    for (byte[] c : central) {
      out.writeBytes(c);
    }
    long directorySize = out.size() - directoryAt;
    long zip64EndAt = out.size();
    ByteBuffer z = le(56);
    z.putInt(0x06064b50).putLong(44).putShort((short) 45).putShort((short) 45);
    z.putInt(0).putInt(0).putLong(2).putLong(2).putLong(directorySize).putLong(directoryAt);
    out.writeBytes(z.array());
    ByteBuffer locator = le(20);
    locator.putInt(0x07064b50).putInt(0).putLong(zip64EndAt).putInt(1);
    out.writeBytes(locator.array());
    ByteBuffer end = le(22);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0);
    end.putShort((short) 2).putShort((short) 2).putInt((int) directorySize).putInt(-1);
    end.putShort((short) 0);
    out.writeBytes(end.array());
    return out.toByteArray();
  }

  /**
   * A plain archive from {@link ZipOutputStream}: entries in the given order, module.fb stored (or
   * deflated), no alignment, no ZIP64.
   */
  public static byte[] javaZip(byte[] moduleFb, boolean deflate, String... otherNamesFirst) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
        for (String other : otherNamesFirst) {
          putStored(zip, other, other.getBytes(StandardCharsets.UTF_8));
        }
        if (moduleFb != null) {
          if (deflate) {
            ZipEntry e = new ZipEntry("module.fb");
            e.setMethod(ZipEntry.DEFLATED);
            zip.putNextEntry(e);
            zip.write(moduleFb);
            zip.closeEntry();
          } else {
            putStored(zip, "module.fb", moduleFb);
          }
        }
        putStored(zip, "kernel.so", new byte[] {1, 2, 3});
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void putStored(ZipOutputStream zip, String name, byte[] data) throws IOException {
    ZipEntry e = new ZipEntry(name);
    e.setMethod(ZipEntry.STORED);
    e.setSize(data.length);
    e.setCompressedSize(data.length);
    CRC32 crc = new CRC32();
    crc.update(data);
    e.setCrc(crc.getValue());
    zip.putNextEntry(e);
    zip.write(data);
    zip.closeEntry();
  }

  private static ByteBuffer le(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static long roundUp(long v, int to) {
    return (v + to - 1) / to * to;
  }

  private static int roundUp(int v, int to) {
    return (v + to - 1) / to * to;
  }
}
