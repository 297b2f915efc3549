package dev.ireestubs.testing;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes VM function bodies, op by op, in the encoding of bytecode 15 to 17 (IREE's {@code
 * runtime/src/iree/vm/bytecode/}: one opcode byte, inline immediates little-endian, register lists
 * and remap lists aligned to 2 bytes from the function's start), for {@link TestModules.Spec#body}.
 * Written independently of the reader: only the opcodes and operand layouts are shared facts.
 *
 * <p>Registers: {@link #i32(int)} for i32 (and the first of an i64 pair), {@link #ref(int)} for
 * refs, {@link #move(int)} for a ref whose value the op takes.
 */
public final class TestBytecode {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final List<int[]> labels = new ArrayList<>(); // {position of the u32, label}
  private final List<Integer> marks = new ArrayList<>();

  /** The i32 register {@code n}. */
  public static int i32(int n) {
    return n;
  }

  /** The ref register {@code n}. */
  public static int ref(int n) {
    return 0x8000 | n;
  }

  /** The ref register {@code n} with the move bit. */
  public static int move(int n) {
    return 0xC000 | n;
  }

  /** The import {@code n} as a callee ordinal. */
  public static int importOrdinal(int n) {
    return 0x80000000 | n;
  }

  /** The bytes written so far. */
  public byte[] bytes() {
    byte[] b = out.toByteArray();
    for (int[] l : labels) {
      int target = marks.get(l[1]);
      for (int i = 0; i < 4; i++) {
        b[l[0] + i] = (byte) (target >>> (8 * i));
      }
    }
    return b;
  }

  /** The offset of the next op. */
  public int offset() {
    return out.size();
  }

  /** Starts a block ({@code <block>}, 0x79) and returns its label, for branches. */
  public int block() {
    marks.add(out.size());
    out.write(0x79);
    return marks.size() - 1;
  }

  /** A label for a block not written yet; {@link #place} puts it. */
  public int label() {
    marks.add(-1);
    return marks.size() - 1;
  }

  /** Starts the block of {@code label} here. */
  public TestBytecode place(int label) {
    marks.set(label, out.size());
    out.write(0x79);
    return this;
  }

  /** {@code vm.const.i32} (0x0D). */
  public TestBytecode constI32(int reg, int value) {
    out.write(0x0D);
    u32(value);
    u16(reg);
    return this;
  }

  /** {@code vm.const.i64} (0x0F). */
  public TestBytecode constI64(int reg, long value) {
    out.write(0x0F);
    u32((int) value);
    u32((int) (value >>> 32));
    u16(reg);
    return this;
  }

  /** {@code vm.const.ref.zero} (0x10). */
  public TestBytecode constRefZero(int reg) {
    out.write(0x10);
    u16(reg);
    return this;
  }

  /** {@code vm.add.i32} (0x22): an op the reader gives no meaning. */
  public TestBytecode addI32(int lhs, int rhs, int result) {
    out.write(0x22);
    u16(lhs);
    u16(rhs);
    u16(result);
    return this;
  }

  /** {@code vm.call} (0x58) of {@code callee} (an internal ordinal or {@link #importOrdinal}). */
  public TestBytecode call(int callee, int[] operands, int[] results) {
    out.write(0x58);
    u32(callee);
    list(operands);
    list(results);
    return this;
  }

  /** {@code vm.call.variadic} (0x59): segment sizes, then operands and results. */
  public TestBytecode callVariadic(int callee, int[] segments, int[] operands, int[] results) {
    out.write(0x59);
    u32(callee);
    list(segments);
    list(operands);
    list(results);
    return this;
  }

  /**
   * {@code vm.call.yieldable} (0x87, bytecode 17): the callee, its operands, the block {@code
   * resume} where the call continues (a target without remaps), then the results.
   */
  public TestBytecode callYieldable(int callee, int[] operands, int resume, int[] results) {
    out.write(0x87);
    u32(callee);
    list(operands);
    target(resume);
    list(results);
    return this;
  }

  /** {@code vm.yield} (0x5D): suspends the call, to resume at {@code label} with the remaps. */
  public TestBytecode yieldTo(int label, int... remaps) {
    out.write(0x5D);
    target(label);
    remap(remaps);
    return this;
  }

  /** {@code vm.return} (0x5A). */
  public TestBytecode ret(int... regs) {
    out.write(0x5A);
    list(regs);
    return this;
  }

  /** {@code vm.br} (0x56) to {@code label} with register remaps {@code src, dst, src, dst...}. */
  public TestBytecode br(int label, int... remaps) {
    out.write(0x56);
    target(label);
    remap(remaps);
    return this;
  }

  /** {@code vm.cond_br} (0x57). */
  public TestBytecode condBr(int condition, int whenTrue, int whenFalse) {
    out.write(0x57);
    u16(condition);
    target(whenTrue);
    remap();
    target(whenFalse);
    remap();
    return this;
  }

  /** Raw bytes, for hostile bodies. */
  public TestBytecode raw(int... bytes) {
    for (int b : bytes) {
      out.write(b);
    }
    return this;
  }

  private void target(int label) {
    labels.add(new int[] {out.size(), label});
    u32(0);
  }

  private void remap(int... pairs) {
    align();
    u16(pairs.length / 2);
    for (int r : pairs) {
      u16(r);
    }
  }

  private void list(int[] regs) {
    align();
    u16(regs.length);
    for (int r : regs) {
      u16(r);
    }
  }

  private void align() {
    if (out.size() % 2 != 0) {
      out.write(0);
    }
  }

  private void u16(int v) {
    out.write(v);
    out.write(v >>> 8);
  }

  private void u32(int v) {
    u16(v);
    u16(v >>> 16);
  }
}
