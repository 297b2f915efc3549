package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ireestubs.abi.SipNode.Dict;
import dev.ireestubs.abi.SipNode.DictEntry;
import dev.ireestubs.abi.SipNode.Leaf;
import dev.ireestubs.abi.SipNode.Sequence;
import dev.ireestubs.abi.SipNode.SequenceEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The SIP signature {@code sip}, with the vectors of reference section 4.4. */
class SipSignatureTest {

  private static Leaf leaf(int i) {
    return new Leaf(i);
  }

  /** {@code seq(0, node0, 1, node1, ...)}. */
  static Sequence seq(Object... keysAndNodes) {
    List<SequenceEntry> entries = new ArrayList<>();
    for (int i = 0; i < keysAndNodes.length; i += 2) {
      entries.add(new SequenceEntry((Integer) keysAndNodes[i], (SipNode) keysAndNodes[i + 1]));
    }
    return new Sequence(entries);
  }

  /** {@code dict("a", node0, "b", node1, ...)}. */
  static Dict dict(Object... keysAndNodes) {
    List<DictEntry> entries = new ArrayList<>();
    for (int i = 0; i < keysAndNodes.length; i += 2) {
      entries.add(new DictEntry((String) keysAndNodes[i], (SipNode) keysAndNodes[i + 1]));
    }
    return new Dict(entries);
  }

  /** Decodes, checks the model, re-encodes byte-identically, and checks it is valid. */
  private static SipSignature roundTrip(String sip, SipNode inputs, SipNode results) {
    SipSignature expected = SipSignature.of(inputs, results);
    SipSignature parsed = SipSignature.parse(sip);
    assertThat(parsed).isEqualTo(expected);
    assertThat(expected.encode()).isEqualTo(sip);
    assertThat(parsed.problems()).isEmpty();
    assertThat(parsed.validate()).isSameInstanceAs(parsed);
    return parsed;
  }

  private static AbiParseException fails(String sip) {
    return assertThrows(AbiParseException.class, () -> SipSignature.parse(sip));
  }

  // ---------------------------------------------------------------- 4.4 vectors

  @Test
  void noInputsNoResults() {
    SipSignature s = roundTrip("I1!R1!", null, null);
    assertThat(s.inputs()).isEmpty();
    assertThat(s.results()).isEmpty();
    assertThat(s.prettyInputs()).isEmpty();
    assertThat(s.prettyResults()).isEmpty();
    assertThat(s.inputIndices()).isEmpty();
    assertThat(s.toString()).isEqualTo("() -> ()");
  }

  @Test
  void twoPositionalInputsOneResult() {
    SipSignature s = roundTrip("I12!S9!k0_0k1_1R3!_0", seq(0, leaf(0), 1, leaf(1)), leaf(0));
    assertThat(s.prettyInputs()).isEqualTo(":[\n  0=raw(0),\n  1=raw(1),\n],\n");
    assertThat(s.prettyResults()).isEqualTo("=raw(0),\n");
    assertThat(s.inputIndices()).containsExactly(0, 1).inOrder();
    assertThat(s.resultIndices()).containsExactly(0);
    assertThat(s.toString()).isEqualTo("[0: raw(0), 1: raw(1)] -> raw(0)");
    assertThat(s).isEqualTo(SipSignature.of(SipSignature.leaves(2), SipSignature.leaf(0)));
  }

  @Test
  void nestedDictInASequence() {
    SipSignature s =
        roundTrip(
            "I31!S27!k0D17!K4!bar_1K4!foo_0k1_2R12!S9!k0_0k1_1",
            seq(0, dict("bar", leaf(1), "foo", leaf(0)), 1, leaf(2)),
            seq(0, leaf(0), 1, leaf(1)));
    assertThat(s.prettyInputs())
        .isEqualTo(
            ":[\n"
                + "  0:{\n"
                + "    bar=raw(1),\n"
                + "    foo=raw(0),\n"
                + "  },\n"
                + "  1=raw(2),\n"
                + "],\n");
    assertThat(s.inputIndices()).containsExactly(1, 0, 2).inOrder();
    assertThat(s.toString())
        .isEqualTo("[0: {bar: raw(1), foo: raw(0)}, 1: raw(2)] -> [0: raw(0), 1: raw(1)]");
  }

  @Test
  void tensorflowVectors() {
    roundTrip("I1!R3!_0", null, leaf(0));
    roundTrip("I8!S5!k0_0R1!", seq(0, leaf(0)), null);
    roundTrip("I23!S19!k0D13!K2!x_0K2!y_1R3!_0", seq(0, dict("x", leaf(0), "y", leaf(1))), leaf(0));
    roundTrip(
        "I12!S9!k0_0k1_1R26!D22!K2!x_0K10!x_squared_1",
        SipSignature.leaves(2),
        dict("x", leaf(0), "x_squared", leaf(1)));
    roundTrip("I12!S9!k0_0k1_1R10!D7!K2!x_0", SipSignature.leaves(2), dict("x", leaf(0)));
    roundTrip(
        "I12!S9!k0_0k1_1R17!S13!k0_0k1_1k2_2", SipSignature.leaves(2), SipSignature.leaves(3));
    SipSignature s =
        roundTrip(
            "I12!S9!k0_0k1_1R27!S23!k0_0k1D13!K2!a_1K2!b_2",
            SipSignature.leaves(2),
            seq(0, leaf(0), 1, dict("a", leaf(1), "b", leaf(2))));
    assertThat(s.prettyResults())
        .isEqualTo(":[\n  0=raw(0),\n  1:{\n    a=raw(1),\n    b=raw(2),\n  },\n],\n");
    roundTrip("I8!S5!k0_0R3!_0", seq(0, leaf(0)), leaf(0));
  }

  @Test
  void emptyRootEmptySequenceAndEmptyDictDiffer() {
    SipSignature empty = roundTrip("I1!R1!", null, null);
    SipSignature emptySeq = roundTrip("I1!R4!S1!", null, seq());
    SipSignature emptyDict = roundTrip("I1!R4!D1!", null, dict());
    assertThat(emptySeq).isNotEqualTo(empty);
    assertThat(emptyDict).isNotEqualTo(emptySeq);
    assertThat(emptySeq.prettyResults()).isEqualTo(":[\n],\n");
    assertThat(emptyDict.prettyResults()).isEqualTo(":{\n},\n");
    assertThat(emptySeq.resultIndices()).isEmpty();
    // The same bytes under the key f are one f32 scalar result.
    assertThat(V0RawSignature.parse("I1!R4!S1!").results())
        .containsExactly(new AbiType.Scalar(ElementType.F32));
  }

  @Test
  void nonAsciiDictKeysCountBytes() {
    SipSignature s = SipSignature.of(dict("größe", leaf(0)), null);
    String encoded = s.encode();
    assertThat(encoded).isEqualTo("I17!D13!K8!größe_0R1!");
    assertThat(SipSignature.parse(encoded)).isEqualTo(s);
  }

  // ---------------------------------------------------------------- validation

  @Test
  void keysOutOfOrderAreReportedAndEncodedAsHeld() {
    SipSignature s =
        SipSignature.of(
            seq(1, leaf(1), 0, dict("foo", leaf(0), "bar", leaf(2))),
            dict("b", leaf(0), "B", leaf(1)));
    String encoded = s.encode();
    assertThat(encoded).isEqualTo("I31!S27!k1_1k0D17!K4!foo_0K4!bar_2R17!D13!K2!b_0K2!B_1");
    assertThat(SipSignature.parse(encoded)).isEqualTo(s);
    assertThat(s.rawIndexProblems()).isEmpty();
    assertThat(s.keyOrderProblems())
        .containsExactly(
            new SipSignature.Problem(
                "inputs",
                "sequence key 0 follows 1; the compiler writes sequence keys in ascending order"),
            new SipSignature.Problem(
                "inputs[0]",
                "dict key \"bar\" follows \"foo\"; the compiler writes dict keys in byte-wise"
                    + " ascending order"),
            new SipSignature.Problem(
                "results",
                "dict key \"B\" follows \"b\"; the compiler writes dict keys in byte-wise ascending"
                    + " order"))
        .inOrder();
    AbiParseException e = assertThrows(AbiParseException.class, s::validate);
    assertThat(e.format()).isEqualTo(ReflectionFormat.V0_SIP);
    assertThat(e.position()).isEqualTo("inputs");
    assertThat(e)
        .hasMessageThat()
        .isEqualTo(
            "V0 SIP signature (sip) at inputs: sequence key 0 follows 1; the compiler writes"
                + " sequence keys in ascending order (and 2 more: inputs[0]: dict key \"bar\""
                + " follows \"foo\"; the compiler writes dict keys in byte-wise ascending order;"
                + " results: dict key \"B\" follows \"b\"; the compiler writes dict keys in"
                + " byte-wise ascending order)");
  }

  @Test
  void byteWiseOrderIsNotJavaStringOrder() {
    // U+FF61 sorts before U+1F600 in UTF-16 code units but after it in UTF-8 bytes.
    SipSignature utf8Order =
        SipSignature.of(dict("\uFF61", leaf(0), "\uD83D\uDE00", leaf(1)), null);
    assertThat(utf8Order.keyOrderProblems()).isEmpty();
    SipSignature javaOrder =
        SipSignature.of(dict("\uD83D\uDE00", leaf(0), "\uFF61", leaf(1)), null);
    assertThat(javaOrder.keyOrderProblems()).hasSize(1);
  }

  @Test
  void duplicateKeys() {
    SipSignature s = SipSignature.parse("I12!S9!k0_0k0_1R1!");
    assertThat(s.keyOrderProblems())
        .containsExactly(
            new SipSignature.Problem(
                "inputs", "sequence key 0 appears twice; keys must be unique"));
    SipSignature d = SipSignature.of(dict("a", leaf(0), "a", leaf(1)), null);
    assertThat(d.keyOrderProblems())
        .containsExactly(
            new SipSignature.Problem(
                "inputs", "dict key \"a\" appears twice; keys must be unique"));
  }

  @Test
  void rawIndicesMustBeExactlyZeroToNMinusOne() {
    SipSignature gap = SipSignature.of(seq(0, leaf(0), 1, leaf(2)), null);
    assertThat(gap.inputIndices()).containsExactly(0, 2).inOrder();
    assertThat(gap.rawIndexProblems())
        .containsExactly(
            new SipSignature.Problem(
                "inputs[1]",
                "raw index 2 is out of range; with 2 leaves the raw indices must be exactly 0..1,"
                    + " each once"),
            new SipSignature.Problem(
                "inputs",
                "raw index 1 is missing; with 2 leaves the raw indices must be exactly 0..1, each"
                    + " once"))
        .inOrder();

    SipSignature repeat =
        SipSignature.of(null, seq(0, leaf(0), 1, dict("a", leaf(0), "b", leaf(1)), 2, leaf(1)));
    assertThat(repeat.resultIndices()).containsExactly(0, 0, 1, 1).inOrder();
    assertThat(repeat.rawIndexProblems())
        .containsExactly(
            new SipSignature.Problem(
                "results[1][\"a\"]",
                "raw index 0 is used again (first at results[0]); with 4 leaves the raw indices"
                    + " must be exactly 0..3, each once"),
            new SipSignature.Problem(
                "results[2]",
                "raw index 1 is used again (first at results[1][\"b\"]); with 4 leaves the raw"
                    + " indices must be exactly 0..3, each once"),
            new SipSignature.Problem(
                "results",
                "raw index 2 is missing; with 4 leaves the raw indices must be exactly 0..3, each"
                    + " once"),
            new SipSignature.Problem(
                "results",
                "raw index 3 is missing; with 4 leaves the raw indices must be exactly 0..3, each"
                    + " once"))
        .inOrder();

    SipSignature single = SipSignature.of(null, leaf(1));
    assertThat(single.rawIndexProblems())
        .containsExactly(
            new SipSignature.Problem(
                "results",
                "raw index 1 is out of range; with 1 leaf the raw indices must be exactly 0..0,"
                    + " each once"),
            new SipSignature.Problem(
                "results",
                "raw index 0 is missing; with 1 leaf the raw indices must be exactly 0..0, each"
                    + " once"))
        .inOrder();
    AbiParseException e = assertThrows(AbiParseException.class, single::validate);
    assertThat(e.position()).isEqualTo("results");
    assertThat(e.detail()).startsWith("raw index 1 is out of range; with 1 leaf");
    assertThat(e.detail())
        .endsWith(
            "(and 1 more: results: raw index 0 is missing; with 1 leaf the raw indices must be exactly 0..0, each once)");
  }

  @Test
  void validateQuotesAtMostFiveMoreProblems() {
    SipSignature s =
        SipSignature.of(
            seq(
                0, leaf(100), 1, leaf(101), 2, leaf(102), 3, leaf(103), 4, leaf(104), 5, leaf(105),
                6, leaf(106), 7, leaf(107)),
            null);
    AbiParseException e = assertThrows(AbiParseException.class, s::validate);
    assertThat(e.detail()).contains("(and 15 more: ");
    assertThat(e.detail()).endsWith("; ...)");
  }

  // ---------------------------------------------------------------- model invariants

  @Test
  void modelRejectsNegativeIndicesAndKeys() {
    assertThrows(IllegalArgumentException.class, () -> new Leaf(-1));
    assertThrows(IllegalArgumentException.class, () -> new SequenceEntry(-1, leaf(0)));
    assertThrows(NullPointerException.class, () -> new DictEntry(null, leaf(0)));
    assertThrows(NullPointerException.class, () -> new SipSignature(null, Optional.empty()));
  }

  @Test
  void modelDepthIsBounded() {
    SipNode node = leaf(0);
    for (int i = 0; i < SipNode.MAX_DEPTH; i++) {
      node = seq(0, node);
    }
    assertThat(node.depth()).isEqualTo(63);
    SipSignature deepest = SipSignature.of(node, null);
    // The deepest model encodes and reads back: its 63 spans plus I make 64 nested spans.
    assertThat(SipSignature.parse(deepest.encode())).isEqualTo(deepest);
    SipNode tooDeep = node;
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> seq(0, tooDeep));
    assertThat(e)
        .hasMessageThat()
        .isEqualTo("SIP structures nest at most 63 deep; this one would nest 64");
    assertThrows(IllegalArgumentException.class, () -> dict("a", tooDeep));
  }

  // ---------------------------------------------------------------- errors

  @Test
  void malformedSignatures() {
    assertThat(fails("").getMessage())
        .isEqualTo(
            "V0 SIP signature (sip) at offset 0: expected the inputs span I<length>! at the start,"
                + " found the end of the text");
    assertThat(fails("I1!").detail())
        .isEqualTo("expected the results span R<length>!, found the end of the text");
    assertThat(fails("I1!R1!_0").detail())
        .isEqualTo("expected the end of the signature after the results span R, found '_'");
    AbiParseException e = fails("I5!_0_1R1!");
    assertThat(e.position()).isEqualTo("offset 5");
    assertThat(e.detail())
        .isEqualTo("expected the end of side I, which holds at most one structure, found '_'");
    assertThat(fails("I3!k0R1!").detail())
        .isEqualTo(
            "expected a structure (_<index> leaf, S sequence or D dict), found integer component"
                + " 'k0'");
    assertThat(fails("I4!B1!R1!").detail())
        .isEqualTo(
            "expected a structure (_<index> leaf, S sequence or D dict), found span 'B' (B1!)");
    assertThat(fails("I4!_-1R1!").detail())
        .isEqualTo("expected a raw index _<n> with n >= 0, found _-1");
  }

  @Test
  void malformedStructures() {
    assertThat(fails("I6!S3!_0R1!").detail())
        .isEqualTo("expected a sequence key k<int> in sequence S, found integer component '_0'");
    assertThat(fails("I10!S7!K2!a_0R1!").detail())
        .isEqualTo(
            "expected a sequence key k<int> in sequence S, found span 'K' (K2!a); string keys K"
                + " belong in a dict D");
    assertThat(fails("I8!D5!k0_0R1!").detail())
        .isEqualTo(
            "expected a dict key K<length>!<key> in dict D, found integer component 'k0'; int keys"
                + " k belong in a sequence S");
    assertThat(fails("I9!S6!k-1_0R1!").detail())
        .isEqualTo("expected a sequence key k<int> with int >= 0, found k-1");
    AbiParseException e = fails("I6!S3!k0R1!");
    assertThat(e.position()).isEqualTo("offset 8");
    assertThat(e.detail())
        .isEqualTo(
            "expected a structure (_<index> leaf, S sequence or D dict) after key k0, found the end"
                + " of the enclosing span");
    assertThat(fails("I7!D4!K1!R1!").detail())
        .isEqualTo(
            "expected a structure (_<index> leaf, S sequence or D dict) after key \"\", found the"
                + " end of the enclosing span");
  }

  @Test
  void deepNestingIsAnErrorNotAStackOverflow() {
    V0Components.Builder b = new V0Components.Builder().integer(0);
    for (int i = 0; i < 200; i++) {
      b =
          new V0Components.Builder()
              .span('S', new V0Components.Builder().integer('k', 0).toString() + b);
    }
    String sip = new V0Components.Builder().span('I', b).span('R', "").toString();
    AbiParseException e = fails(sip);
    assertThat(e.detail())
        .isEqualTo(
            "expected spans nested at most ParseLimits.MAX_DEPTH = 64 deep, found span 'S' at depth 65");
  }
}
