package dev.ireestubs.abi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The calling-convention string every IREE function carries ({@code
 * FunctionSignatureDef.calling_convention}), e.g. {@code 0rr_r}: how many values of which VM kind
 * the function takes and returns.
 *
 * <p>Grammar, as IREE's compiler writes it: the version {@code 0}; one character per argument
 * ({@code i} i32 and every integer width other than 64, {@code I} i64, {@code f} f32, {@code F}
 * f64, {@code r} ref), or {@code v} when there are none; {@code _}; one character per result, or
 * {@code v}. Imports may mark a variadic argument with {@code C...D}: the kinds between {@code C}
 * and {@code D} repeat any number of times at the call (e.g. {@code 0rCrrD_v}). Variadic segments
 * do not nest and never occur among results.
 *
 * <p>Printing is exact: {@code CallingConvention.parse(s).toString()} is {@code s} for every string
 * this parser accepts.
 *
 * @param arguments the argument segments, in order (empty for {@code v})
 * @param results the result kinds, in order (empty for {@code v})
 */
@SuppressWarnings("EnumOrdinal") // tables indexed by the ordinal, filled from values() here
public record CallingConvention(List<Segment> arguments, List<VmKind> results) {

  /** The only calling-convention version IREE has defined. */
  public static final char VERSION = '0';

  private static final ReflectionFormat FORMAT = ReflectionFormat.CALLING_CONVENTION;

  /** One argument position of a calling convention: a single value, or a variadic span. */
  public sealed interface Segment {
    /**
     * The kinds this segment covers: one for {@link Single}, the repeated group for {@link
     * Variadic}.
     *
     * @return the kinds, in order
     */
    List<VmKind> kinds();
  }

  /**
   * One argument of one VM kind.
   *
   * @param kind the argument's kind
   */
  public record Single(VmKind kind) implements Segment {
    /**
     * Refuses a null kind.
     *
     * @param kind the argument's kind
     */
    public Single {
      Objects.requireNonNull(kind, "kind");
    }

    /**
     * The one argument of {@code kind}, shared: a convention of a million slots holds five objects,
     * not a million.
     *
     * @param kind the argument's kind
     * @return the shared single argument of that kind
     */
    public static Single of(VmKind kind) {
      return SINGLES[kind.ordinal()];
    }

    private static final Single[] SINGLES = new Single[VmKind.values().length];

    static {
      for (VmKind k : VmKind.values()) {
        SINGLES[k.ordinal()] = new Single(k);
      }
    }

    @Override
    public List<VmKind> kinds() {
      return List.of(kind);
    }

    @Override
    public String toString() {
      return String.valueOf(kind.code());
    }
  }

  /**
   * A variadic argument {@code C...D}: the group of kinds between the markers is passed any number
   * of times (zero or more), one group after another. Only imports have these.
   *
   * @param kinds the group repeated at the call; never empty
   */
  public record Variadic(List<VmKind> kinds) implements Segment {
    /**
     * Copies the kinds and refuses an empty group.
     *
     * @param kinds the group repeated at the call; never empty
     */
    public Variadic {
      kinds = List.copyOf(kinds);
      if (kinds.isEmpty()) {
        throw new IllegalArgumentException("a variadic segment needs at least one kind");
      }
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("C");
      kinds.forEach(k -> sb.append(k.code()));
      return sb.append('D').toString();
    }
  }

  /**
   * Copies both lists.
   *
   * @param arguments the argument segments, in order (empty for {@code v})
   * @param results the result kinds, in order (empty for {@code v})
   */
  public CallingConvention {
    arguments = List.copyOf(arguments);
    results = List.copyOf(results);
  }

  /**
   * A calling convention with no variadic segment.
   *
   * @param argumentKinds the kind of each argument, in order
   * @param resultKinds the kind of each result, in order
   * @return a calling convention of version 0
   */
  public static CallingConvention of(List<VmKind> argumentKinds, List<VmKind> resultKinds) {
    List<Segment> segments = new ArrayList<>();
    argumentKinds.forEach(k -> segments.add(Single.of(k)));
    return new CallingConvention(segments, resultKinds);
  }

  // ---------------------------------------------------------------- parsing

  /**
   * Parses a calling-convention string such as {@code 0rr_r}, {@code 0v_v} or {@code 0rCrrD_v}.
   *
   * @param text the calling convention as a module records it
   * @return the parsed segments and results
   * @throws AbiParseException naming the character offset and what was expected, for an unknown
   *     version, a character that is not a kind, a missing {@code _}, an unbalanced or nested
   *     {@code C...D}, a misplaced {@code v}, or text longer than {@link
   *     ParseLimits#MAX_TEXT_LENGTH}
   */
  public static CallingConvention parse(String text) {
    Objects.requireNonNull(text, "text");
    ParseLimits.checkTextLength(FORMAT, text);
    if (text.isEmpty()) {
      throw error(0, "expected the version '0', found an empty string");
    }
    if (text.charAt(0) != VERSION) {
      throw error(
          0,
          "expected the version '0' (the only calling-convention version IREE defines), found "
              + describe(text, 0));
    }
    int underscore = text.indexOf('_', 1);
    List<Segment> args = new ArrayList<>();
    int pos = parseSide(text, 1, underscore < 0 ? text.length() : underscore, true, args);
    if (pos >= text.length()) {
      throw error(
          pos, "expected '_' between the argument and result kinds, found the end of the text");
    }
    List<Segment> resultSegments = new ArrayList<>();
    parseSide(text, pos + 1, text.length(), false, resultSegments);
    List<VmKind> res = new ArrayList<>();
    resultSegments.forEach(s -> res.add(((Single) s).kind()));
    return new CallingConvention(args, res);
  }

  /**
   * Parses the kinds in {@code [start, end)}; returns {@code end}. {@code end} is the first {@code
   * _} (or the text's end) for arguments and the text's end for results.
   */
  private static int parseSide(
      String text, int start, int end, boolean arguments, List<Segment> out) {
    String side = arguments ? "argument" : "result";
    if (start == end) {
      throw error(
          start,
          "expected "
              + side
              + " kinds (i, I, f, F, r) or 'v' for none, found "
              + describe(text, start));
    }
    if (text.charAt(start) == 'v') {
      if (start + 1 != end) {
        throw error(
            start + 1,
            "'v' means no "
                + side
                + "s and stands alone, found "
                + describe(text, start + 1)
                + " after it");
      }
      return end;
    }
    int variadicStart = -1;
    List<VmKind> group = null;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      Optional<VmKind> kind = VmKind.fromCode(c);
      if (kind.isPresent()) {
        if (group != null) {
          group.add(kind.get());
        } else {
          out.add(Single.of(kind.get()));
        }
      } else if (c == 'C' && !arguments) {
        throw error(
            i, "variadic segments 'C...D' occur only among arguments, found 'C' in the results");
      } else if (c == 'C') {
        if (group != null) {
          throw error(
              i,
              "variadic segments do not nest: found 'C' inside the one opened at offset "
                  + variadicStart);
        }
        variadicStart = i;
        group = new ArrayList<>();
      } else if (c == 'D' && arguments) {
        if (group == null) {
          throw error(i, "found 'D' with no open variadic segment 'C'");
        }
        if (group.isEmpty()) {
          throw error(
              i,
              "expected at least one kind in the variadic segment opened at offset "
                  + variadicStart
                  + ", found 'D'");
        }
        out.add(new Variadic(group));
        group = null;
      } else if (c == 'v') {
        throw error(i, "'v' means no " + side + "s and stands alone, found it after other kinds");
      } else {
        throw error(
            i,
            "expected "
                + (arguments ? "an argument" : "a result")
                + " kind (i, I, f, F, r"
                + (arguments ? ", C, D" : "")
                + "), found "
                + describe(text, i));
      }
    }
    if (group != null) {
      throw error(
          end,
          "expected 'D' to close the variadic segment opened at offset "
              + variadicStart
              + ", found "
              + describe(text, end));
    }
    return end;
  }

  private static String describe(String text, int i) {
    if (i >= text.length()) {
      return "the end of the text";
    }
    char c = text.charAt(i);
    if (c < 0x20 || c == 0x7f) {
      return String.format("character U+%04X", (int) c);
    }
    return "'" + c + "'";
  }

  private static AbiParseException error(int offset, String detail) {
    return new AbiParseException(FORMAT, "offset " + offset, detail);
  }

  // ---------------------------------------------------------------- queries

  /**
   * True when some argument is a variadic segment {@code C...D} (imports only).
   *
   * @return true when an argument repeats, as some imports' do
   */
  public boolean isVariadic() {
    for (Segment s : arguments) {
      if (s instanceof Variadic) {
        return true;
      }
    }
    return false;
  }

  /**
   * The number of fixed (non-variadic) arguments.
   *
   * @return how many fixed arguments there are
   */
  public int arity() {
    int n = 0;
    for (Segment s : arguments) {
      if (s instanceof Single) {
        n++;
      }
    }
    return n;
  }

  /**
   * The kinds of the fixed (non-variadic) arguments, in order; all of them when not variadic.
   *
   * @return the fixed arguments' kinds, unmodifiable
   */
  public List<VmKind> argumentKinds() {
    if (!isVariadic()) {
      // A view, not a copy: callers ask this often, of conventions of any length.
      return new java.util.AbstractList<VmKind>() {
        @Override
        public VmKind get(int index) {
          return ((Single) arguments.get(index)).kind();
        }

        @Override
        public int size() {
          return arguments.size();
        }
      };
    }
    List<VmKind> kinds = new ArrayList<>();
    for (Segment s : arguments) {
      if (s instanceof Single single) {
        kinds.add(single.kind());
      }
    }
    return List.copyOf(kinds);
  }

  /**
   * The result kinds, in order (same as {@link #results()}).
   *
   * @return the results' kinds, unmodifiable
   */
  public List<VmKind> resultKinds() {
    return results;
  }

  /**
   * The signature this calling convention alone implies, in format {@link
   * ReflectionFormat#CALLING_CONVENTION}: {@code i} becomes an {@code i32} scalar, {@code I} an
   * {@code i64}, {@code f} an {@code f32}, {@code F} an {@code f64} and {@code r} a ref of unknown
   * type ({@link AbiType.Ref#any()}). The model is {@link FunctionSignature.CallingModel#SYNC}: a
   * calling convention cannot tell fences from other refs.
   *
   * @return a signature whose types are the slots' plain types
   * @throws IllegalStateException when the convention is variadic: a signature has a fixed argument
   *     list, and a variadic import is not something a stub can call
   */
  public FunctionSignature toSignature() {
    if (isVariadic()) {
      throw new IllegalStateException(
          "calling convention "
              + this
              + " has a variadic segment C...D (imports only) and cannot"
              + " become a FunctionSignature, which has a fixed argument list");
    }
    List<AbiType> args = new ArrayList<>();
    argumentKinds().forEach(k -> args.add(typeOf(k)));
    List<AbiType> res = new ArrayList<>();
    results.forEach(k -> res.add(typeOf(k)));
    return FunctionSignature.of(args, res, FORMAT);
  }

  /**
   * The type record a calling-convention slot of {@code kind} stands for when nothing more is
   * known: {@code i32}, {@code i64}, {@code f32}, {@code f64}, or a ref of unknown type.
   *
   * @param kind a slot kind
   * @return the plain type of such a slot
   */
  public static AbiType typeOf(VmKind kind) {
    // Shared (the records are immutable): a signature of a million slots holds five types.
    return PLAIN_TYPES[kind.ordinal()];
  }

  private static final AbiType[] PLAIN_TYPES = new AbiType[VmKind.values().length];

  static {
    for (VmKind k : VmKind.values()) {
      switch (k) {
        case I32 -> PLAIN_TYPES[k.ordinal()] = new AbiType.Scalar(ElementType.I32);
        case I64 -> PLAIN_TYPES[k.ordinal()] = new AbiType.Scalar(ElementType.I64);
        case F32 -> PLAIN_TYPES[k.ordinal()] = new AbiType.Scalar(ElementType.F32);
        case F64 -> PLAIN_TYPES[k.ordinal()] = new AbiType.Scalar(ElementType.F64);
        default -> PLAIN_TYPES[k.ordinal()] = AbiType.Ref.any();
      }
    }
  }

  /**
   * The calling convention a function with {@code signature} has: one kind per VM argument
   * (including the wait and signal fences of {@link FunctionSignature.CallingModel#COARSE_FENCES})
   * and per raw VM result ({@link FunctionSignature#vmResults()}). Empty when some slot's type has
   * no single VM kind ({@code f16} scalars, {@link AbiType.Any}, {@link AbiType.Unknown}, {@link
   * AbiType.Unsupported}); {@link #mismatches} still checks the slots that have one.
   *
   * @param signature the function's signature
   * @return the calling convention, or empty when some slot's type has no single kind
   */
  public static Optional<CallingConvention> expectedFor(FunctionSignature signature) {
    List<VmKind> args = new ArrayList<>();
    for (AbiType t : signature.arguments()) {
      Optional<VmKind> k = t.vmKind();
      if (k.isEmpty()) {
        return Optional.empty();
      }
      args.add(k.get());
    }
    if (signature.model() == FunctionSignature.CallingModel.COARSE_FENCES) {
      args.add(VmKind.REF);
      args.add(VmKind.REF);
    }
    List<VmKind> res = new ArrayList<>();
    for (AbiType t : signature.vmResults()) {
      Optional<VmKind> k = t.vmKind();
      if (k.isEmpty()) {
        return Optional.empty();
      }
      res.add(k.get());
    }
    return Optional.of(of(args, res));
  }

  /**
   * Checks {@code signature} against this calling convention: the VM argument count (with the two
   * fences of {@link FunctionSignature.CallingModel#COARSE_FENCES}), the raw result count, and the
   * VM kind of every slot whose type has one. Positions are 0-based, as in the VM's argument list.
   *
   * @param signature the signature to check
   * @return one readable sentence per mismatch, e.g. {@code argument 1: the reflection says i64
   *     (cconv I) but the function takes r}; empty when they agree
   */
  public List<String> mismatches(FunctionSignature signature) {
    List<String> out = new ArrayList<>();
    if (isVariadic()) {
      out.add(
          "the calling convention "
              + this
              + " is variadic (C...D, imports only); no reflection"
              + " signature describes a variadic function");
      return out;
    }
    boolean fenced = signature.model() == FunctionSignature.CallingModel.COARSE_FENCES;
    List<AbiType> args = new ArrayList<>(signature.arguments());
    if (fenced) {
      args.add(new AbiType.Ref("hal.fence"));
      args.add(new AbiType.Ref("hal.fence"));
    }
    List<VmKind> argKinds = argumentKinds();
    if (args.size() != argKinds.size()) {
      out.add(
          "the reflection describes "
              + count(args.size(), "argument")
              + (fenced
                  ? " ("
                      + signature.arguments().size()
                      + " declared + the wait and signal fences"
                      + " of coarse-fences)"
                  : "")
              + " but the calling convention "
              + this
              + " takes "
              + argKinds.size());
    }
    compare(out, "argument", args, argKinds, fenced ? signature.arguments().size() : -1);
    List<AbiType> res = signature.vmResults();
    if (res.size() != results.size()) {
      out.add(
          "the reflection describes "
              + count(res.size(), "result")
              + (signature.hasInlinedResults() ? " (the inlined children of its one result)" : "")
              + " but the calling convention "
              + this
              + " returns "
              + results.size());
    }
    compare(out, "result", res, results, -1);
    return List.copyOf(out);
  }

  /**
   * True when {@link #mismatches} finds none.
   *
   * @param signature the signature to check
   * @return true when the signature fits this calling convention
   */
  public boolean matches(FunctionSignature signature) {
    return mismatches(signature).isEmpty();
  }

  private static void compare(
      List<String> out, String what, List<AbiType> types, List<VmKind> kinds, int firstFence) {
    int n = Math.min(types.size(), kinds.size());
    for (int i = 0; i < n; i++) {
      Optional<VmKind> expected = types.get(i).vmKind();
      if (isIndex(types.get(i)) && (kinds.get(i) == VmKind.I32 || kinds.get(i) == VmKind.I64)) {
        continue; // index is i64, or i32 in modules compiled with 32-bit index
      }
      if (expected.isPresent() && expected.get() != kinds.get(i)) {
        String slot =
            firstFence >= 0 && i >= firstFence
                ? (i == firstFence ? " (the wait fence)" : " (the signal fence)")
                : "";
        out.add(
            what
                + " "
                + i
                + slot
                + ": the reflection says "
                + types.get(i)
                + " (cconv "
                + expected.get().code()
                + ") but the function "
                + (what.equals("argument") ? "takes " : "returns ")
                + kinds.get(i).code());
      }
    }
  }

  private static boolean isIndex(AbiType type) {
    AbiType t = type instanceof AbiType.Named named ? named.type() : type;
    return t instanceof AbiType.Scalar scalar && scalar.element().kind() == ElementType.Kind.INDEX;
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  // ---------------------------------------------------------------- printing

  /** The calling-convention string, e.g. {@code 0rr_r}; exactly what {@link #parse} accepts. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder().append(VERSION);
    if (arguments.isEmpty()) {
      sb.append('v');
    }
    for (Segment s : arguments) {
      if (s instanceof Single single) {
        sb.append(single.kind().code());
      } else {
        sb.append(s);
      }
    }
    sb.append('_');
    if (results.isEmpty()) {
      sb.append('v');
    }
    results.forEach(k -> sb.append(k.code()));
    return sb.toString();
  }
}
