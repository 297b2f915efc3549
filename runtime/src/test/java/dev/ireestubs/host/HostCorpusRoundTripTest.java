package dev.ireestubs.host;

import static com.google.common.truth.Truth.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ireestubs.abi.AbiJson;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.testing.SharedData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Every real {@code iree.abi} signature of the corpus, called end to end: sample Java arguments go
 * through the dynamic invoker into a host module registered with that signature, which checks them,
 * decodes them, and returns sample results that come back out of the invoker unchanged.
 */
class HostCorpusRoundTripTest {

  @Test
  void everyCorpusSignatureRoundTripsThroughAHostModule() {
    List<JsonNode> rows = SharedData.jsonLines("reflection-corpus.jsonl");
    int called = 0;
    List<String> skipped = new ArrayList<>();
    long seed = 1;
    for (JsonNode row : rows) {
      String json = SharedData.compact(row.get("abi"));
      FunctionSignature signature = AbiJson.parseFunction(json);
      List<AbiType> all = new ArrayList<>(signature.arguments());
      all.addAll(signature.results());
      if (!all.stream().allMatch(SampleValues::supported)) {
        skipped.add(row.get("function").asText());
        continue;
      }
      SampleValues samples = new SampleValues(seed++);
      List<Object> positional = new ArrayList<>();
      Map<String, Object> named = new LinkedHashMap<>();
      List<Object> expectedArguments = new ArrayList<>();
      for (AbiType a : signature.arguments()) {
        Object v = samples.of(a);
        expectedArguments.add(v);
        if (a instanceof AbiType.Named) {
          named.put(((AbiType.Named) a).name(), v);
        } else {
          positional.add(v);
        }
      }
      Object results = sampleResults(signature, samples);
      AtomicReference<List<Object>> received = new AtomicReference<>();
      HostModule module =
          HostModule.builder("module")
              .valueFunction(
                  "f",
                  signature,
                  args -> {
                    received.set(args);
                    return results;
                  })
              .build();
      Object returned =
          DynamicFunction.of(module.function("module.f"), signature).call(positional, named);
      assertThat(received.get()).isEqualTo(expectedArguments);
      assertThat(returned).isEqualTo(results);
      called++;
    }
    System.out.println(
        "host round trip over the iree.abi corpus: "
            + called
            + " of "
            + rows.size()
            + " signatures called end to end through the dynamic invoker; skipped (unsupported"
            + " records): "
            + skipped);
    assertThat(called).isAtLeast(30);
  }

  private static Object sampleResults(FunctionSignature signature, SampleValues samples) {
    List<AbiType> results = signature.results();
    if (results.isEmpty()) {
      return null;
    }
    if (results.size() == 1) {
      return samples.of(results.get(0));
    }
    List<Object> values = new ArrayList<>();
    for (AbiType r : results) {
      values.add(samples.of(r));
    }
    return values;
  }
}
