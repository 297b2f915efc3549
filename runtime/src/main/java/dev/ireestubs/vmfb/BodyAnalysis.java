package dev.ireestubs.vmfb;

import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.Shape;
import dev.ireestubs.abi.VmKind;
import dev.ireestubs.vmfb.OpReader.BodyException;
import dev.ireestubs.vmfb.Registers.Value;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;

/**
 * The second step over a function body: follows what each register holds, block by block in program
 * order, joining at block entries through the branches' register remaps (registers that disagree
 * become unknown), until nothing changes. Along the way it records what the function's {@code
 * hal.buffer_view.assert} calls state of its arguments, which arguments it uses as fences, what its
 * returns give, and what its calls to the module's own functions say of the arguments it passes
 * them (their facts, from {@link BytecodeTypeReader#facts}).
 *
 * <p>Registers are reused: a register holds an argument only until something else is written to it,
 * and an operand with the move bit gives its value away. Every op that this reader gives no meaning
 * writes unknown values to its results.
 */
final class BodyAnalysis {

  /**
   * The encoding of a dense row-major buffer view ({@code IREE_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR}).
   */
  static final int DENSE_ROW_MAJOR = 1;

  private final BytecodeTypeReader module;
  private final OpReader reader;
  private final BitSet blocks;
  private final int depth;
  private final FunctionFacts facts;
  private final HashMap<Integer, Registers> entries = new HashMap<>();
  private final ArrayDeque<Integer> queue = new ArrayDeque<>();
  private final BitSet queued = new BitSet();

  private BodyAnalysis(
      BytecodeTypeReader module,
      OpReader reader,
      BitSet blocks,
      int depth,
      CallingConvention cconv) {
    this.module = module;
    this.reader = reader;
    this.blocks = blocks;
    this.depth = depth;
    this.facts = new FunctionFacts(cconv.arity(), cconv.resultKinds().size());
  }

  /** The facts of the function whose body {@code reader} reads, called with {@code cconv}. */
  static FunctionFacts run(
      BytecodeTypeReader module, OpReader reader, BitSet blocks, int depth, CallingConvention cconv)
      throws BodyException {
    BodyAnalysis a = new BodyAnalysis(module, reader, blocks, depth, cconv);
    a.enter(0, arguments(cconv));
    while (!a.queue.isEmpty()) {
      int pc = a.queue.poll();
      a.queued.clear(pc);
      a.block(pc);
    }
    return a.facts;
  }

  /** The registers on entry: each ref argument in the ref register of its rank among refs. */
  private static Registers arguments(CallingConvention cconv) {
    Registers r = new Registers();
    List<VmKind> kinds = cconv.argumentKinds();
    int refs = 0;
    for (int i = 0; i < kinds.size(); i++) {
      if (kinds.get(i) == VmKind.REF) {
        r.set(OpReader.REF_BIT | refs++, new Registers.Arg(i));
      }
    }
    return r;
  }

  private void enter(int pc, Registers state) throws BodyException {
    Registers known = entries.get(pc);
    if (known == null) {
      entries.put(pc, state);
    } else {
      module.budget().charge(known.size());
      if (!known.retainAgreeing(state)) {
        return;
      }
    }
    if (!queued.get(pc)) {
      queued.set(pc);
      queue.add(pc);
    }
  }

  private void block(int start) throws BodyException {
    Registers state = entries.get(start).copy();
    module.budget().charge(1 + state.size());
    int pc = start;
    while (true) {
      reader.decode(pc);
      module.budget().charge(1 + reader.regCount);
      BytecodeOps.Op op = reader.op;
      step(op, state);
      if (op.isTerminator()) {
        successors(state);
        return;
      }
      pc = reader.next;
      if (pc >= reader.length() - 1) {
        throw new BodyException("the block at " + OpReader.hex(start) + " runs off the function");
      }
      if (blocks.get(pc) && !module.ops().blockMarkers()) {
        enter(pc, state);
        return;
      }
    }
  }

  private void step(BytecodeOps.Op op, Registers state) throws BodyException {
    if (op.table() == BytecodeOps.CORE) {
      switch (op.code()) {
        case BytecodeOps.CONST_I32 -> {
          state.set(reader.regs[0], new Registers.I32((int) reader.imms[0]));
          return;
        }
        case BytecodeOps.CONST_I32_ZERO -> {
          state.set(reader.regs[0], new Registers.I32(0));
          return;
        }
        case BytecodeOps.CONST_I64 -> {
          state.setI64(reader.regs[0], reader.imms[0]);
          return;
        }
        case BytecodeOps.CONST_I64_ZERO -> {
          state.setI64(reader.regs[0], 0L);
          return;
        }
        case BytecodeOps.CONST_REF_ZERO -> {
          state.set(reader.regs[0], Registers.NULL);
          return;
        }
        case BytecodeOps.ASSIGN_REF, BytecodeOps.CAST_ANY_REF -> {
          Value v = state.get(reader.regs[0]);
          moveOut(state, reader.regs[0]);
          state.set(reader.regs[1], v);
          return;
        }
        case BytecodeOps.CALL,
            BytecodeOps.CALL_VARIADIC,
            BytecodeOps.CALL_YIELDABLE,
            BytecodeOps.CALL_VARIADIC_YIELDABLE -> {
          call(state);
          return;
        }
        case BytecodeOps.RETURN -> {
          returns(state);
          return;
        }
        case BytecodeOps.DISCARD_REFS -> {
          forEachListed(0, raw -> state.set(raw, null));
          return;
        }
        default -> {}
      }
    }
    // An op without meaning here: its moved refs are gone, its results unknown.
    for (int i = 0; i < reader.regCount; i++) {
      int raw = reader.regs[i];
      switch (reader.regKinds[i]) {
        case 'r' -> moveOut(state, raw);
        case 'x', 'y' -> state.set(raw, null);
        case 'X' -> state.setI64(raw, null);
        default -> {}
      }
    }
  }

  private void successors(Registers state) throws BodyException {
    for (int t = 0; t < reader.targetCount; t++) {
      Registers next = state;
      if (reader.remapSize[t] > 0) {
        next = state.copy();
        module.budget().charge(state.size() + reader.remapSize[t]);
        for (int i = 0; i < reader.remapSize[t]; i++) {
          int src = reader.u16(reader.remapStart[t] + 4 * i);
          int dst = reader.u16(reader.remapStart[t] + 4 * i + 2);
          next.set(dst, state.get(src));
        }
      } else if (reader.targetCount > 1) {
        next = state.copy();
        module.budget().charge(state.size());
      }
      enter(reader.targets[t], next);
    }
  }

  private void moveOut(Registers state, int raw) {
    if ((raw & OpReader.REF_BIT) != 0 && (raw & OpReader.MOVE_BIT) != 0) {
      state.set(raw, null);
    }
  }

  private interface RawConsumer {
    void accept(int raw);
  }

  private void forEachListed(int list, RawConsumer c) {
    for (int i = 0; i < reader.listSize[list]; i++) {
      c.accept(reader.u16(reader.listStart[list] + 2 * i));
    }
  }

  private int listed(int list, int i) {
    return reader.u16(reader.listStart[list] + 2 * i);
  }

  private void returns(Registers state) {
    int n = Math.min(reader.listSize[0], facts.results.length);
    for (int i = 0; i < n; i++) {
      int raw = listed(0, i);
      facts.returns(i, (raw & OpReader.REF_BIT) != 0 ? state.get(raw) : null);
    }
  }

  private void call(Registers state) throws BodyException {
    long ordinal = reader.imms[0];
    // The operand list is the last 'v' before the results: variadic calls list segment sizes
    // first.
    int operands = reader.listCount - 2;
    int results = reader.listCount - 1;
    int count = reader.listSize[operands];
    Value[] passed = new Value[count];
    module.budget().charge(count);
    for (int i = 0; i < count; i++) {
      passed[i] = state.get(listed(operands, i));
    }
    for (int i = 0; i < count; i++) {
      moveOut(state, listed(operands, i));
    }
    Value[] out =
        (ordinal & OpReader.IMPORT_BIT) != 0
            ? importCall((int) (ordinal & ~OpReader.IMPORT_BIT), operands, passed, state)
            : internalCall((int) ordinal, passed);
    Optional<List<VmKind>> kinds =
        (ordinal & OpReader.IMPORT_BIT) != 0
            ? module.importResultKinds((int) (ordinal & ~OpReader.IMPORT_BIT))
            : module.resultKinds((int) ordinal);
    int n = reader.listSize[results];
    for (int i = 0; i < n; i++) {
      int raw = listed(results, i);
      if ((raw & OpReader.REF_BIT) != 0) {
        state.set(raw, i < out.length ? out[i] : null);
      } else if (kinds.isPresent() && i < kinds.get().size()) {
        VmKind k = kinds.get().get(i);
        if (k == VmKind.I64 || k == VmKind.F64) {
          state.setI64(raw, null);
        } else {
          state.set(raw, null);
        }
      } else {
        // Not knowing the result's width, forget every register it may cover.
        state.setI64(raw & ~1, null);
        state.setI64((raw & ~1) + 2, null);
      }
    }
  }

  private Value[] importCall(int index, int operands, Value[] passed, Registers state) {
    ImportRole role = module.importRole(index);
    for (int i = 0; i < passed.length; i++) {
      boolean ref = (listed(operands, i) & OpReader.REF_BIT) != 0;
      if (passed[i] instanceof Registers.Arg && role.isFence(i, ref)) {
        facts.fences[((Registers.Arg) passed[i]).index()] = true;
      }
    }
    switch (role.kind()) {
      case ASSERT -> {
        if (passed.length > ImportRole.ASSERT_ELEMENT_TYPE + 1
            && passed[0] instanceof Registers.Arg) {
          AbiType.NdArray type = typeOf(operands, ImportRole.ASSERT_ELEMENT_TYPE, state);
          if (type != null) {
            facts.asserted(((Registers.Arg) passed[0]).index(), type);
          }
        }
        return new Value[0];
      }
      case CREATE -> {
        if (passed.length > ImportRole.CREATE_ELEMENT_TYPE + 1) {
          AbiType.NdArray type = typeOf(operands, ImportRole.CREATE_ELEMENT_TYPE, state);
          return new Value[] {type == null ? null : new Registers.View(type)};
        }
        return new Value[0];
      }
      case MAKES_FENCE -> {
        return new Value[] {Registers.FENCE};
      }
      default -> {
        return new Value[0];
      }
    }
  }

  /**
   * The tensor type of a buffer-view check or constructor whose element type operand is at {@code
   * at} (the encoding next, then the dims); null unless the element type is a constant iree-stubs
   * knows and the encoding is dense row-major. A dim that is not a constant is dynamic. Reads the
   * registers as they were before the call (its operands are inputs only).
   */
  private AbiType.NdArray typeOf(int operands, int at, Registers state) {
    Value element = state.get(listed(operands, at));
    Value encoding = state.get(listed(operands, at + 1));
    if (!(element instanceof Registers.I32 elementCode)
        || !(encoding instanceof Registers.I32 encodingCode)
        || encodingCode.value() != DENSE_ROW_MAJOR) {
      return null;
    }
    Optional<ElementType> type = ElementType.fromHalCode(elementCode.value());
    if (type.isEmpty()) {
      return null;
    }
    int rank = reader.listSize[operands] - at - 2;
    long[] dims = new long[rank];
    for (int i = 0; i < rank; i++) {
      Long d = state.i64(listed(operands, at + 2 + i));
      dims[i] = d == null || d < 0 ? Shape.DYNAMIC : d;
    }
    return new AbiType.NdArray(type.get(), Shape.of(dims));
  }

  private Value[] internalCall(int ordinal, Value[] passed) throws BodyException {
    FunctionFacts callee = module.facts(ordinal, depth + 1);
    if (callee == null) {
      return new Value[0];
    }
    if (callee.problem != null) {
      throw new BodyException(
          "it calls internal function "
              + ordinal
              + ", whose body could not be read: "
              + callee.problem);
    }
    Optional<List<VmKind>> kinds = module.argumentKinds(ordinal);
    int refs = Math.min(passed.length, callee.argumentTypes.length);
    for (int k = 0; k < refs; k++) {
      if (passed[k] instanceof Registers.Arg
          && kinds.isPresent()
          && kinds.get().get(k) == VmKind.REF) {
        facts.passed(((Registers.Arg) passed[k]).index(), callee, k);
      }
    }
    Value[] out = new Value[callee.results.length];
    for (int m = 0; m < out.length; m++) {
      Value v = callee.results[m];
      if (v instanceof Registers.Arg) {
        int k = ((Registers.Arg) v).index();
        v = k < passed.length ? passed[k] : null;
      }
      out[m] = v;
    }
    return out;
  }
}
