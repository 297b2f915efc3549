package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ireestubs.testing.SharedData;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Untrusted input: every failure of the V0 parsers is an {@link AbiParseException}, never another
 * exception, an allocation sized by the input, or a stack overflow.
 */
class V0HostileInputTest {

  private static final List<String> RAW =
      List.of(
          "I1!R1!",
          "I15!B11!d10d128d64R15!B11!t6d32d8d64",
          "I15!B11!d-1d128d64R15!B11!t6d-1d8d64",
          "I6!S3!t6R6!S3!t2",
          "I23!O1!B11!d-1d128d64S3!t6R17!B13!t11d32d-1d64",
          "I19!B7!t7d4d4B7!t7d5d5R10!B7!t7d5d5",
          "I11!B8!t7d-1d4R1!",
          "I4!U1!R1!",
          "I1!R4!U1!");

  private static final List<String> SIP =
      List.of(
          "I1!R1!",
          "I12!S9!k0_0k1_1R3!_0",
          "I31!S27!k0D17!K4!bar_1K4!foo_0k1_2R12!S9!k0_0k1_1",
          "I23!S19!k0D13!K2!x_0K2!y_1R3!_0",
          "I12!S9!k0_0k1_1R26!D22!K2!x_0K10!x_squared_1",
          "I12!S9!k0_0k1_1R27!S23!k0_0k1D13!K2!a_1K2!b_2",
          "I1!R4!S1!",
          "I1!R4!D1!",
          "I17!D13!K8!größe_0R1!");

  /** The vectors, plus the real-data corpus when it is present. */
  private static List<String> strings(String attr, List<String> vectors) {
    List<String> out = new ArrayList<>(vectors);
    if (SharedData.directory().isPresent()) {
      for (JsonNode row : SharedData.jsonLines("v0-signatures.jsonl")) {
        JsonNode meaning = row.get("meaning");
        if (row.get("attr").asText().equals(attr) && meaning != null && !meaning.isNull()) {
          out.add(row.get("value").asText());
        }
      }
    }
    return out;
  }

  /** Parses, or fails with an AbiParseException; a success re-encodes and reads back equal. */
  private static boolean parsesOrFailsCleanly(String text) {
    boolean ok = false;
    try {
      FunctionSignature s = V0RawSignature.parse(text);
      assertWithMessage("f round trip of %s", text)
          .that(V0RawSignature.parse(V0RawSignature.encode(s)))
          .isEqualTo(s);
      ok = true;
    } catch (AbiParseException expected) {
      assertThat(expected.position()).startsWith("offset ");
    }
    try {
      SipSignature s = SipSignature.parse(text);
      assertWithMessage("sip round trip of %s", text)
          .that(SipSignature.parse(s.encode()))
          .isEqualTo(s);
      s.problems();
      s.prettyInputs();
      ok = true;
    } catch (AbiParseException expected) {
      assertThat(expected.position()).startsWith("offset ");
    }
    return ok;
  }

  @Test
  void everyTruncationIsAParseError() {
    int checked = 0;
    checked += truncations(strings("f", RAW), V0RawSignature::parse);
    checked += truncations(strings("sip", SIP), SipSignature::parse);
    assertThat(checked).isGreaterThan(300);
  }

  private static int truncations(List<String> valid, Function<String, ?> parser) {
    int n = 0;
    for (String s : valid) {
      parser.apply(s);
      for (int end = 0; end < s.length(); end++) {
        String prefix = s.substring(0, end);
        AbiParseException e =
            assertThrows(
                AbiParseException.class, () -> parser.apply(prefix), "prefix \"" + prefix + "\"");
        assertThat(e.position()).startsWith("offset ");
        n++;
      }
    }
    return n;
  }

  @Test
  void everySingleCharacterMutationParsesOrFailsCleanly() {
    String replacements = "0159-!_tdkIRSBDOUKZa\u0001é";
    List<String> valid = new ArrayList<>(strings("f", RAW));
    valid.addAll(strings("sip", SIP));
    int parsed = 0;
    int total = 0;
    for (String s : valid) {
      for (int i = 0; i < s.length(); i++) {
        for (int r = 0; r < replacements.length(); r++) {
          String mutated = s.substring(0, i) + replacements.charAt(r) + s.substring(i + 1);
          if (parsesOrFailsCleanly(mutated)) {
            parsed++;
          }
          String deleted = s.substring(0, i) + s.substring(i + 1);
          parsesOrFailsCleanly(deleted);
          String inserted = s.substring(0, i) + replacements.charAt(r) + s.substring(i);
          parsesOrFailsCleanly(inserted);
          total += 3;
        }
      }
    }
    assertThat(total).isGreaterThan(10_000);
    assertThat(parsed).isGreaterThan(0);
  }

  @Test
  void randomGarbageParsesOrFailsCleanly() {
    Random random = new Random(20210611);
    String alphabet = "IRSBOUDKktd_-!0123456789x\u0001é";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      int length = random.nextInt(40);
      for (int j = 0; j < length; j++) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      parsesOrFailsCleanly(sb.toString());
      V0Components.Reader r = V0Components.Reader.of(sb.toString(), ReflectionFormat.V0_RAW);
      try {
        while (!r.atEnd()) {
          r.next();
        }
      } catch (AbiParseException expected) {
        // fine
      }
    }
  }

  @Test
  void hugeLengthsAreClearErrors() {
    assertThat(
            assertThrows(AbiParseException.class, () -> V0RawSignature.parse("I2147483647!R1!"))
                .getMessage())
        .isEqualTo(
            "V0 raw signature (f) at offset 0: span 'I' declares length 2147483647 (the '!' and"
                + " 2147483646 content bytes) but only 4 bytes remain before the end of the text");
    assertThat(
            assertThrows(AbiParseException.class, () -> SipSignature.parse("I99999999999!R1!"))
                .getMessage())
        .isEqualTo(
            "V0 SIP signature (sip) at offset 1: expected a length within"
                + " -2147483648..2147483647 after tag 'I', found 99999999999");
    assertThat(
            assertThrows(AbiParseException.class, () -> V0RawSignature.parse("I1!R13!B2147483647!"))
                .detail())
        .isEqualTo(
            "span 'B' declares length 2147483647 (the '!' and 2147483646 content bytes) but only 1"
                + " byte remains before the end of the text");
    assertThat(
            assertThrows(
                    AbiParseException.class, () -> V0RawSignature.parse("I16!B12!d9999999999R1!"))
                .detail())
        .isEqualTo(
            "expected an integer within -2147483648..2147483647 after tag 'd', found 9999999999");
    assertThat(
            assertThrows(
                    AbiParseException.class, () -> SipSignature.parse("I16!_99999999999999R1!"))
                .detail())
        .startsWith("expected an integer within");
  }

  @Test
  void deepNestingIsBounded() {
    for (int depth : new int[] {62, 63, 64, 65, 500}) {
      V0Components.Builder b = new V0Components.Builder().integer(0);
      for (int i = 0; i < depth; i++) {
        b = new V0Components.Builder().span(i % 2 == 0 ? 'S' : 'D', wrap(i, b));
      }
      String sip = new V0Components.Builder().span('I', b).span('R', "").toString();
      if (depth <= SipNode.MAX_DEPTH) {
        SipSignature s = SipSignature.parse(sip);
        assertThat(s.inputs().orElseThrow().depth()).isEqualTo(depth);
        assertThat(s.encode()).isEqualTo(sip);
        assertThat(s.inputIndices()).containsExactly(0);
      } else {
        AbiParseException e = assertThrows(AbiParseException.class, () -> SipSignature.parse(sip));
        assertThat(e.detail())
            .startsWith(
                "expected spans nested at most ParseLimits.MAX_DEPTH = 64 deep, found span ");
      }
    }
  }

  /** The key before a child: {@code k0} inside a sequence, {@code K2!k} inside a dict. */
  private static String wrap(int level, V0Components.Builder child) {
    V0Components.Builder key = new V0Components.Builder();
    if (level % 2 == 0) {
      key.integer('k', 0);
    } else {
      key.span('K', "k");
    }
    return key + child.toString();
  }

  @Test
  void largeSignaturesParseInLinearTime() {
    StringBuilder items = new StringBuilder();
    for (int i = 0; i < 50_000; i++) {
      items.append(i % 2 == 0 ? "O1!" : "B8!t6d1d-1");
    }
    String f = new V0Components.Builder().span('I', items.toString()).span('R', "").toString();
    long start = System.nanoTime();
    FunctionSignature s = V0RawSignature.parse(f);
    assertThat(s.arguments()).hasSize(50_000);
    assertThat(V0RawSignature.encode(s)).isEqualTo(f);
    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000L);

    List<SipNode.SequenceEntry> entries = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      entries.add(new SipNode.SequenceEntry(i, new SipNode.Leaf(i)));
    }
    SipSignature sip =
        new SipSignature(Optional.of(new SipNode.Sequence(entries)), Optional.empty());
    assertThat(SipSignature.parse(sip.encode())).isEqualTo(sip);
    assertThat(sip.problems()).isEmpty();
  }

  @Test
  void garbage() {
    for (String text :
        new String[] {
          "!",
          "-",
          "0",
          "12",
          "I",
          "I!",
          "I-1!R1!",
          "I0!R1!",
          "I1!R0!",
          "I1R1",
          "IxR1!",
          "\u0000",
          "I1!R1!\u0000",
          "i1!R1!",
          "I1!r1!",
          "{\"a\":[]}",
          "I2!!R1!",
          "I1!R1!I1!R1!",
          "\uD83D\uDE00",
          "I5!\uD83D\uDE00R1!",
          "I2!\uD800R1!",
          "I 1!R1!",
          "I1! R1!",
        }) {
      assertThrows(AbiParseException.class, () -> V0RawSignature.parse(text), text);
      assertThrows(AbiParseException.class, () -> SipSignature.parse(text), text);
    }
  }
}
