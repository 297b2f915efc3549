package dev.ireestubs.vmfb;

import java.util.Optional;

/**
 * The VM bytecode instruction set as far as a reader of types needs it: for each opcode of one
 * bytecode version, its mnemonic (as {@code iree-dump-module --output=disassembly} prints it) and
 * the layout of its operands, so that every op can be stepped over and the registers it writes are
 * known.
 *
 * <p>Facts from IREE's sources ({@code runtime/src/iree/vm/bytecode/utils/generated/op_table.h} for
 * the opcodes, {@code verifier.c} and {@code disassembler.c} for the layouts and mnemonics, at
 * v3.11.0 for bytecode 17, v3.10.0 for 16, and the 2022-09 .. 2023-02 and 2023-03 .. 2026-01
 * sources for 13 and 15). The core table has one byte per op; {@code 0xE0} and {@code 0xE1} open
 * the f32 and f64 extension tables, whose opcode is the next byte.
 *
 * <p>Layout letters, in encoding order: {@code a} an i32 or f32 operand register, {@code A} an i64
 * or f64 one (two i32 registers, the first even), {@code r} a ref operand; {@code x}, {@code X},
 * {@code y} the same kinds as results; {@code 4} and {@code 8} inline immediates of 4 and 8 bytes
 * (attributes, ordinals, type ids, branch targets are {@code t}), {@code h} an inline u16; {@code
 * s} a string (u16 length, then the bytes); {@code v} a register list (aligned to 2 bytes: u16
 * count, then u16 registers) of operands and {@code V} of results, {@code z} a list of the same
 * form holding the segment sizes of a variadic call; {@code t} a branch target (u32 offset in the
 * function) and {@code m} its register remap list (aligned: u16 count, then pairs of u16 source and
 * destination registers).
 *
 * <p>What differs between versions: 13 has no {@code <block>} markers (0x79), no ops from 0x79 on,
 * and {@code vm.buffer.alloc}/{@code vm.buffer.clone} without their alignment operand; 15 adds
 * those; its {@code vm.switch.i32/i64/f32/f64} changed encoding in 2023-05 (default value inline,
 * then a register) with no version bump, so they cannot be read with confidence; 16 adds {@code
 * vm.discard.refs} and {@code vm.assign.ref}; 17 adds {@code vm.call.yieldable} and {@code
 * vm.call.variadic.yieldable}.
 */
final class BytecodeOps {

  /** The table of core ops. */
  static final int CORE = 0;

  /** The f32 extension table, opened by {@link #PREFIX_F32}. */
  static final int F32 = 1;

  /** The f64 extension table, opened by {@link #PREFIX_F64}. */
  static final int F64 = 2;

  static final int PREFIX_F32 = 0xE0;
  static final int PREFIX_F64 = 0xE1;

  // Core opcodes the reader gives meaning to.
  static final int CONST_I32_ZERO = 0x0C;
  static final int CONST_I32 = 0x0D;
  static final int CONST_I64_ZERO = 0x0E;
  static final int CONST_I64 = 0x0F;
  static final int CONST_REF_ZERO = 0x10;
  static final int BRANCH = 0x56;
  static final int COND_BRANCH = 0x57;
  static final int CALL = 0x58;
  static final int CALL_VARIADIC = 0x59;
  static final int RETURN = 0x5A;
  static final int FAIL = 0x5B;
  static final int YIELD = 0x5D;
  static final int COND_BREAK = 0x60;
  static final int BREAK = 0x61;
  static final int BUFFER_ALLOC = 0x6C;
  static final int BUFFER_CLONE = 0x6D;
  static final int BLOCK = 0x79;
  static final int CAST_ANY_REF = 0x82;
  static final int BRANCH_TABLE = 0x83;
  static final int DISCARD_REFS = 0x85;
  static final int ASSIGN_REF = 0x86;
  static final int CALL_YIELDABLE = 0x87;
  static final int CALL_VARIADIC_YIELDABLE = 0x88;

  /** One op: its mnemonic and operand layout, or why this version's encoding of it is unknown. */
  record Op(int table, int code, String mnemonic, String layout, String unreadable) {
    boolean isTerminator() {
      if (table != CORE) {
        return false;
      }
      return switch (code) {
        case BRANCH,
            COND_BRANCH,
            RETURN,
            FAIL,
            YIELD,
            COND_BREAK,
            BREAK,
            BRANCH_TABLE,
            CALL_YIELDABLE,
            CALL_VARIADIC_YIELDABLE ->
            true;
        default -> false;
      };
    }
  }

  private final Op[][] tables = new Op[3][256];
  private final String version;
  private final boolean blockMarkers;

  private BytecodeOps(String version, boolean blockMarkers) {
    this.version = version;
    this.blockMarkers = blockMarkers;
  }

  /** The version's name, e.g. {@code 17.0}, for messages. */
  String version() {
    return version;
  }

  /** Whether blocks begin with a {@code <block>} op (15 on); before, branch targets start them. */
  boolean blockMarkers() {
    return blockMarkers;
  }

  /** The op {@code code} of {@code table}, or null when this version has none. */
  Op op(int table, int code) {
    return tables[table][code];
  }

  /**
   * The instruction set of {@code version}; empty with the reason in {@code why} when this reader
   * does not know it.
   */
  static Optional<BytecodeOps> of(BytecodeVersion version) {
    return switch (version.major()) {
      case 17 -> Optional.of(V17);
      case 16 -> Optional.of(V16);
      case 15 -> Optional.of(V15);
      case 13 -> Optional.of(V13);
      default -> Optional.empty();
    };
  }

  /** The versions {@link #of} knows, for messages. */
  static final String KNOWN = "13, 15, 16 and 17";

  private static final BytecodeOps V17 = build(17);
  private static final BytecodeOps V16 = build(16);
  private static final BytecodeOps V15 = build(15);
  private static final BytecodeOps V13 = build(13);

  private static BytecodeOps build(int major) {
    BytecodeOps ops = new BytecodeOps(major + ".x", major >= 15);
    ops.fill();
    ops.restrict(major);
    return ops;
  }

  /** Removes or changes what {@code major} lacks or encodes otherwise than 17. */
  private void restrict(int major) {
    if (major < 17) {
      tables[CORE][CALL_YIELDABLE] = null;
      tables[CORE][CALL_VARIADIC_YIELDABLE] = null;
    }
    if (major < 16) {
      tables[CORE][DISCARD_REFS] = null;
      tables[CORE][ASSIGN_REF] = null;
      String why =
          "its encoding changed within bytecode 15 (2023-05: the default value went from an inline"
              + " constant to a register) and the module does not say which it has";
      for (int[] switchOp : new int[][] {{CORE, 0x1F}, {CORE, 0x20}, {F32, 0x09}, {F64, 0x09}}) {
        Op op = tables[switchOp[0]][switchOp[1]];
        tables[switchOp[0]][switchOp[1]] = new Op(op.table, op.code, op.mnemonic, op.layout, why);
      }
    }
    if (major < 15) {
      for (int code = BLOCK; code < 0x100; code++) {
        tables[CORE][code] = null;
      }
      for (int code = 0x37; code < 0x100; code++) {
        tables[F32][code] = null;
      }
      for (int code = 0x3D; code < 0x100; code++) {
        tables[F64][code] = null;
      }
      op(CORE, BUFFER_ALLOC, "vm.buffer.alloc", "Ay");
      op(CORE, BUFFER_CLONE, "vm.buffer.clone", "rAAy");
    }
  }

  private void op(int table, int code, String mnemonic, String layout) {
    tables[table][code] = new Op(table, code, mnemonic, layout, null);
  }

  /** The ops of bytecode 17 (IREE v3.11.0). */
  private void fill() {
    op(CORE, 0x00, "vm.global.load.i32", "4x");
    op(CORE, 0x01, "vm.global.store.i32", "4a");
    op(CORE, 0x02, "vm.global.load.indirect.i32", "ax");
    op(CORE, 0x03, "vm.global.store.indirect.i32", "aa");
    op(CORE, 0x04, "vm.global.load.i64", "4X");
    op(CORE, 0x05, "vm.global.store.i64", "4A");
    op(CORE, 0x06, "vm.global.load.indirect.i64", "aX");
    op(CORE, 0x07, "vm.global.store.indirect.i64", "aA");
    op(CORE, 0x08, "vm.global.load.ref", "44y");
    op(CORE, 0x09, "vm.global.store.ref", "44r");
    op(CORE, 0x0A, "vm.global.load.indirect.ref", "a4y");
    op(CORE, 0x0B, "vm.global.store.indirect.ref", "a4r");
    op(CORE, 0x0C, "vm.const.i32.zero", "x");
    op(CORE, 0x0D, "vm.const.i32", "4x");
    op(CORE, 0x0E, "vm.const.i64.zero", "X");
    op(CORE, 0x0F, "vm.const.i64", "8X");
    op(CORE, 0x10, "vm.const.ref.zero", "y");
    op(CORE, 0x11, "vm.const.ref.rodata", "4y");
    op(CORE, 0x12, "vm.list.alloc", "4ay");
    op(CORE, 0x13, "vm.list.reserve", "ra");
    op(CORE, 0x14, "vm.list.size", "rx");
    op(CORE, 0x15, "vm.list.resize", "ra");
    op(CORE, 0x16, "vm.list.get.i32", "rax");
    op(CORE, 0x17, "vm.list.set.i32", "raa");
    op(CORE, 0x18, "vm.list.get.i64", "raX");
    op(CORE, 0x19, "vm.list.set.i64", "raA");
    op(CORE, 0x1A, "vm.list.get.ref", "ra4y");
    op(CORE, 0x1B, "vm.list.set.ref", "rar");
    op(CORE, 0x1C, "vm.select.i32", "aaax");
    op(CORE, 0x1D, "vm.select.i64", "aAAX");
    op(CORE, 0x1E, "vm.select.ref", "a4rry");
    op(CORE, 0x1F, "vm.switch.i32", "aavx");
    op(CORE, 0x20, "vm.switch.i64", "aAvX");
    op(CORE, 0x21, "vm.switch.ref", "a4rvy");
    op(CORE, 0x22, "vm.add.i32", "aax");
    op(CORE, 0x23, "vm.sub.i32", "aax");
    op(CORE, 0x24, "vm.mul.i32", "aax");
    op(CORE, 0x25, "vm.div.i32.s", "aax");
    op(CORE, 0x26, "vm.div.i32.u", "aax");
    op(CORE, 0x27, "vm.rem.i32.s", "aax");
    op(CORE, 0x28, "vm.rem.i32.u", "aax");
    op(CORE, 0x29, "vm.fma.i32", "aaax");
    op(CORE, 0x2A, "vm.add.i64", "AAX");
    op(CORE, 0x2B, "vm.sub.i64", "AAX");
    op(CORE, 0x2C, "vm.mul.i64", "AAX");
    op(CORE, 0x2D, "vm.div.i64.s", "AAX");
    op(CORE, 0x2E, "vm.div.i64.u", "AAX");
    op(CORE, 0x2F, "vm.rem.i64.s", "AAX");
    op(CORE, 0x30, "vm.rem.i64.u", "AAX");
    op(CORE, 0x31, "vm.fma.i64", "AAAX");
    op(CORE, 0x32, "vm.not.i32", "ax");
    op(CORE, 0x33, "vm.and.i32", "aax");
    op(CORE, 0x34, "vm.or.i32", "aax");
    op(CORE, 0x35, "vm.xor.i32", "aax");
    op(CORE, 0x36, "vm.not.i64", "AX");
    op(CORE, 0x37, "vm.and.i64", "AAX");
    op(CORE, 0x38, "vm.or.i64", "AAX");
    op(CORE, 0x39, "vm.xor.i64", "AAX");
    op(CORE, 0x3A, "vm.shl.i32", "aax");
    op(CORE, 0x3B, "vm.shr.i32.s", "aax");
    op(CORE, 0x3C, "vm.shr.i32.u", "aax");
    op(CORE, 0x3D, "vm.shl.i64", "AaX");
    op(CORE, 0x3E, "vm.shr.i64.s", "AaX");
    op(CORE, 0x3F, "vm.shr.i64.u", "AaX");
    op(CORE, 0x40, "vm.trunc.i32.i8", "ax");
    op(CORE, 0x41, "vm.trunc.i32.i16", "ax");
    op(CORE, 0x42, "vm.trunc.i64.i32", "Ax");
    op(CORE, 0x43, "vm.ext.i8.i32.s", "ax");
    op(CORE, 0x44, "vm.ext.i8.i32.u", "ax");
    op(CORE, 0x45, "vm.ext.i16.i32.s", "ax");
    op(CORE, 0x46, "vm.ext.i16.i32.u", "ax");
    op(CORE, 0x47, "vm.ext.i32.i64.s", "aX");
    op(CORE, 0x48, "vm.ext.i32.i64.u", "aX");
    op(CORE, 0x49, "vm.cmp.eq.i32", "aax");
    op(CORE, 0x4A, "vm.cmp.ne.i32", "aax");
    op(CORE, 0x4B, "vm.cmp.lt.i32.s", "aax");
    op(CORE, 0x4C, "vm.cmp.lt.i32.u", "aax");
    op(CORE, 0x4D, "vm.cmp.nz.i32", "ax");
    op(CORE, 0x4E, "vm.cmp.eq.i64", "AAx");
    op(CORE, 0x4F, "vm.cmp.ne.i64", "AAx");
    op(CORE, 0x50, "vm.cmp.lt.i64.s", "AAx");
    op(CORE, 0x51, "vm.cmp.lt.i64.u", "AAx");
    op(CORE, 0x52, "vm.cmp.nz.i64", "Ax");
    op(CORE, 0x53, "vm.cmp.eq.ref", "rrx");
    op(CORE, 0x54, "vm.cmp.ne.ref", "rrx");
    op(CORE, 0x55, "vm.cmp.nz.ref", "rx");
    op(CORE, 0x56, "vm.br", "tm");
    op(CORE, 0x57, "vm.cond_br", "atmtm");
    op(CORE, 0x58, "vm.call", "4vV");
    op(CORE, 0x59, "vm.call.variadic", "4zvV");
    op(CORE, 0x5A, "vm.return", "v");
    op(CORE, 0x5B, "vm.fail", "as");
    op(CORE, 0x5C, "vm.import.exists", "4x");
    op(CORE, 0x5D, "vm.yield", "tm");
    op(CORE, 0x5E, "vm.trace", "sv");
    op(CORE, 0x5F, "vm.print", "sv");
    op(CORE, 0x60, "vm.cond_break", "atm");
    op(CORE, 0x61, "vm.break", "tm");
    op(CORE, 0x62, "vm.buffer.load.i8.u", "rAx");
    op(CORE, 0x63, "vm.buffer.load.i8.s", "rAx");
    op(CORE, 0x64, "vm.buffer.load.i16.u", "rAx");
    op(CORE, 0x65, "vm.buffer.load.i16.s", "rAx");
    op(CORE, 0x66, "vm.buffer.load.i32", "rAx");
    op(CORE, 0x67, "vm.buffer.load.i64", "rAX");
    op(CORE, 0x68, "vm.buffer.store.i8", "rAa");
    op(CORE, 0x69, "vm.buffer.store.i16", "rAa");
    op(CORE, 0x6A, "vm.buffer.store.i32", "rAa");
    op(CORE, 0x6B, "vm.buffer.store.i64", "rAA");
    op(CORE, 0x6C, "vm.buffer.alloc", "Aay");
    op(CORE, 0x6D, "vm.buffer.clone", "rAAay");
    op(CORE, 0x6E, "vm.buffer.length", "rX");
    op(CORE, 0x6F, "vm.buffer.copy", "rArAA");
    op(CORE, 0x70, "vm.buffer.compare", "rArAAx");
    op(CORE, 0x71, "vm.buffer.fill.i8", "rAAa");
    op(CORE, 0x72, "vm.buffer.fill.i16", "rAAa");
    op(CORE, 0x73, "vm.buffer.fill.i32", "rAAa");
    op(CORE, 0x74, "vm.buffer.fill.i64", "rAAA");
    op(CORE, 0x75, "vm.ctlz.i32", "ax");
    op(CORE, 0x76, "vm.ctlz.i64", "AX");
    op(CORE, 0x77, "vm.abs.i32", "ax");
    op(CORE, 0x78, "vm.abs.i64", "AX");
    op(CORE, 0x7A, "vm.min.i32.s", "aax");
    op(CORE, 0x7B, "vm.min.i32.u", "aax");
    op(CORE, 0x7C, "vm.max.i32.s", "aax");
    op(CORE, 0x7D, "vm.max.i32.u", "aax");
    op(CORE, 0x7E, "vm.min.i64.s", "AAX");
    op(CORE, 0x7F, "vm.min.i64.u", "AAX");
    op(CORE, 0x80, "vm.max.i64.s", "AAX");
    op(CORE, 0x81, "vm.max.i64.u", "AAX");
    op(CORE, 0x82, "vm.cast.any.ref", "r4y");
    op(CORE, 0x83, "vm.br_table", "atmh");
    op(CORE, 0x84, "vm.buffer.hash", "rAAX");
    op(CORE, 0x85, "vm.discard.refs", "v");
    op(CORE, 0x86, "vm.assign.ref", "ry");
    op(CORE, 0x87, "vm.call.yieldable", "4vtV");
    op(CORE, 0x88, "vm.call.variadic.yieldable", "4zvtV");
    op(F32, 0x00, "vm.global.load.f32", "4x");
    op(F32, 0x01, "vm.global.store.f32", "4a");
    op(F32, 0x02, "vm.global.load.indirect.f32", "ax");
    op(F32, 0x03, "vm.global.store.indirect.f32", "aa");
    op(F32, 0x04, "vm.const.f32.zero", "x");
    op(F32, 0x05, "vm.const.f32", "4x");
    op(F32, 0x06, "vm.list.get.f32", "rax");
    op(F32, 0x07, "vm.list.set.f32", "raa");
    op(F32, 0x08, "vm.select.f32", "aaax");
    op(F32, 0x09, "vm.switch.f32", "aavx");
    op(F32, 0x0A, "vm.add.f32", "aax");
    op(F32, 0x0B, "vm.sub.f32", "aax");
    op(F32, 0x0C, "vm.mul.f32", "aax");
    op(F32, 0x0D, "vm.div.f32", "aax");
    op(F32, 0x0E, "vm.rem.f32", "aax");
    op(F32, 0x0F, "vm.fma.f32", "aaax");
    op(F32, 0x10, "vm.abs.f32", "ax");
    op(F32, 0x11, "vm.neg.f32", "ax");
    op(F32, 0x12, "vm.ceil.f32", "ax");
    op(F32, 0x13, "vm.floor.f32", "ax");
    op(F32, 0x14, "vm.cast.si32.f32", "ax");
    op(F32, 0x15, "vm.cast.ui32.f32", "ax");
    op(F32, 0x16, "vm.cast.f32.si32", "ax");
    op(F32, 0x17, "vm.cast.f32.ui32", "ax");
    op(F32, 0x18, "vm.bitcast.i32.f32", "ax");
    op(F32, 0x19, "vm.bitcast.f32.i32", "ax");
    op(F32, 0x1A, "vm.atan.f32", "ax");
    op(F32, 0x1B, "vm.atan2.f32", "aax");
    op(F32, 0x1C, "vm.cos.f32", "ax");
    op(F32, 0x1D, "vm.sin.f32", "ax");
    op(F32, 0x1E, "vm.exp.f32", "ax");
    op(F32, 0x1F, "vm.exp2.f32", "ax");
    op(F32, 0x20, "vm.expm1.f32", "ax");
    op(F32, 0x21, "vm.log.f32", "ax");
    op(F32, 0x22, "vm.log10.f32", "ax");
    op(F32, 0x23, "vm.log1p.f32", "ax");
    op(F32, 0x24, "vm.log2.f32", "ax");
    op(F32, 0x25, "vm.pow.f32", "aax");
    op(F32, 0x26, "vm.rsqrt.f32", "ax");
    op(F32, 0x27, "vm.sqrt.f32", "ax");
    op(F32, 0x28, "vm.tanh.f32", "ax");
    op(F32, 0x29, "vm.erf.f32", "ax");
    op(F32, 0x2A, "vm.cmp.eq.f32.o", "aax");
    op(F32, 0x2B, "vm.cmp.eq.f32.u", "aax");
    op(F32, 0x2C, "vm.cmp.ne.f32.o", "aax");
    op(F32, 0x2D, "vm.cmp.ne.f32.u", "aax");
    op(F32, 0x2E, "vm.cmp.lt.f32.o", "aax");
    op(F32, 0x2F, "vm.cmp.lt.f32.u", "aax");
    op(F32, 0x30, "vm.cmp.lte.f32.o", "aax");
    op(F32, 0x31, "vm.cmp.lte.f32.u", "aax");
    op(F32, 0x32, "vm.cmp.nan.f32", "ax");
    op(F32, 0x33, "vm.buffer.load.f32", "rAx");
    op(F32, 0x34, "vm.buffer.store.f32", "rAa");
    op(F32, 0x35, "vm.buffer.fill.f32", "rAAa");
    op(F32, 0x36, "vm.round.f32", "ax");
    op(F32, 0x37, "vm.min.f32", "aax");
    op(F32, 0x38, "vm.max.f32", "aax");
    op(F32, 0x39, "vm.round.f32.even", "ax");
    op(F32, 0x3A, "vm.cast.f32.si64", "aX");
    op(F32, 0x3B, "vm.cast.f32.ui64", "aX");
    op(F32, 0x3C, "vm.cast.si64.f32", "Ax");
    op(F32, 0x3D, "vm.cast.ui64.f32", "Ax");
    op(F64, 0x00, "vm.global.load.f64", "4X");
    op(F64, 0x01, "vm.global.store.f64", "4A");
    op(F64, 0x02, "vm.global.load.indirect.f64", "aX");
    op(F64, 0x03, "vm.global.store.indirect.f64", "aA");
    op(F64, 0x04, "vm.const.f64.zero", "X");
    op(F64, 0x05, "vm.const.f64", "8X");
    op(F64, 0x06, "vm.list.get.f64", "raX");
    op(F64, 0x07, "vm.list.set.f64", "raA");
    op(F64, 0x08, "vm.select.f64", "aAAX");
    op(F64, 0x09, "vm.switch.f64", "aAvX");
    op(F64, 0x0A, "vm.add.f64", "AAX");
    op(F64, 0x0B, "vm.sub.f64", "AAX");
    op(F64, 0x0C, "vm.mul.f64", "AAX");
    op(F64, 0x0D, "vm.div.f64", "AAX");
    op(F64, 0x0E, "vm.rem.f64", "AAX");
    op(F64, 0x0F, "vm.fma.f64", "AAAX");
    op(F64, 0x10, "vm.abs.f64", "AX");
    op(F64, 0x11, "vm.neg.f64", "AX");
    op(F64, 0x12, "vm.ceil.f64", "AX");
    op(F64, 0x13, "vm.floor.f64", "AX");
    op(F64, 0x14, "vm.trunc.f64.f32", "Ax");
    op(F64, 0x15, "vm.ext.f32.f64", "aX");
    op(F64, 0x16, "vm.cast.si32.f64", "aX");
    op(F64, 0x17, "vm.cast.ui32.f64", "aX");
    op(F64, 0x18, "vm.cast.f64.si32", "Ax");
    op(F64, 0x19, "vm.cast.f64.ui32", "Ax");
    op(F64, 0x1A, "vm.cast.si64.f64", "AX");
    op(F64, 0x1B, "vm.cast.ui64.f64", "AX");
    op(F64, 0x1C, "vm.cast.f64.si64", "AX");
    op(F64, 0x1D, "vm.cast.f64.ui64", "AX");
    op(F64, 0x1E, "vm.bitcast.i64.f64", "AX");
    op(F64, 0x1F, "vm.bitcast.f64.i64", "AX");
    op(F64, 0x20, "vm.atan.f64", "AX");
    op(F64, 0x21, "vm.atan2.f64", "AAX");
    op(F64, 0x22, "vm.cos.f64", "AX");
    op(F64, 0x23, "vm.sin.f64", "AX");
    op(F64, 0x24, "vm.exp.f64", "AX");
    op(F64, 0x25, "vm.exp2.f64", "AX");
    op(F64, 0x26, "vm.expm1.f64", "AX");
    op(F64, 0x27, "vm.log.f64", "AX");
    op(F64, 0x28, "vm.log10.f64", "AX");
    op(F64, 0x29, "vm.log1p.f64", "AX");
    op(F64, 0x2A, "vm.log2.f64", "AX");
    op(F64, 0x2B, "vm.pow.f64", "AAX");
    op(F64, 0x2C, "vm.rsqrt.f64", "AX");
    op(F64, 0x2D, "vm.sqrt.f64", "AX");
    op(F64, 0x2E, "vm.tanh.f64", "AX");
    op(F64, 0x2F, "vm.erf.f64", "AX");
    op(F64, 0x30, "vm.cmp.eq.f64.o", "AAx");
    op(F64, 0x31, "vm.cmp.eq.f64.u", "AAx");
    op(F64, 0x32, "vm.cmp.ne.f64.o", "AAx");
    op(F64, 0x33, "vm.cmp.ne.f64.u", "AAx");
    op(F64, 0x34, "vm.cmp.lt.f64.o", "AAx");
    op(F64, 0x35, "vm.cmp.lt.f64.u", "AAx");
    op(F64, 0x36, "vm.cmp.lte.f64.o", "AAx");
    op(F64, 0x37, "vm.cmp.lte.f64.u", "AAx");
    op(F64, 0x38, "vm.cmp.nan.f64", "Ax");
    op(F64, 0x39, "vm.buffer.load.f64", "rAX");
    op(F64, 0x3A, "vm.buffer.store.f64", "rAA");
    op(F64, 0x3B, "vm.buffer.fill.f64", "rAAA");
    op(F64, 0x3C, "vm.round.f64", "AX");
    op(F64, 0x3D, "vm.min.f64", "AAX");
    op(F64, 0x3E, "vm.max.f64", "AAX");
    op(F64, 0x3F, "vm.round.f64.even", "AX");
    op(CORE, BLOCK, "<block>", "");
  }
}
