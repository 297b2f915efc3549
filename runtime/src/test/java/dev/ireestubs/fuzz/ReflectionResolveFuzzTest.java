package dev.ireestubs.fuzz;

import static dev.ireestubs.fuzz.FuzzContract.bounded;
import static dev.ireestubs.fuzz.FuzzContract.refusedOr;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.CallingConvention;
import dev.ireestubs.abi.CoarseFences;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.Reflection;
import dev.ireestubs.abi.V0Reflection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Fuzz target for {@link Reflection#resolve}, the rule that picks a function's best reflection
 * among its attributes. An input is text: its first line is the calling convention (none when
 * empty), each further line an attribute {@code key=value} (a line without {@code =} is a key with
 * an empty value). Within the cost bounds of {@link FuzzContract}, resolving either gives a
 * signature, or throws an {@code AbiParseException}, or the documented {@code
 * IllegalArgumentException} for "no usable reflection and no calling convention"; nothing else. A
 * resolved signature is compared with the calling convention, and the V0 attributes, when present,
 * combine into a SIP structure or are refused with an {@code AbiParseException}.
 */
class ReflectionResolveFuzzTest {

  @FuzzTest
  // No entry holds a line break: Jazzer writes entries into libFuzzer's dictionary unescaped.
  @DictionaryEntries({
    "iree.abi={\"a\":[],\"r\":[]}",
    "iree.abi.declaration=sync func @f(",
    "f=I",
    "fv=1",
    "sip=I",
    "sipv=1",
    "abi=sip",
    "abiv=1",
    "fbr=",
    "iree.abi.model=coarse-fences",
    "0rr_r",
    "0rrr_r",
    "0CrD_v",
    "_v"
  })
  void resolve(byte[] data) {
    String text = FuzzContract.text(data);
    String[] lines = text.split("\n", -1);
    String cconv = lines[0].isEmpty() ? null : lines[0];
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int eq = lines[i].indexOf('=');
      attributes.put(
          eq < 0 ? lines[i] : lines[i].substring(0, eq), eq < 0 ? "" : lines[i].substring(eq + 1));
    }
    bounded("Reflection.resolve", data.length, () -> check(attributes, cconv));
  }

  private static void check(Map<String, String> attributes, String cconv) {
    Optional<Reflection.Resolved> resolved =
        refusedOr(() -> resolveOrNone(attributes, cconv)).flatMap(r -> r);
    if (cconv != null && resolved.isPresent()) {
      refusedOr(() -> CallingConvention.parse(cconv))
          .ifPresent(c -> c.mismatches(resolved.get().signature()));
    }
    refusedOr(() -> V0Reflection.from(attributes))
        .flatMap(v0 -> v0)
        .ifPresent(v0 -> refusedOr(v0::structure));
    for (String value : attributes.values()) {
      refusedOr(() -> Reflection.parse(value));
    }
    // The same attributes on an asynchronous twin: IREE's naming may add the coarse-fences model.
    boolean fenced = CoarseFences.applies("f$async", attributes, cconv);
    Map<String, String> twin = CoarseFences.attributes("f$async", attributes, cconv);
    refusedOr(() -> resolveOrNone(twin, cconv))
        .flatMap(r -> r)
        .filter(r -> r.source().equals("calling convention") && fenced)
        .ifPresent(
            r -> {
              if (r.signature().model() != FunctionSignature.CallingModel.COARSE_FENCES) {
                throw new AssertionError(
                    "f$async (" + cconv + ") takes fences but resolved to " + r.signature());
              }
            });
  }

  /** The resolved signature; empty for the one documented refusal that is not a parse error. */
  private static Optional<Reflection.Resolved> resolveOrNone(
      Map<String, String> attributes, String cconv) {
    try {
      return Optional.of(Reflection.resolve(attributes, cconv));
    } catch (AbiParseException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      if (cconv == null && e.getMessage().startsWith("no usable reflection among the attributes")) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
