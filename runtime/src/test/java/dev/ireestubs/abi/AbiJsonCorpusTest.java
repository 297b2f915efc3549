package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertWithMessage;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ireestubs.testing.SharedData;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Every {@code iree.abi} object found in public repositories ({@code reflection-corpus.jsonl}). */
class AbiJsonCorpusTest {

  @Test
  void everyObjectParsesAndPrintsBackToTheSameModel() {
    List<JsonNode> rows = SharedData.jsonLines("reflection-corpus.jsonl");
    int supported = 0;
    int withUnsupported = 0;
    int printedIdentically = 0;
    TreeSet<String> unsupportedTags = new TreeSet<>();
    List<String> failures = new ArrayList<>();
    for (JsonNode row : rows) {
      String where = row.get("source").asText() + " " + row.path("function").asText();
      String text = SharedData.compact(row.get("abi"));
      try {
        FunctionSignature sig = AbiJson.parseFunction(text);
        String printed = AbiJson.print(sig);
        FunctionSignature again = AbiJson.parseFunction(printed);
        assertWithMessage("round trip of %s: %s", where, text).that(again).isEqualTo(sig);
        if (printed.equals(text)) {
          printedIdentically++;
        }
        List<AbiType.Unsupported> found = new ArrayList<>();
        sig.arguments().forEach(t -> collectUnsupported(t, found));
        sig.results().forEach(t -> collectUnsupported(t, found));
        if (found.isEmpty()) {
          supported++;
        } else {
          withUnsupported++;
          found.forEach(u -> unsupportedTags.add(u.tag()));
        }
      } catch (AbiParseException e) {
        failures.add(where + ": " + e.getMessage());
      }
    }
    assertWithMessage("objects that failed to parse").that(failures).isEmpty();
    assertWithMessage("corpus size").that(rows).hasSize(42);
    System.out.printf(
        "iree.abi corpus: %d objects parsed and printed back to the same model (%d printed"
            + " byte-identically); %d fully supported, %d with unsupported records %s%n",
        rows.size(), printedIdentically, supported, withUnsupported, unsupportedTags);
  }

  static void collectUnsupported(AbiType t, List<AbiType.Unsupported> out) {
    if (t instanceof AbiType.Unsupported) {
      out.add((AbiType.Unsupported) t);
    } else if (t instanceof AbiType.Sequence) {
      ((AbiType.Sequence) t).elements().forEach(e -> collectUnsupported(e, out));
    } else if (t instanceof AbiType.Dict) {
      ((AbiType.Dict) t).entries().forEach(e -> collectUnsupported(e.type(), out));
    } else if (t instanceof AbiType.HomogeneousList) {
      collectUnsupported(((AbiType.HomogeneousList) t).element(), out);
    } else if (t instanceof AbiType.Named) {
      collectUnsupported(((AbiType.Named) t).type(), out);
    }
  }
}
