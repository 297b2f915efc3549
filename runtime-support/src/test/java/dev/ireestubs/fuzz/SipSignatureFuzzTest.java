package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.bounded;
import static dev.ireestubs.fuzz.FuzzContract.refusedOr;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.abi.SipSignature;
import java.util.Optional;

/**
 * Fuzz target for the V0 SIP signature parser ({@link SipSignature}, reflection key {@code sip}).
 * Each input is parsed within the cost bounds of {@link FuzzContract}; a refusal is an {@code
 * AbiParseException}. What parses encodes to text that parses back to the same signature and
 * encodes the same again; its problems are listed and {@code validate()} refuses it with an {@code
 * AbiParseException} exactly when there are some; its raw indices and pretty forms exist.
 */
class SipSignatureFuzzTest {

  @FuzzTest
  @DictionaryEntries({"I", "R", "S", "D", "K", "k", "_", "!", "k0_0", "K2!a", "-"})
  void sip(byte[] data) {
    String text = FuzzContract.text(data);
    Optional<SipSignature> parsed =
        bounded("SipSignature.parse", data.length, () -> refusedOr(() -> SipSignature.parse(text)));
    parsed.ifPresent(s -> bounded("encode, parse again and validate", data.length, () -> check(s)));
    // The pretty forms indent every line by its depth: their size (not the input's) bounds their
    // cost, so they are checked for exceptions only.
    parsed.ifPresent(
        s -> {
          s.prettyInputs();
          s.prettyResults();
        });
  }

  private static void check(SipSignature s) {
    String encoded = s.encode();
    SipSignature again = SipSignature.parse(encoded);
    Roundtrips.requireEqual(s, again, encoded);
    Roundtrips.requireEqual(encoded, again.encode(), encoded);
    boolean problems = !s.problems().isEmpty();
    boolean refused = refusedOr(s::validate).isEmpty();
    if (problems != refused) {
      throw new AssertionError(
          "validate() "
              + (refused ? "refused" : "accepted")
              + " "
              + encoded
              + " with problems "
              + s.problems());
    }
    s.inputIndices();
    s.resultIndices();
    s.toString();
  }
}
