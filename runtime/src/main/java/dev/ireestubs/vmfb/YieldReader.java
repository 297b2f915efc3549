package dev.ireestubs.vmfb;

import dev.ireestubs.vmfb.BytecodeTypeReader.Budget;
import dev.ireestubs.vmfb.OpReader.BodyException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Finds, for every export, whether its calls may reach a {@code vm.yield} ({@link YieldReach}): a
 * pass of its own over every function body, apart from the reading of types, so that it adds no
 * diagnostics and changes nothing else the reader gives.
 *
 * <p>Each body is decoded once ({@link BodyWalker}, which also checks that calls name functions and
 * imports that exist), noting its first {@code vm.yield} (opcode 0x5D), the module's functions it
 * calls and the imports it calls, through any call op ({@code vm.call}, {@code vm.call.variadic},
 * {@code vm.call.yieldable}, {@code vm.call.variadic.yieldable}): IREE's dispatcher runs an
 * internal callee in the caller's dispatch loop whichever op called it, so a yield in the callee
 * suspends the whole call. Then "reaches a yield" and "reaches an unreadable body" spread from the
 * functions that have one to their callers, each function marked once (linear in the calls), and
 * each export's imports are gathered by a walk of what it reaches.
 *
 * <p>Bounded work: every step is charged to one budget per module, proportional to its bytecode (as
 * the reader of types does); what the budget does not cover is reported as unread.
 */
final class YieldReader {

  private static final int UNSET = -2;
  private static final int HERE = -1;

  /** What one body holds: its first yield, its callees and imports, or why it was not read. */
  private static final class Body {
    int yieldOffset = -1;
    final BitSet callees = new BitSet();
    final BitSet imports = new BitSet();
    String problem;
  }

  private final List<VmfbImport> imports;
  private final String version;
  private final Body[] bodies;
  private final int[] yieldVia;
  private final int[] unreadVia;
  private final Budget budget;

  private YieldReader(
      FlatBuffer fb, BytecodeTypeReader.Code code, BytecodeOps ops, List<VmfbImport> imports) {
    this.imports = imports;
    this.version = ops.version();
    this.budget =
        new Budget(Budget.limitFor(code.bytecode().count), "for the yields of its functions");
    int count = code.descriptors().count;
    this.bodies = new Body[count];
    for (int f = 0; f < count; f++) {
      bodies[f] = decode(fb, code, ops, f);
    }
    List<List<Integer>> callers = new ArrayList<>(count);
    for (int f = 0; f < count; f++) {
      callers.add(new ArrayList<>());
    }
    for (int f = 0; f < count; f++) {
      BitSet callees = bodies[f].callees;
      for (int g = callees.nextSetBit(0); g >= 0; g = callees.nextSetBit(g + 1)) {
        callers.get(g).add(f);
      }
    }
    this.yieldVia = spread(callers, f -> bodies[f].yieldOffset >= 0);
    this.unreadVia = spread(callers, f -> bodies[f].problem != null);
  }

  /**
   * What the calls of each export reach, in order.
   *
   * @param code where the bodies are, or empty when the module has none
   * @param version the module's bytecode version, or empty (before 2022-05)
   */
  static List<YieldReach> read(
      FlatBuffer fb,
      Optional<BytecodeTypeReader.Code> code,
      Optional<BytecodeVersion> version,
      List<VmfbImport> imports,
      List<VmfbExport> exports) {
    List<YieldReach> out = new ArrayList<>(exports.size());
    Optional<BytecodeOps> ops = version.flatMap(BytecodeOps::of);
    if (code.isEmpty() || ops.isEmpty()) {
      YieldReach none =
          YieldReach.unread(
              code.isEmpty()
                  ? "the module has no function bodies"
                  : BytecodeTypeReader.unknownVersion(version));
      exports.forEach(e -> out.add(none));
      return out;
    }
    YieldReader reader = new YieldReader(fb, code.get(), ops.get(), imports);
    for (VmfbExport e : exports) {
      out.add(reader.export(e));
    }
    return out;
  }

  private Body decode(FlatBuffer fb, BytecodeTypeReader.Code code, BytecodeOps ops, int ordinal) {
    Body body = new Body();
    try {
      OpReader reader = BytecodeTypeReader.reader(fb, code, ops, ordinal);
      BodyWalker.walk(
          reader,
          ops.blockMarkers(),
          imports.size(),
          bodies.length,
          budget,
          (offset, mnemonic) -> note(reader, offset, body));
    } catch (BodyException e) {
      body.problem = e.getMessage();
    } catch (VmfbFormatException e) {
      body.problem = e.detail();
    }
    return body;
  }

  /** Notes the op {@code reader} decoded at {@code offset}, if it yields or calls. */
  private static void note(OpReader reader, int offset, Body body) {
    BytecodeOps.Op op = reader.op;
    if (op.table() != BytecodeOps.CORE) {
      return;
    }
    switch (op.code()) {
      case BytecodeOps.YIELD -> {
        if (body.yieldOffset < 0) {
          body.yieldOffset = offset;
        }
      }
      case BytecodeOps.CALL,
          BytecodeOps.CALL_VARIADIC,
          BytecodeOps.CALL_YIELDABLE,
          BytecodeOps.CALL_VARIADIC_YIELDABLE -> {
        long ordinal = reader.imms[0];
        int index = (int) (ordinal & ~OpReader.IMPORT_BIT);
        if ((ordinal & OpReader.IMPORT_BIT) != 0) {
          body.imports.set(index);
        } else {
          body.callees.set(index);
        }
      }
      default -> {}
    }
  }

  private interface Marked {
    boolean test(int function);
  }

  /**
   * For each function, the callee through which it reaches a function {@code marked} says has the
   * thing ({@link #HERE} for those, {@link #UNSET} for none): from the marked ones to their
   * callers, breadth first, so each function's chain is a shortest one and ends at a marked
   * function.
   */
  private int[] spread(List<List<Integer>> callers, Marked marked) {
    int[] via = new int[bodies.length];
    Arrays.fill(via, UNSET);
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    for (int f = 0; f < bodies.length; f++) {
      if (marked.test(f)) {
        via[f] = HERE;
        queue.add(f);
      }
    }
    while (!queue.isEmpty()) {
      int g = queue.poll();
      for (int f : callers.get(g)) {
        if (via[f] == UNSET) {
          via[f] = g;
          queue.add(f);
        }
      }
    }
    return via;
  }

  private YieldReach export(VmfbExport e) {
    int ordinal = e.internalOrdinal();
    if (ordinal < 0 || ordinal >= bodies.length) {
      return YieldReach.unread(
          "export '"
              + e.name()
              + "' has internal_ordinal "
              + ordinal
              + ", but there are "
              + bodies.length
              + " function descriptors");
    }
    Optional<String> yieldAt = Optional.empty();
    if (yieldVia[ordinal] != UNSET) {
      int g = end(yieldVia, ordinal);
      yieldAt =
          Optional.of(
              "function "
                  + g
                  + " runs vm.yield at offset "
                  + OpReader.hex(bodies[g].yieldOffset)
                  + through(yieldVia, ordinal));
    }
    List<String> problems = new ArrayList<>();
    if (unreadVia[ordinal] != UNSET) {
      int g = end(unreadVia, ordinal);
      problems.add(
          "function "
              + g
              + " (bytecode "
              + version
              + "): "
              + bodies[g].problem
              + through(unreadVia, ordinal));
    }
    List<String> names = new ArrayList<>();
    try {
      names = importsReached(ordinal);
    } catch (BodyException x) {
      problems.add("the imports it calls were not all followed: " + x.getMessage());
    }
    return new YieldReach(
        yieldAt,
        names,
        problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems)));
  }

  /** The last function of {@code ordinal}'s chain in {@code via}. */
  private static int end(int[] via, int ordinal) {
    int f = ordinal;
    while (via[f] != HERE) {
      f = via[f];
    }
    return f;
  }

  /** ", reached through calls 0 -> 1 -> 2", or nothing when the chain is the function itself. */
  private static String through(int[] via, int ordinal) {
    if (via[ordinal] == HERE) {
      return "";
    }
    List<Integer> chain = new ArrayList<>();
    for (int f = ordinal; f != HERE; f = via[f]) {
      chain.add(f);
    }
    StringBuilder sb = new StringBuilder(", reached through calls ");
    int n = chain.size();
    for (int i = 0; i < n; i++) {
      if (n > 8 && i == 4) {
        sb.append(" -> ... (").append(n - 7).append(" more)");
        i = n - 4;
        continue;
      }
      sb.append(i == 0 ? "" : " -> ").append(chain.get(i));
    }
    return sb.toString();
  }

  /**
   * The imports that {@code ordinal} and the functions it reaches call, by full name, sorted; a
   * spent budget throws (the caller then reports none, and why).
   */
  private List<String> importsReached(int ordinal) throws BodyException {
    BitSet seen = new BitSet();
    BitSet found = new BitSet();
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    seen.set(ordinal);
    queue.add(ordinal);
    while (!queue.isEmpty()) {
      int f = queue.poll();
      Body body = bodies[f];
      budget.charge(1 + body.callees.cardinality());
      found.or(body.imports);
      BitSet callees = body.callees;
      for (int g = callees.nextSetBit(0); g >= 0; g = callees.nextSetBit(g + 1)) {
        if (!seen.get(g)) {
          seen.set(g);
          queue.add(g);
        }
      }
    }
    TreeSet<String> names = new TreeSet<>();
    for (int i = found.nextSetBit(0); i >= 0; i = found.nextSetBit(i + 1)) {
      names.add(imports.get(i).name());
    }
    return List.copyOf(names);
  }
}
