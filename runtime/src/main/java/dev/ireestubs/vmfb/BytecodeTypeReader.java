package dev.ireestubs.vmfb;

import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.BytecodeTypes;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.abi.VmKind;
import dev.ireestubs.vmfb.FlatBuffer.Vector;
import dev.ireestubs.vmfb.OpReader.BodyException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;

/**
 * Reads the types of a module's exports out of their function bodies ({@link BytecodeTypes}): for
 * each export that takes or returns a ref, walks its internal function ({@link BodyWalker}),
 * follows its registers ({@link BodyAnalysis}) into the module's own functions it calls, and turns
 * what it found into a signature of format {@link ReflectionFormat#BYTECODE}.
 *
 * <p>Bounded work: each function is analysed at most once (its {@link FunctionFacts} are kept),
 * calls are followed at most {@link #MAX_CALL_DEPTH} deep and never into a function whose analysis
 * is under way (recursion), and every step of every walk is charged to one {@link Budget} for the
 * whole module, proportional to its bytecode's size. Whatever goes wrong inside a body (an unknown
 * opcode, a version whose encoding is not known, a body that does not decode, the budget spent)
 * makes that export's types unreadable with the reason; a function descriptor outside the bytecode
 * is a malformed module ({@link VmfbFormatException}).
 */
final class BytecodeTypeReader {

  /** How deep calls into the module's own functions are followed. */
  static final int MAX_CALL_DEPTH = 16;

  /** Steps allowed per byte of {@code bytecode_data}, plus {@link #BASE_STEPS}. */
  static final long STEPS_PER_BYTE = 64;

  static final long BASE_STEPS = 1 << 16;

  /** The work allowed for one module; {@link #charge} fails once it is spent. */
  static final class Budget {
    private final long limit;
    private final String purpose;
    private long used;

    Budget(long limit) {
      this(limit, "for types");
    }

    /** A budget of {@code limit} steps for reading the bytecode {@code purpose} (messages). */
    Budget(long limit, String purpose) {
      this.limit = limit;
      this.purpose = purpose;
    }

    /** The budget for a module of {@code bytecodeBytes} bytes of bytecode. */
    static long limitFor(long bytecodeBytes) {
      return STEPS_PER_BYTE * bytecodeBytes + BASE_STEPS;
    }

    void charge(long steps) throws BodyException {
      used += steps;
      if (used > limit) {
        throw new BodyException(
            "reading the module's bytecode "
                + purpose
                + " took more than its budget of "
                + limit
                + " steps ("
                + STEPS_PER_BYTE
                + " per byte of bytecode); the rest was not read");
      }
    }
  }

  /** Where a module's function bodies are: what {@link ModuleDefReader} located. */
  record Code(
      Vector descriptors,
      int descriptorSize,
      Vector bytecode,
      List<Optional<String>> conventions) {}

  private final FlatBuffer fb;
  private final Code code;
  private final BytecodeOps ops;
  private final List<VmfbImport> imports;
  private final ImportRole[] roles;
  private final Budget budget;
  private final HashMap<Integer, FunctionFacts> memo = new HashMap<>();
  private final BitSet inProgress = new BitSet();
  private final HashMap<Integer, Optional<CallingConvention>> conventions = new HashMap<>();

  private BytecodeTypeReader(FlatBuffer fb, Code code, BytecodeOps ops, List<VmfbImport> imports) {
    this.fb = fb;
    this.code = code;
    this.ops = ops;
    this.imports = imports;
    this.roles = new ImportRole[imports.size()];
    for (int i = 0; i < roles.length; i++) {
      ImportRole role = ImportRole.of(imports.get(i).name());
      Optional<String> cconv = imports.get(i).callingConvention();
      if (role.expectedConvention().isPresent()
          && cconv.isPresent()
          && !cconv.equals(role.expectedConvention())) {
        // Another signature than the one whose operand positions are known: not read for types.
        role = ImportRole.of("");
      }
      roles[i] = role;
    }
    this.budget = new Budget(Budget.limitFor(code.bytecode().count));
  }

  /**
   * The bytecode types of each export, in order.
   *
   * @param code where the bodies are, or empty when the module has none
   * @param version the module's bytecode version, or empty (before 2022-05)
   * @throws VmfbFormatException when an export's function descriptor lies outside the bytecode
   */
  static List<BytecodeTypes> read(
      FlatBuffer fb,
      Optional<Code> code,
      Optional<BytecodeVersion> version,
      List<VmfbImport> imports,
      List<VmfbExport> exports)
      throws VmfbFormatException {
    List<BytecodeTypes> out = new ArrayList<>(exports.size());
    Optional<BytecodeOps> ops = version.flatMap(BytecodeOps::of);
    BytecodeTypeReader reader =
        code.isPresent() && ops.isPresent()
            ? new BytecodeTypeReader(fb, code.get(), ops.get(), imports)
            : null;
    for (VmfbExport e : exports) {
      Optional<CallingConvention> cconv = parse(e.callingConvention());
      if (cconv.isEmpty() || cconv.get().isVariadic() || !hasRef(cconv.get())) {
        out.add(BytecodeTypes.none());
      } else if (code.isEmpty()) {
        out.add(BytecodeTypes.unreadable("the module has no function bodies"));
      } else if (reader == null) {
        out.add(BytecodeTypes.unreadable(unknownVersion(version)));
      } else {
        out.add(reader.export(e, cconv.get()));
      }
    }
    return out;
  }

  /** Why bodies of {@code version} (empty: before versions) are not decoded. */
  static String unknownVersion(Optional<BytecodeVersion> version) {
    return version.isEmpty()
        ? "the module predates bytecode versions (2022-05), whose encodings this reader does not"
            + " know"
        : "bytecode version "
            + version.get()
            + " is not one this reader decodes ("
            + BytecodeOps.KNOWN
            + ")";
  }

  private static Optional<CallingConvention> parse(Optional<String> text) {
    try {
      return text.map(CallingConvention::parse);
    } catch (AbiParseException e) {
      return Optional.empty();
    }
  }

  private static boolean hasRef(CallingConvention c) {
    return c.argumentKinds().contains(VmKind.REF) || c.resultKinds().contains(VmKind.REF);
  }

  private BytecodeTypes export(VmfbExport e, CallingConvention cconv) throws VmfbFormatException {
    int ordinal = e.internalOrdinal();
    if (ordinal < 0 || ordinal >= code.descriptors().count) {
      throw fb.error(
          "BytecodeModuleDef.function_descriptors",
          code.descriptors().start,
          "export '"
              + e.name()
              + "' has internal_ordinal "
              + ordinal
              + ", but there are "
              + code.descriptors().count
              + " function descriptors");
    }
    checkDescriptor(ordinal);
    // A function is analysed under one calling convention, and its facts are sized by it: an
    // export that states another one for the same function (two exports of one function, or an
    // export disagreeing with the module's function table) cannot use them.
    Optional<CallingConvention> declared = declaredConvention(ordinal);
    if (declared.isPresent() && !declared.get().equals(cconv)) {
      return BytecodeTypes.unreadable(
          "export '"
              + e.name()
              + "' has calling convention "
              + cconv
              + ", but its function "
              + ordinal
              + " has "
              + declared.get()
              + " (from the module's function table or another export of it); its body was not"
              + " read for the export's types");
    }
    if (declared.isEmpty()) {
      conventions.put(ordinal, Optional.of(cconv));
    }
    FunctionFacts facts = facts(ordinal, 0);
    if (facts == null) {
      return BytecodeTypes.none();
    }
    if (facts.problem != null) {
      return BytecodeTypes.unreadable(
          "function " + ordinal + " (bytecode " + ops.version() + "): " + facts.problem);
    }
    return signature(cconv, facts);
  }

  /** The signature {@code facts} give a function of {@code cconv}; none when nothing is typed. */
  static BytecodeTypes signature(CallingConvention cconv, FunctionFacts facts) {
    List<VmKind> argKinds = cconv.argumentKinds();
    List<AbiType> args = new ArrayList<>();
    boolean typed = false;
    for (int i = 0; i < argKinds.size(); i++) {
      AbiType t = CallingConvention.typeOf(argKinds.get(i));
      if (argKinds.get(i) == VmKind.REF) {
        if (facts.argumentTypes[i] != null) {
          t = facts.argumentTypes[i];
        } else if (facts.fences[i]) {
          t = new AbiType.Ref("hal.fence");
        }
      }
      typed |= !t.equals(CallingConvention.typeOf(argKinds.get(i)));
      args.add(t);
    }
    List<AbiType> results = new ArrayList<>();
    List<VmKind> resultKinds = cconv.resultKinds();
    for (int m = 0; m < resultKinds.size(); m++) {
      AbiType t = CallingConvention.typeOf(resultKinds.get(m));
      Registers.Value v = m < facts.results.length ? facts.results[m] : null;
      if (resultKinds.get(m) == VmKind.REF) {
        if (v instanceof Registers.View view) {
          t = view.type();
        } else if (v instanceof Registers.Arg arg && facts.argumentTypes[arg.index()] != null) {
          t = facts.argumentTypes[arg.index()];
        } else if (v instanceof Registers.Fence) {
          t = new AbiType.Ref("hal.fence");
        }
      }
      typed |= !t.equals(CallingConvention.typeOf(resultKinds.get(m)));
      results.add(t);
    }
    if (!typed) {
      return BytecodeTypes.none();
    }
    FunctionSignature s = FunctionSignature.of(args, results, ReflectionFormat.BYTECODE);
    int n = args.size();
    AbiType fence = new AbiType.Ref("hal.fence");
    if (n >= 2 && args.get(n - 2).equals(fence) && args.get(n - 1).equals(fence)) {
      s =
          FunctionSignature.of(args.subList(0, n - 2), results, ReflectionFormat.BYTECODE)
              .withModel(FunctionSignature.CallingModel.COARSE_FENCES);
    }
    return BytecodeTypes.typed(s);
  }

  /**
   * Every op of every function body, as {@code offset mnemonic} lines per internal function, or one
   * line {@code error: ...} where a body does not decode (for the cross-check with IREE's
   * disassembler).
   */
  static List<List<String>> listing(
      FlatBuffer fb, Optional<Code> code, BytecodeVersion version, List<VmfbImport> imports)
      throws VmfbFormatException {
    List<List<String>> out = new ArrayList<>();
    Optional<BytecodeOps> ops = BytecodeOps.of(version);
    if (code.isEmpty() || ops.isEmpty()) {
      return out;
    }
    BytecodeTypeReader r = new BytecodeTypeReader(fb, code.get(), ops.get(), imports);
    for (int f = 0; f < code.get().descriptors().count; f++) {
      List<String> lines = new ArrayList<>();
      try {
        BodyWalker.walk(
            r.reader(f),
            ops.get().blockMarkers(),
            imports.size(),
            code.get().descriptors().count,
            r.budget,
            (offset, mnemonic) -> lines.add(String.format("%08X %s", offset, mnemonic)));
      } catch (BodyException e) {
        lines.add("error: " + e.getMessage());
      }
      out.add(lines);
    }
    return out;
  }

  // ------------------------------------------------------------------ for BodyAnalysis

  Budget budget() {
    return budget;
  }

  BytecodeOps ops() {
    return ops;
  }

  ImportRole importRole(int index) {
    return roles[index];
  }

  Optional<List<VmKind>> importResultKinds(int index) {
    return parse(imports.get(index).callingConvention()).map(CallingConvention::resultKinds);
  }

  Optional<List<VmKind>> resultKinds(int ordinal) {
    return convention(ordinal).map(CallingConvention::resultKinds);
  }

  Optional<List<VmKind>> argumentKinds(int ordinal) {
    return convention(ordinal).map(CallingConvention::argumentKinds);
  }

  private Optional<CallingConvention> convention(int ordinal) {
    return declaredConvention(ordinal).filter(c -> !c.isVariadic());
  }

  /**
   * The calling convention function {@code ordinal} is analysed under: the module's own record of
   * it, or the first export's that named it; once set, never changed.
   */
  private Optional<CallingConvention> declaredConvention(int ordinal) {
    return conventions.computeIfAbsent(
        ordinal,
        o -> o < code.conventions().size() ? parse(code.conventions().get(o)) : Optional.empty());
  }

  /**
   * The facts of internal function {@code ordinal}, analysed once; null when they cannot be had
   * without guessing: its calling convention is unknown, the calls are nested deeper than {@link
   * #MAX_CALL_DEPTH}, or it is already being analysed (a recursive call).
   */
  FunctionFacts facts(int ordinal, int depth) {
    FunctionFacts known = memo.get(ordinal);
    if (known != null) {
      return known;
    }
    Optional<CallingConvention> cconv = convention(ordinal);
    if (cconv.isEmpty() || depth > MAX_CALL_DEPTH || inProgress.get(ordinal)) {
      return null;
    }
    inProgress.set(ordinal);
    FunctionFacts facts;
    try {
      OpReader reader = reader(ordinal);
      checkRegisters(cconv.get(), reader);
      BitSet blocks =
          BodyWalker.walk(
              reader, ops.blockMarkers(), imports.size(), code.descriptors().count, budget, null);
      facts = BodyAnalysis.run(this, reader, blocks, depth, cconv.get());
    } catch (BodyException e) {
      facts = FunctionFacts.unreadable(e.getMessage());
    } catch (VmfbFormatException e) {
      facts = FunctionFacts.unreadable(e.detail());
    } finally {
      inProgress.clear(ordinal);
    }
    memo.put(ordinal, facts);
    return facts;
  }

  /** As IREE's verifier: the arguments must fit the function's registers. */
  private static void checkRegisters(CallingConvention cconv, OpReader reader)
      throws BodyException {
    int refs = 0;
    int i32 = 0;
    for (VmKind k : cconv.argumentKinds()) {
      if (k == VmKind.REF) {
        refs++;
      } else if (k == VmKind.I64 || k == VmKind.F64) {
        i32 += (i32 % 2) + 2;
      } else {
        i32++;
      }
    }
    if (refs > reader.refCount() || i32 > reader.i32Count()) {
      throw new BodyException(
          "its calling convention needs "
              + refs
              + " ref and "
              + i32
              + " i32 registers for its"
              + " arguments, but the function has "
              + reader.refCount()
              + " and "
              + reader.i32Count());
    }
  }

  /** A reader of function {@code ordinal}'s body, after checking its descriptor. */
  OpReader reader(int ordinal) throws VmfbFormatException {
    return reader(fb, code, ops, ordinal);
  }

  /** A reader of function {@code ordinal}'s body in {@code code}, after checking its descriptor. */
  static OpReader reader(FlatBuffer fb, Code code, BytecodeOps ops, int ordinal)
      throws VmfbFormatException {
    long at = checkDescriptor(fb, code, ordinal);
    int offset = fb.i32(at);
    int length = fb.i32(at + 4);
    boolean wide = code.descriptorSize() == ModuleDefLayout.DESCRIPTOR_SIZE_2023;
    int i32 = fb.u16(at + (wide ? 16 : 8));
    int refs = fb.u16(at + (wide ? 18 : 10));
    return new OpReader(
        fb.buffer(),
        (int) (code.bytecode().start + offset),
        length,
        ops,
        roundUp(i32),
        roundUp(refs));
  }

  /** As IREE's runtime sizes a register bank: at least 1, rounded up to a power of two. */
  private static int roundUp(int count) {
    return Integer.highestOneBit(Math.max(1, count) * 2 - 1);
  }

  private long checkDescriptor(int ordinal) throws VmfbFormatException {
    return checkDescriptor(fb, code, ordinal);
  }

  private static long checkDescriptor(FlatBuffer fb, Code code, int ordinal)
      throws VmfbFormatException {
    long at = code.descriptors().element(ordinal);
    long offset = fb.i32(at);
    long length = fb.i32(at + 4);
    if (offset < 0 || length <= 0 || offset + length > code.bytecode().count) {
      throw fb.error(
          "BytecodeModuleDef.function_descriptors[" + ordinal + "]",
          at,
          "names bytes ["
              + offset
              + ", "
              + (offset + length)
              + ") of bytecode_data, which has "
              + code.bytecode().count);
    }
    return at;
  }
}
