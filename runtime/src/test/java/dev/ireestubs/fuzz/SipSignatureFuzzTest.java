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
    parsed.ifPresent(s -> check(s, data.length));
    // The pretty forms indent every line by its depth: their size (not the input's) bounds their
    // cost, so they are checked for exceptions only.
    parsed.ifPresent(
        s -> {
          s.prettyInputs();
          s.prettyResults();
        });
  }

  private static void check(SipSignature s, long inputBytes) {
    Roundtrips.check("SIP signature", inputBytes, s, SipSignature::encode, SipSignature::parse);
    bounded(
        "problems and validate",
        inputBytes,
        () -> {
          boolean problems = !s.problems().isEmpty();
          boolean refused = refusedOr(s::validate).isEmpty();
          if (problems != refused) {
            throw new AssertionError(
                "validate() "
                    + (refused ? "refused" : "accepted")
                    + " "
                    + s.encode()
                    + " with problems "
                    + s.problems());
          }
        });
    bounded(
        "raw indices and the one-line form",
        inputBytes,
        () -> {
          s.inputIndices();
          s.resultIndices();
          s.toString();
        });
  }
}
