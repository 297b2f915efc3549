package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.bounded;
import static dev.ireestubs.fuzz.FuzzContract.refusedOr;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.V0RawSignature;
import java.util.Optional;

/**
 * Fuzz target for the V0 raw signature parser ({@link V0RawSignature}, reflection key {@code f}).
 * Each input is parsed within the cost bounds of {@link FuzzContract}; a refusal is an {@code
 * AbiParseException}. What parses encodes to the canonical text, which parses back to the same
 * signature and encodes the same again, and has a pretty form.
 */
class V0RawSignatureFuzzTest {

  @FuzzTest
  @DictionaryEntries({
    "I",
    "R",
    "B",
    "S",
    "O1!",
    "U1!",
    "!",
    "t",
    "d-1",
    "d",
    "_",
    "-",
    "2147483647"
  })
  void raw(byte[] data) {
    String text = FuzzContract.text(data);
    Optional<FunctionSignature> parsed =
        bounded(
            "V0RawSignature.parse", data.length, () -> refusedOr(() -> V0RawSignature.parse(text)));
    parsed.ifPresent(
        s -> {
          Roundtrips.check(
              "V0 raw signature", data.length, s, V0RawSignature::encode, V0RawSignature::parse);
          bounded("V0RawSignature.pretty", data.length, () -> V0RawSignature.pretty(s));
        });
  }
}
