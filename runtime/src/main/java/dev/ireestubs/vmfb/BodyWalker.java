package dev.ireestubs.vmfb;

import dev.ireestubs.vmfb.OpReader.BodyException;
import java.util.BitSet;

/**
 * The first step over a function body: decodes every op in order, as IREE's verifier walks it, and
 * checks the structure a reader of types relies on: each op decodes inside the body, calls name an
 * import or function that exists, bodies of bytecode 15 on are blocks that each start with {@code
 * <block>} and end with a terminator, and every branch lands on a block. Returns where the blocks
 * start (for bytecode 13, which has no block markers: the first op, every branch target, and every
 * op after a terminator).
 */
final class BodyWalker {

  /** Told each op as it is decoded, for the disassembly cross-check. */
  interface Listener {
    void op(int offset, String mnemonic);
  }

  private BodyWalker() {}

  /**
   * Walks the body {@code reader} reads.
   *
   * @param importCount the module's imports
   * @param functionCount the module's internal functions
   * @param budget charged one step per op and per listed register
   * @param listener told each op, or null
   * @return the offsets where blocks start
   */
  static BitSet walk(
      OpReader reader,
      boolean blockMarkers,
      int importCount,
      int functionCount,
      BytecodeTypeReader.Budget budget,
      Listener listener)
      throws BodyException {
    if (!blockMarkers) {
      return walkReachable(reader, importCount, functionCount, budget, listener);
    }
    int length = reader.length();
    BitSet blocks = new BitSet();
    BitSet opStarts = new BitSet();
    BitSet targets = new BitSet();
    boolean inBlock = false;
    // As IREE's verifier: the last byte never starts an op.
    int pc = 0;
    while (pc < length - 1) {
      reader.decode(pc);
      budget.charge(1 + reader.regCount + listed(reader));
      BytecodeOps.Op op = reader.op;
      boolean block = op.table() == BytecodeOps.CORE && op.code() == BytecodeOps.BLOCK;
      if (!inBlock && !block) {
        throw new BodyException(
            op.mnemonic() + " at offset " + OpReader.hex(pc) + " is not in a block");
      }
      if (inBlock && block) {
        throw new BodyException(
            "a block starts at offset " + OpReader.hex(pc) + " inside the previous block");
      }
      if (block) {
        blocks.set(pc);
        inBlock = true;
      }
      opStarts.set(pc);
      checkCall(reader, importCount, functionCount);
      for (int i = 0; i < reader.targetCount; i++) {
        targets.set(reader.targets[i]);
      }
      if (listener != null) {
        listener.op(pc, op.mnemonic());
      }
      if (op.isTerminator()) {
        inBlock = false;
      }
      pc = reader.next;
    }
    if (inBlock || opStarts.isEmpty()) {
      throw new BodyException("the function's last block has no terminator");
    }
    for (int t = targets.nextSetBit(0); t >= 0; t = targets.nextSetBit(t + 1)) {
      if (!blocks.get(t)) {
        throw new BodyException(
            "a branch targets offset " + OpReader.hex(t) + ", which does not start a block");
      }
      blocks.set(t);
    }
    return blocks;
  }

  /**
   * Bytecode 13 has no block markers, and a body may end in padding after its last terminator:
   * decodes what is reachable, from the first op and every branch target, each run until a
   * terminator or an op already decoded. A target inside a decoded op is an error.
   */
  private static BitSet walkReachable(
      OpReader reader,
      int importCount,
      int functionCount,
      BytecodeTypeReader.Budget budget,
      Listener listener)
      throws BodyException {
    int length = reader.length();
    BitSet blocks = new BitSet();
    BitSet opStarts = new BitSet();
    BitSet covered = new BitSet();
    java.util.ArrayDeque<Integer> pending = new java.util.ArrayDeque<>();
    pending.add(0);
    blocks.set(0);
    while (!pending.isEmpty()) {
      int pc = pending.poll();
      while (!opStarts.get(pc)) {
        if (covered.get(pc)) {
          throw new BodyException(
              "a branch targets offset " + OpReader.hex(pc) + ", inside another op");
        }
        if (pc >= length - 1) {
          throw new BodyException("the code at " + OpReader.hex(pc) + " runs off the function");
        }
        reader.decode(pc);
        budget.charge(1 + reader.regCount + listed(reader));
        opStarts.set(pc);
        covered.set(pc, reader.next);
        checkCall(reader, importCount, functionCount);
        if (listener != null) {
          listener.op(pc, reader.op.mnemonic());
        }
        for (int i = 0; i < reader.targetCount; i++) {
          int t = reader.targets[i];
          if (!blocks.get(t)) {
            blocks.set(t);
            pending.add(t);
          }
        }
        if (reader.op.isTerminator()) {
          break;
        }
        pc = reader.next;
      }
    }
    for (int t = blocks.nextSetBit(0); t >= 0; t = blocks.nextSetBit(t + 1)) {
      if (!opStarts.get(t)) {
        throw new BodyException(
            "a branch targets offset " + OpReader.hex(t) + ", inside another op");
      }
    }
    return blocks;
  }

  private static int listed(OpReader reader) {
    int n = 0;
    for (int i = 0; i < reader.listCount; i++) {
      n += reader.listSize[i];
    }
    for (int i = 0; i < reader.targetCount; i++) {
      n += reader.remapSize[i];
    }
    return n;
  }

  private static void checkCall(OpReader reader, int importCount, int functionCount)
      throws BodyException {
    BytecodeOps.Op op = reader.op;
    if (op.table() != BytecodeOps.CORE) {
      return;
    }
    boolean variadic;
    switch (op.code()) {
      case BytecodeOps.CALL, BytecodeOps.CALL_YIELDABLE -> variadic = false;
      case BytecodeOps.CALL_VARIADIC, BytecodeOps.CALL_VARIADIC_YIELDABLE -> variadic = true;
      default -> {
        return;
      }
    }
    long ordinal = reader.imms[0];
    boolean isImport = (ordinal & OpReader.IMPORT_BIT) != 0;
    long index = ordinal & ~OpReader.IMPORT_BIT;
    if (variadic && !isImport) {
      throw new BodyException(
          op.mnemonic()
              + " at offset "
              + OpReader.hex(reader.pc)
              + " calls an internal function; variadic calls are to imports only");
    }
    long count = isImport ? importCount : functionCount;
    if (index >= count) {
      throw new BodyException(
          op.mnemonic()
              + " at offset "
              + OpReader.hex(reader.pc)
              + " calls "
              + (isImport ? "import " : "function ")
              + index
              + ", but the module has "
              + count);
    }
  }
}
