package dev.ireestubs.vmfb;

import java.nio.ByteBuffer;

/**
 * Decodes one op of one function body at a time, checking every read against the body's end and
 * every register against the function's register counts (as IREE's verifier does), so that a
 * hostile body is a {@link BodyException}, never an out-of-bounds read. The decoded op is kept in
 * this reader's fields until the next {@link #decode}; nothing is allocated per op except when a
 * branch table outgrows the target arrays.
 *
 * <p>Offsets are relative to the function's first byte, as IREE's disassembler prints them;
 * register lists and remap lists are aligned to 2 bytes from there.
 */
final class OpReader {

  static final int REF_BIT = 0x8000;
  static final int MOVE_BIT = 0x4000;
  static final int REF_MASK = 0x3FFF;
  static final long IMPORT_BIT = 0x80000000L;

  /** A body that does not decode: what and where, for the fall-back reason. */
  static final class BodyException extends Exception {
    private static final long serialVersionUID = 1L;

    BodyException(String message) {
      super(message, null, false, false);
    }
  }

  private final ByteBuffer buf;
  private final int base;
  private final int length;
  private final BytecodeOps ops;
  private final int i32Count;
  private final int refCount;

  /** Where the op starts, and where the next one does. */
  int pc;

  int next;

  /** The op decoded. */
  BytecodeOps.Op op;

  /** Single registers of the layout ({@code a A r x X y}), raw, in order, and their letters. */
  int[] regs = new int[8];

  char[] regKinds = new char[8];
  int regCount;

  /** Immediates ({@code 4 8 h}), in order. */
  long[] imms = new long[4];

  int immCount;

  /** Register lists ({@code v V}): where each one's registers start, how many, which letter. */
  int[] listStart = new int[4];

  int[] listSize = new int[4];
  char[] listKind = new char[4];
  int listCount;

  /** Branch targets ({@code t}) and, when followed by {@code m}, their remap list. */
  int[] targets = new int[4];

  int[] remapStart = new int[4];
  int[] remapSize = new int[4];
  int targetCount;

  /**
   * A reader of the body {@code [base, base + length)} of {@code buf}.
   *
   * @param i32Count the function's i32 registers, rounded up as the runtime does
   * @param refCount the function's ref registers, rounded up as the runtime does
   */
  OpReader(ByteBuffer buf, int base, int length, BytecodeOps ops, int i32Count, int refCount) {
    this.buf = buf;
    this.base = base;
    this.length = length;
    this.ops = ops;
    this.i32Count = i32Count;
    this.refCount = refCount;
  }

  int length() {
    return length;
  }

  int i32Count() {
    return i32Count;
  }

  int refCount() {
    return refCount;
  }

  /** The u16 at {@code at} (a register of a list or remap decoded before). */
  int u16(int at) {
    return buf.getShort(base + at) & 0xFFFF;
  }

  /** Decodes the op at {@code at}. */
  void decode(int at) throws BodyException {
    pc = at;
    next = at;
    regCount = 0;
    immCount = 0;
    listCount = 0;
    targetCount = 0;
    int table = BytecodeOps.CORE;
    int code = readU8();
    if (code == BytecodeOps.PREFIX_F32 || code == BytecodeOps.PREFIX_F64) {
      table = code == BytecodeOps.PREFIX_F32 ? BytecodeOps.F32 : BytecodeOps.F64;
      code = readU8();
    }
    op = ops.op(table, code);
    if (op == null) {
      throw new BodyException(
          "unknown opcode "
              + (table == BytecodeOps.CORE ? "" : table == BytecodeOps.F32 ? "0xE0 " : "0xE1 ")
              + String.format("0x%02X", code)
              + " for bytecode "
              + ops.version()
              + " at offset "
              + hex(pc));
    }
    if (op.unreadable() != null) {
      throw new BodyException(op.mnemonic() + " at offset " + hex(pc) + ": " + op.unreadable());
    }
    String layout = op.layout();
    for (int i = 0; i < layout.length(); i++) {
      char c = layout.charAt(i);
      switch (c) {
        case '4' -> addImm(readU32());
        case '8' -> addImm(readU64());
        case 'h' -> addImm(readU16());
        case 's' -> skip(readU16());
        case 'v', 'V', 'z' -> readList(c);
        case 't' -> addTarget((int) readU32());
        case 'm' -> readRemap();
        default -> addReg(c, readU16());
      }
    }
    if (table == BytecodeOps.CORE && code == BytecodeOps.BRANCH_TABLE) {
      long cases = imms[immCount - 1];
      for (long i = 0; i < cases; i++) {
        addTarget((int) readU32());
        readRemap();
      }
    }
  }

  private void addImm(long v) {
    if (immCount == imms.length) {
      imms = java.util.Arrays.copyOf(imms, immCount * 2);
    }
    imms[immCount++] = v;
  }

  private void addReg(char kind, int raw) throws BodyException {
    checkRegister(kind, raw);
    if (regCount == regs.length) {
      regs = java.util.Arrays.copyOf(regs, regCount * 2);
      regKinds = java.util.Arrays.copyOf(regKinds, regCount * 2);
    }
    regs[regCount] = raw;
    regKinds[regCount++] = kind;
  }

  private void addTarget(int target) throws BodyException {
    if (target < 0 || target >= length) {
      throw new BodyException(
          op.mnemonic()
              + " at offset "
              + hex(pc)
              + " branches to "
              + hex(target)
              + ", outside the function's "
              + length
              + " bytes");
    }
    if (targetCount == targets.length) {
      targets = java.util.Arrays.copyOf(targets, targetCount * 2);
      remapStart = java.util.Arrays.copyOf(remapStart, targetCount * 2);
      remapSize = java.util.Arrays.copyOf(remapSize, targetCount * 2);
    }
    targets[targetCount] = target;
    remapStart[targetCount] = 0;
    remapSize[targetCount++] = 0;
  }

  private void readList(char kind) throws BodyException {
    align();
    int size = readU16();
    int start = next;
    need(2L * size);
    for (int i = 0; kind != 'z' && i < size; i++) {
      checkRegister('?', u16(start + 2 * i));
    }
    next += 2 * size;
    if (listCount == listStart.length) {
      listStart = java.util.Arrays.copyOf(listStart, listCount * 2);
      listSize = java.util.Arrays.copyOf(listSize, listCount * 2);
      listKind = java.util.Arrays.copyOf(listKind, listCount * 2);
    }
    listStart[listCount] = start;
    listSize[listCount] = size;
    listKind[listCount++] = kind;
  }

  private void readRemap() throws BodyException {
    align();
    int size = readU16();
    int start = next;
    need(4L * size);
    for (int i = 0; i < 2 * size; i++) {
      checkRegister('?', u16(start + 2 * i));
    }
    next += 4 * size;
    remapStart[targetCount - 1] = start;
    remapSize[targetCount - 1] = size;
  }

  /** Checks {@code raw} as a register of {@code kind} ({@code ?}: either bank). */
  private void checkRegister(char kind, int raw) throws BodyException {
    boolean ref = (raw & REF_BIT) != 0;

    String problem =
        switch (kind) {
          case 'a', 'x' ->
              ref ? "an i32 register" : raw >= i32Count ? "an i32 register in range" : null;
          case 'A', 'X' ->
              ref
                  ? "an i64 register"
                  : (raw & 1) != 0 || raw + 1 >= i32Count ? "an even i64 register in range" : null;
          case 'r', 'y' ->
              !ref
                  ? "a ref register"
                  : (raw & REF_MASK) >= refCount ? "a ref register in range" : null;
          default ->
              ref
                  ? (raw & REF_MASK) >= refCount ? "a ref register in range" : null
                  : raw >= i32Count ? "an i32 register in range" : null;
        };
    if (problem != null) {
      throw new BodyException(
          op.mnemonic()
              + " at offset "
              + hex(pc)
              + ": expected "
              + problem
              + " (the function has "
              + i32Count
              + " i32 and "
              + refCount
              + " ref registers), found "
              + String.format("0x%04X", raw));
    }
  }

  private void align() {
    next = (next + 1) & ~1;
  }

  private void need(long bytes) throws BodyException {
    if (bytes > length - (long) next) {
      throw new BodyException(
          (op == null ? "the op" : op.mnemonic())
              + " at offset "
              + hex(pc)
              + " runs past the end of the function ("
              + length
              + " bytes)");
    }
  }

  private void skip(int bytes) throws BodyException {
    need(bytes);
    next += bytes;
  }

  private int readU8() throws BodyException {
    op = null;
    need(1);
    return buf.get(base + next++) & 0xFF;
  }

  private int readU16() throws BodyException {
    need(2);
    int v = buf.getShort(base + next) & 0xFFFF;
    next += 2;
    return v;
  }

  private long readU32() throws BodyException {
    need(4);
    long v = Integer.toUnsignedLong(buf.getInt(base + next));
    next += 4;
    return v;
  }

  private long readU64() throws BodyException {
    need(8);
    long v = buf.getLong(base + next);
    next += 8;
    return v;
  }

  static String hex(int offset) {
    return String.format("0x%08X", offset);
  }
}
