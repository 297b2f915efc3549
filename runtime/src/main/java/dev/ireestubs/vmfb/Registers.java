package dev.ireestubs.vmfb;

import dev.ireestubs.abi.AbiType;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * What the registers of a function hold at one point of its body, as far as a reader of types
 * follows them: the registers that hold something known, each with its {@link Value}; every other
 * register holds an unknown value. An i64 constant occupies two i32 registers, the first even, as
 * in the VM; each holds one half, so that writing either half alone forgets the constant.
 *
 * <p>Registers are keyed by bank and ordinal: i32 registers by their ordinal, ref registers by
 * {@link #REF} plus theirs. The map is sparse, so copying a state costs what it knows.
 */
final class Registers {

  /** Added to a ref register's ordinal to make its key. */
  static final int REF = 0x10000;

  /** What one register holds. */
  sealed interface Value {}

  /** An i32 constant. */
  record I32(int value) implements Value {}

  /** One half of an i64 constant (the low one in the even register). */
  record Half(long value, boolean high) implements Value {}

  /** The function's argument {@code index} (a ref), as passed in. */
  record Arg(int index) implements Value {}

  /** A buffer view created with this type. */
  record View(AbiType.NdArray type) implements Value {}

  /** A fence made in the function. */
  record Fence() implements Value {}

  /** A null ref ({@code vm.const.ref.zero}). */
  record Null() implements Value {}

  static final Fence FENCE = new Fence();
  static final Null NULL = new Null();

  private final Map<Integer, Value> known;

  Registers() {
    known = new HashMap<>();
  }

  private Registers(Map<Integer, Value> known) {
    this.known = known;
  }

  /** A copy; costs {@link #size()}. */
  Registers copy() {
    return new Registers(new HashMap<>(known));
  }

  /** How many registers hold something known. */
  int size() {
    return known.size();
  }

  /** The key of a raw register operand (its bank bit decides the bank; move bit ignored). */
  static int key(int raw) {
    return (raw & OpReader.REF_BIT) != 0 ? REF | (raw & OpReader.REF_MASK) : raw;
  }

  /** What the register {@code raw} holds, null when unknown. */
  Value get(int raw) {
    return known.get(key(raw));
  }

  /** Sets the register {@code raw} to {@code value}; null forgets it. */
  void set(int raw, Value value) {
    if (value == null) {
      known.remove(key(raw));
    } else {
      known.put(key(raw), value);
    }
  }

  /** The i64 constant in the register pair starting at i32 register {@code raw}, or null. */
  Long i64(int raw) {
    if ((raw & OpReader.REF_BIT) != 0) {
      return null;
    }
    Value lo = known.get(raw);
    Value hi = known.get(raw + 1);
    if (lo instanceof Half l && hi instanceof Half h) {
      if (!l.high() && h.high() && l.value() == h.value()) {
        return l.value();
      }
    }
    return null;
  }

  /** Sets the pair at {@code raw} to an i64 constant; null forgets both halves. */
  void setI64(int raw, Long value) {
    set(raw, value == null ? null : new Half(value, false));
    set(raw + 1, value == null ? null : new Half(value, true));
  }

  /**
   * Keeps only what {@code other} agrees with; true when something was forgotten. Costs {@link
   * #size()}.
   */
  boolean retainAgreeing(Registers other) {
    boolean changed = false;
    for (Iterator<Map.Entry<Integer, Value>> it = known.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Integer, Value> e = it.next();
      if (!e.getValue().equals(other.known.get(e.getKey()))) {
        it.remove();
        changed = true;
      }
    }
    return changed;
  }
}
