package dev.ireestubs.abi;

import dev.ireestubs.abi.V0Components.Component;
import dev.ireestubs.abi.V0Components.IntegerComponent;
import dev.ireestubs.abi.V0Components.SpanComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A deprecated V0 SIP (structured index path) signature, reflection key {@code sip} (with {@code
 * abi = "sip"}, and {@code sipv} or {@code abiv} = 1): how the Python values of a function's
 * arguments and results map onto its flat raw signature ({@code f}, {@link V0RawSignature}).
 *
 * <p>The grammar, on top of the components of {@link V0Components}:
 *
 * <pre>
 *   sip       = "I" len "!" [structure] "R" len "!" [structure]
 *   structure = "_" rawIndex                              a leaf
 *             | "S" len "!" ("k" int structure)*          a sequence
 *             | "D" len "!" ("K" len "!" key structure)*  a dict
 * </pre>
 *
 * <p>A side may be empty ({@code I1!R1!}), which is not the same as an empty sequence ({@code
 * I1!R4!S1!}) or an empty dict ({@code I1!R4!D1!}); an empty side is {@link Optional#empty()}. Note
 * that {@code S} means "sequence" here but "scalar" in an {@code f} signature.
 *
 * <p>Reading the old runtime: a root sequence of the inputs takes the positional arguments and a
 * root dict the keyword arguments; each leaf {@code _n} places the value it reaches at raw index
 * {@code n}. The raw values themselves are flat: the structure is Python-side packing only.
 *
 * <p>{@link #parse} checks the grammar only and keeps children in the order written; {@link
 * #problems()} checks what IREE's compiler guaranteed (keys sorted and unique, raw indices exactly
 * {@code 0..n-1} on each side) and {@link #validate()} turns those into an exception.
 *
 * @param inputs the structure of the arguments; empty when the side is empty
 * @param results the structure of the results; empty when the side is empty
 */
public record SipSignature(Optional<SipNode> inputs, Optional<SipNode> results) {

  private static final ReflectionFormat FORMAT = ReflectionFormat.V0_SIP;

  /** How many further problems {@link #validate()} quotes after the first. */
  private static final int MORE_LIMIT = 5;

  /**
   * The most problems {@link #problems()}, {@link #keyOrderProblems()} and {@link
   * #rawIndexProblems()} list (the first found); {@link #validate()} still counts them all.
   */
  public static final int MAX_LISTED_PROBLEMS = 16;

  /**
   * Refuses null inputs or results (an absent side is an empty {@code Optional}).
   *
   * @param inputs the structure of the arguments; empty when the side is empty
   * @param results the structure of the results; empty when the side is empty
   */
  public SipSignature {
    Objects.requireNonNull(inputs, "inputs");
    Objects.requireNonNull(results, "results");
  }

  /**
   * A signature with both sides given; {@code null} for an empty side.
   *
   * @param inputs the input structure, or null for none
   * @param results the result structure, or null for none
   * @return the signature
   */
  public static SipSignature of(SipNode inputs, SipNode results) {
    return new SipSignature(Optional.ofNullable(inputs), Optional.ofNullable(results));
  }

  /**
   * A leaf {@code _rawIndex}.
   *
   * @param rawIndex the raw slot the leaf stands for
   * @return the leaf
   */
  public static SipNode.Leaf leaf(int rawIndex) {
    return new SipNode.Leaf(rawIndex);
  }

  /**
   * A sequence of {@code leaf(0)}, ..., {@code leaf(n-1)} under keys {@code 0..n-1}.
   *
   * @param n how many leaves
   * @return the sequence
   */
  public static SipNode.Sequence leaves(int n) {
    List<SipNode.SequenceEntry> entries = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      entries.add(new SipNode.SequenceEntry(i, new SipNode.Leaf(i)));
    }
    return new SipNode.Sequence(entries);
  }

  // ---------------------------------------------------------------- parsing

  /**
   * Parses a {@code sip} signature such as {@code I12!S9!k0_0k1_1R3!_0}.
   *
   * @param sip the text of a function's {@code sip} attribute
   * @return the parsed signature
   * @throws AbiParseException when the text does not follow the grammar; the message names the byte
   *     offset, what was expected and what was found
   */
  public static SipSignature parse(String sip) {
    V0Components.Reader reader = V0Components.Reader.of(sip, FORMAT);
    SpanComponent in = V0RawSignature.expectSide(reader, 'I', "inputs");
    SpanComponent out = V0RawSignature.expectSide(reader, 'R', "results");
    if (!reader.atEnd()) {
      throw reader.error(
          reader.offset(),
          "expected the end of the signature after the results span R, found "
              + reader.describeAt(reader.offset()));
    }
    return new SipSignature(side(reader.open(in), 'I'), side(reader.open(out), 'R'));
  }

  private static Optional<SipNode> side(V0Components.Reader r, char tag) {
    if (r.atEnd()) {
      return Optional.empty();
    }
    SipNode node = structure(r, r.next());
    if (!r.atEnd()) {
      throw r.error(
          r.offset(),
          "expected the end of side "
              + tag
              + ", which holds at most one structure, found "
              + r.describeAt(r.offset()));
    }
    return Optional.of(node);
  }

  private static SipNode structure(V0Components.Reader r, Component c) {
    if (c instanceof IntegerComponent integerComponent && c.tag() == '_') {
      int index = integerComponent.value();
      if (index < 0) {
        throw r.error(c.offset(), "expected a raw index _<n> with n >= 0, found " + c);
      }
      return new SipNode.Leaf(index);
    }
    if (c instanceof SpanComponent spanComponent && c.tag() == 'S') {
      return sequence(r.open(spanComponent));
    }
    if (c instanceof SpanComponent spanComponent && c.tag() == 'D') {
      return dict(r.open(spanComponent));
    }
    throw r.error(
        c.offset(),
        "expected a structure (_<index> leaf, S sequence or D dict), found "
            + V0RawSignature.describe(c));
  }

  private static SipNode sequence(V0Components.Reader r) {
    List<SipNode.SequenceEntry> entries = new ArrayList<>();
    while (!r.atEnd()) {
      Component key = r.next();
      if (!(key instanceof IntegerComponent integerComponent) || key.tag() != 'k') {
        throw r.error(
            key.offset(),
            "expected a sequence key k<int> in sequence S, found "
                + V0RawSignature.describe(key)
                + (key.tag() == 'K' ? "; string keys K belong in a dict D" : ""));
      }
      int k = integerComponent.value();
      if (k < 0) {
        throw r.error(key.offset(), "expected a sequence key k<int> with int >= 0, found " + key);
      }
      entries.add(new SipNode.SequenceEntry(k, child(r, "key " + key)));
    }
    return new SipNode.Sequence(entries);
  }

  private static SipNode dict(V0Components.Reader r) {
    List<SipNode.DictEntry> entries = new ArrayList<>();
    while (!r.atEnd()) {
      Component key = r.next();
      if (!(key instanceof SpanComponent spanComponent) || key.tag() != 'K') {
        throw r.error(
            key.offset(),
            "expected a dict key K<length>!<key> in dict D, found "
                + V0RawSignature.describe(key)
                + (key.tag() == 'k' ? "; int keys k belong in a sequence S" : ""));
      }
      String k = spanComponent.contents();
      if (k.length() > ParseLimits.MAX_NAME_LENGTH) {
        throw r.error(
            key.offset(),
            ParseLimits.exceeded(
                "the dict key",
                k.length(),
                "characters long",
                "MAX_NAME_LENGTH",
                ParseLimits.MAX_NAME_LENGTH));
      }
      entries.add(new SipNode.DictEntry(k, child(r, "key " + JsonStrings.excerpt(k))));
    }
    return new SipNode.Dict(entries);
  }

  private static SipNode child(V0Components.Reader r, String after) {
    if (r.atEnd()) {
      throw r.error(
          r.offset(),
          "expected a structure (_<index> leaf, S sequence or D dict) after "
              + after
              + ", found "
              + r.describeAt(r.offset()));
    }
    return structure(r, r.next());
  }

  // ---------------------------------------------------------------- encoding

  /**
   * The text of this signature, children in the order held, e.g. {@code I12!S9!k0_0k1_1R3!_0};
   * {@link #parse} reads it back to an equal signature. It is byte for byte what IREE's compiler
   * wrote when the children are in its sorted order ({@link #keyOrderProblems()} is empty).
   *
   * <p>Written in one pass: each span's length is computed from its children rather than by writing
   * them out first, so the cost is linear in the text however deep the structures nest.
   *
   * @return the encoded text
   * @throws IllegalArgumentException when a span would be too long for a V0 length (an {@code int})
   */
  public String encode() {
    StringBuilder sb = new StringBuilder();
    writeSide(sb, 'I', inputs);
    writeSide(sb, 'R', results);
    return sb.toString();
  }

  private static void writeSide(StringBuilder sb, char tag, Optional<SipNode> node) {
    appendSpanHeader(sb, tag, node.isPresent() ? encodedLength(node.get()) : 0);
    node.ifPresent(n -> write(sb, n));
  }

  /** A span's tag, length (the contents' UTF-8 bytes plus one for the {@code !}) and {@code !}. */
  private static void appendSpanHeader(StringBuilder sb, char tag, long contentBytes) {
    if (contentBytes + 1 > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "span contents of " + contentBytes + " bytes are too long for a V0 length");
    }
    sb.append(tag).append(contentBytes + 1).append('!');
  }

  private static void write(StringBuilder sb, SipNode node) {
    if (node instanceof SipNode.Leaf leaf) {
      sb.append('_').append(leaf.rawIndex());
    } else if (node instanceof SipNode.Sequence sequence) {
      List<SipNode.SequenceEntry> entries = sequence.entries();
      appendSpanHeader(sb, 'S', contentLength(node));
      for (int i = 0; i < entries.size(); i++) {
        sb.append('k').append(entries.get(i).key());
        write(sb, entries.get(i).node());
      }
    } else {
      List<SipNode.DictEntry> entries = ((SipNode.Dict) node).entries();
      appendSpanHeader(sb, 'D', contentLength(node));
      for (int i = 0; i < entries.size(); i++) {
        appendSpanHeader(sb, 'K', V0Components.utf8Length(entries.get(i).key()));
        sb.append(entries.get(i).key());
        write(sb, entries.get(i).node());
      }
    }
  }

  /** The UTF-8 length of {@code node}'s encoding. */
  private static long encodedLength(SipNode node) {
    if (node instanceof SipNode.Leaf leaf) {
      return 1L + digits(leaf.rawIndex());
    }
    return spanLength(contentLength(node));
  }

  /** The UTF-8 length of the contents of a sequence's or dict's span. */
  private static long contentLength(SipNode node) {
    long n = 0;
    if (node instanceof SipNode.Sequence sequence) {
      List<SipNode.SequenceEntry> entries = sequence.entries();
      for (int i = 0; i < entries.size(); i++) {
        n += 1 + digits(entries.get(i).key()) + encodedLength(entries.get(i).node());
      }
    } else {
      List<SipNode.DictEntry> entries = ((SipNode.Dict) node).entries();
      for (int i = 0; i < entries.size(); i++) {
        n += spanLength(V0Components.utf8Length(entries.get(i).key()));
        n += encodedLength(entries.get(i).node());
      }
    }
    return n;
  }

  /** The length of a whole span with {@code contentBytes} of contents: tag, length, '!'. */
  private static long spanLength(long contentBytes) {
    return 1 + digits(contentBytes + 1) + 1 + contentBytes;
  }

  /** The number of decimal digits of {@code v >= 0}. */
  private static int digits(long v) {
    int d = 1;
    while (v >= 10) {
      v /= 10;
      d++;
    }
    return d;
  }

  // ---------------------------------------------------------------- pretty form

  /**
   * The {@link SipNode#pretty()} form of the inputs; the empty string for an empty side.
   *
   * @return the inputs in the old printed form
   */
  public String prettyInputs() {
    return inputs.map(SipNode::pretty).orElse("");
  }

  /**
   * The {@link SipNode#pretty()} form of the results; the empty string for an empty side.
   *
   * @return the results in the old printed form
   */
  public String prettyResults() {
    return results.map(SipNode::pretty).orElse("");
  }

  static void pretty(StringBuilder sb, SipNode node, int level) {
    if (node instanceof SipNode.Leaf leaf) {
      sb.append("=raw(").append(leaf.rawIndex()).append("),\n");
      return;
    }
    if (node instanceof SipNode.Sequence sequence) {
      sb.append(":[\n");
      for (SipNode.SequenceEntry e : sequence.entries()) {
        indent(sb, level + 1).append(e.key());
        pretty(sb, e.node(), level + 1);
      }
      indent(sb, level).append("],\n");
    } else {
      sb.append(":{\n");
      for (SipNode.DictEntry e : ((SipNode.Dict) node).entries()) {
        indent(sb, level + 1).append(e.key());
        pretty(sb, e.node(), level + 1);
      }
      indent(sb, level).append("},\n");
    }
  }

  private static StringBuilder indent(StringBuilder sb, int level) {
    for (int i = 0; i < level; i++) {
      sb.append("  ");
    }
    return sb;
  }

  /**
   * A one-line form for messages, e.g. {@code [0: raw(0), 1: raw(1)] -> raw(0)}; {@code ()} for an
   * empty side.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    if (inputs.isPresent()) {
      oneLine(sb, inputs.get());
    } else {
      sb.append("()");
    }
    sb.append(" -> ");
    if (results.isPresent()) {
      oneLine(sb, results.get());
    } else {
      sb.append("()");
    }
    return sb.toString();
  }

  /**
   * Appends the one-line form of {@code node} ({@link SipNode#toString()}) to {@code sb}, in one
   * builder however deep the node nests.
   */
  static StringBuilder oneLine(StringBuilder sb, SipNode node) {
    if (node instanceof SipNode.Leaf leaf) {
      return sb.append("raw(").append(leaf.rawIndex()).append(')');
    }
    if (node instanceof SipNode.Sequence sequence) {
      List<SipNode.SequenceEntry> entries = sequence.entries();
      sb.append('[');
      for (int i = 0; i < entries.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(entries.get(i).key()).append(": ");
        oneLine(sb, entries.get(i).node());
      }
      return sb.append(']');
    }
    List<SipNode.DictEntry> entries = ((SipNode.Dict) node).entries();
    sb.append('{');
    for (int i = 0; i < entries.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(entries.get(i).key()).append(": ");
      oneLine(sb, entries.get(i).node());
    }
    return sb.append('}');
  }

  // ---------------------------------------------------------------- raw indices

  /**
   * The raw indices of the input leaves, depth first in the order held.
   *
   * @return the indices, unmodifiable
   */
  public List<Integer> inputIndices() {
    return indices(inputs);
  }

  /**
   * The raw indices of the result leaves, depth first in the order held.
   *
   * @return the indices, unmodifiable
   */
  public List<Integer> resultIndices() {
    return indices(results);
  }

  private static List<Integer> indices(Optional<SipNode> side) {
    List<Integer> out = new ArrayList<>();
    side.ifPresent(n -> collectIndices(n, out));
    return Collections.unmodifiableList(out);
  }

  private static void collectIndices(SipNode node, List<Integer> out) {
    if (node instanceof SipNode.Leaf leaf) {
      out.add(leaf.rawIndex());
    } else if (node instanceof SipNode.Sequence sequence) {
      for (SipNode.SequenceEntry e : sequence.entries()) {
        collectIndices(e.node(), out);
      }
    } else {
      for (SipNode.DictEntry e : ((SipNode.Dict) node).entries()) {
        collectIndices(e.node(), out);
      }
    }
  }

  // ---------------------------------------------------------------- validation

  /**
   * One way a signature breaks a rule IREE's compiler kept.
   *
   * @param path where: {@code inputs}, {@code results[1]}, {@code inputs[0]["foo"]}
   * @param detail what is wrong, and what was expected
   */
  public record Problem(String path, String detail) {
    /**
     * Refuses a null path or detail.
     *
     * @param path where: {@code inputs}, {@code results[1]}, {@code inputs[0]["foo"]}
     * @param detail what is wrong, and what was expected
     */
    public Problem {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(detail, "detail");
    }

    /** {@code path: detail}. */
    @Override
    public String toString() {
      return path + ": " + detail;
    }
  }

  /**
   * Keys out of the compiler's order: at every level, sequence keys strictly ascending and dict
   * keys strictly ascending byte-wise (UTF-8, as C++ {@code std::map<std::string>} sorts them); a
   * repeated key is a problem too. Empty when every level is in order; at most {@link
   * #MAX_LISTED_PROBLEMS}, the first found.
   *
   * @return the problems found, each with its path and what is wrong
   */
  public List<Problem> keyOrderProblems() {
    return SipProblems.keyOrder(this).listed();
  }

  /**
   * Raw indices that are not exactly {@code 0..n-1}, each once, on each side ({@code n} being the
   * number of leaves on that side): an index out of that range, an index used twice, an index
   * missing. Empty when both sides are complete; at most {@link #MAX_LISTED_PROBLEMS}, the first
   * found.
   *
   * @return the problems found, each with its path and what is wrong
   */
  public List<Problem> rawIndexProblems() {
    return SipProblems.rawIndices(this).listed();
  }

  /**
   * Every problem: {@link #keyOrderProblems()}, then {@link #rawIndexProblems()}; at most {@link
   * #MAX_LISTED_PROBLEMS}, the first found.
   *
   * @return the problems found, key order first
   */
  public List<Problem> problems() {
    return SipProblems.all(this).listed();
  }

  /**
   * This signature, when it has no {@link #problems()}.
   *
   * @return this signature
   * @throws AbiParseException naming the first problem's path and detail, and how many more there
   *     are
   */
  public SipSignature validate() {
    SipProblems problems = SipProblems.all(this);
    if (problems.count() == 0) {
      return this;
    }
    List<Problem> listed = problems.listed();
    Problem first = listed.get(0);
    String more = "";
    if (problems.count() > 1) {
      List<Problem> rest = listed.subList(1, Math.min(listed.size(), 1 + MORE_LIMIT));
      more =
          " (and "
              + (problems.count() - 1)
              + " more: "
              + rest.stream().map(Problem::toString).collect(Collectors.joining("; "))
              + (problems.count() - 1 > MORE_LIMIT ? "; ..." : "")
              + ")";
    }
    throw new AbiParseException(FORMAT, first.path(), first.detail() + more);
  }

  /**
   * Throws when a structure over {@code children} would be deeper than {@link SipNode#MAX_DEPTH}.
   */
  static void checkDepth(List<SipNode> children) {
    for (SipNode child : children) {
      Objects.requireNonNull(child, "child");
      if (child.depth() + 1 > SipNode.MAX_DEPTH) {
        throw new IllegalArgumentException(
            "SIP structures nest at most "
                + SipNode.MAX_DEPTH
                + " deep; this one would nest "
                + (child.depth() + 1));
      }
    }
  }
}
