package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.bounded;
import static dev.ireestubs.fuzz.FuzzContract.refusedOr;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.FunctionSignature;
import java.util.Optional;

/**
 * Fuzz target for the calling-convention parser ({@link CallingConvention}). Each input is parsed
 * within the cost bounds of {@link FuzzContract}; a refusal is an {@code AbiParseException}. What
 * parses prints back to exactly the input (as documented); a convention without a variadic segment
 * gives a signature whose expected convention is the same one, and which it matches.
 */
class CallingConventionFuzzTest {

  @FuzzTest
  @DictionaryEntries({"0", "_", "v", "C", "D", "r", "i", "I", "f", "F", "0v_v", "0rr_r", "0CrD_v"})
  void callingConvention(byte[] data) {
    String text = FuzzContract.text(data);
    Optional<CallingConvention> parsed =
        bounded(
            "CallingConvention.parse",
            data.length,
            () -> refusedOr(() -> CallingConvention.parse(text)));
    parsed.ifPresent(c -> bounded("print and derive", data.length, () -> check(text, c)));
  }

  private static void check(String text, CallingConvention c) {
    Roundtrips.requireEqual(text, c.toString(), text);
    if (c.isVariadic()) {
      return;
    }
    FunctionSignature signature = c.toSignature();
    Roundtrips.requireEqual(Optional.of(c), CallingConvention.expectedFor(signature), text);
    if (!c.matches(signature)) {
      throw new AssertionError(
          text + " does not match its own signature: " + c.mismatches(signature));
    }
  }
}
