package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ireestubs.testing.SharedData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every V0 signature found in public repositories ({@code v0-signatures.jsonl}): each decodes to
 * the structure its {@code meaning} states and re-encodes to the identical string; the one row with
 * no meaning (a historic buggy string) is rejected.
 */
class V0ConformanceTest {

  private static final Map<String, ElementType> DTYPES =
      Map.ofEntries(
          Map.entry("f32", ElementType.F32),
          Map.entry("f32(default)", ElementType.F32),
          Map.entry("f16", ElementType.F16),
          Map.entry("f64", ElementType.F64),
          Map.entry("bf16", ElementType.BF16),
          Map.entry("i8", ElementType.SI8),
          Map.entry("i16", ElementType.SI16),
          Map.entry("i32", ElementType.SI32),
          Map.entry("i64", ElementType.SI64),
          Map.entry("u8", ElementType.UI8),
          Map.entry("u16", ElementType.UI16),
          Map.entry("u32", ElementType.UI32),
          Map.entry("u64", ElementType.UI64));

  @Test
  void everyRowDecodesAsItsMeaningAndReEncodesIdentically() {
    List<JsonNode> rows = SharedData.jsonLines("v0-signatures.jsonl");
    int raw = 0;
    int sip = 0;
    int rejected = 0;
    List<String> failures = new ArrayList<>();
    for (JsonNode row : rows) {
      String attr = row.get("attr").asText();
      String value = row.get("value").asText();
      JsonNode meaning = row.get("meaning");
      String where = row.get("source").asText() + " " + attr + "=" + value;
      try {
        if (meaning == null || meaning.isNull()) {
          AbiParseException e =
              assertThrows(
                  AbiParseException.class,
                  () -> {
                    if (attr.equals("f")) {
                      V0RawSignature.parse(value);
                    } else {
                      SipSignature.parse(value);
                    }
                  },
                  where);
          assertThat(attr).isEqualTo("f");
          assertThat(e.format()).isEqualTo(ReflectionFormat.V0_RAW);
          assertThat(e)
              .hasMessageThat()
              .isEqualTo(
                  "V0 raw signature (f) at offset 4: expected an item (B buffer, S scalar, O ref"
                      + " or U unrecognized), found span 'I' (I10!B7!t7d4d4); I and R spans"
                      + " appear only at the top level, once each");
          rejected++;
        } else if (attr.equals("f")) {
          FunctionSignature s = V0RawSignature.parse(value);
          assertWithMessage("inputs of %s", where)
              .that(s.arguments())
              .isEqualTo(rawTypes(meaning.get("inputs")));
          assertWithMessage("results of %s", where)
              .that(s.results())
              .isEqualTo(rawTypes(meaning.get("results")));
          assertWithMessage("re-encoding of %s", where)
              .that(V0RawSignature.encode(s))
              .isEqualTo(value);
          assertThat(V0RawSignature.pretty(s)).startsWith("(");
          checkReflection(row, s, null);
          raw++;
        } else {
          assertThat(attr).isEqualTo("sip");
          SipSignature s = SipSignature.parse(value);
          assertWithMessage("inputs of %s", where)
              .that(s.inputs())
              .isEqualTo(sipNode(meaning.get("inputs")));
          assertWithMessage("results of %s", where)
              .that(s.results())
              .isEqualTo(sipNode(meaning.get("results")));
          assertWithMessage("re-encoding of %s", where).that(s.encode()).isEqualTo(value);
          assertWithMessage("problems of %s", where).that(s.problems()).isEmpty();
          checkReflection(row, null, s);
          sip++;
        }
      } catch (AssertionError | RuntimeException e) {
        failures.add(where + ": " + e.getMessage());
      }
    }
    assertWithMessage("rows that did not conform").that(failures).isEmpty();
    assertWithMessage("corpus size").that(rows).hasSize(45);
    assertThat(rejected).isEqualTo(1);
    System.out.printf(
        "V0 conformance: %d decoded as their meaning, %d rejected as expected (%d f, %d sip; all"
            + " re-encoded byte-identically)%n",
        raw + sip, rejected, raw, sip);
  }

  /** The row's attribute and its companions, read back through {@link V0Reflection}. */
  private static void checkReflection(JsonNode row, FunctionSignature raw, SipSignature sip) {
    Map<String, String> attrs = new HashMap<>();
    JsonNode companions = row.path("companion_attrs");
    for (Iterator<Map.Entry<String, JsonNode>> it = companions.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      attrs.put(e.getKey(), e.getValue().asText());
    }
    attrs.put(row.get("attr").asText(), row.get("value").asText());
    V0Reflection r = V0Reflection.from(attrs).orElseThrow();
    assertThat(r.raw()).isEqualTo(Optional.ofNullable(raw));
    assertThat(r.sip()).isEqualTo(Optional.ofNullable(sip));
    if (raw != null) {
      assertThat(r.rawVersion()).hasValue("1");
    } else {
      assertThat(r.abi()).hasValue("sip");
      assertThat(r.sipVersion()).hasValue("1");
    }
  }

  private static List<AbiType> rawTypes(JsonNode items) {
    List<AbiType> out = new ArrayList<>();
    for (JsonNode item : items) {
      if (item.has("buffer")) {
        JsonNode b = item.get("buffer");
        JsonNode dims = b.get("dims");
        long[] shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++) {
          shape[i] = dims.get(i).isNull() ? Shape.DYNAMIC : dims.get(i).asLong();
        }
        out.add(new AbiType.NdArray(dtype(b.get("dtype").asText()), Shape.of(shape)));
      } else if (item.has("scalar")) {
        out.add(new AbiType.Scalar(dtype(item.get("scalar").asText())));
      } else if (item.has("unrecognized")) {
        out.add(new AbiType.Unknown());
      } else if (item.has("ref")) {
        out.add(AbiType.Ref.any());
      } else {
        throw new AssertionError("unexpected meaning item " + item);
      }
    }
    return out;
  }

  private static ElementType dtype(String name) {
    ElementType e = DTYPES.get(name);
    if (e == null) {
      throw new AssertionError("unexpected dtype " + name);
    }
    return e;
  }

  private static Optional<SipNode> sipNode(JsonNode node) {
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    return Optional.of(sipNodeOf(node));
  }

  private static SipNode sipNodeOf(JsonNode node) {
    if (node.has("leaf")) {
      return new SipNode.Leaf(node.get("leaf").asInt());
    }
    if (node.has("seq")) {
      List<SipNode.SequenceEntry> entries = new ArrayList<>();
      for (JsonNode e : node.get("seq")) {
        entries.add(new SipNode.SequenceEntry(e.get(0).asInt(), sipNodeOf(e.get(1))));
      }
      return new SipNode.Sequence(entries);
    }
    if (node.has("dict")) {
      List<SipNode.DictEntry> entries = new ArrayList<>();
      for (JsonNode e : node.get("dict")) {
        entries.add(new SipNode.DictEntry(e.get(0).asText(), sipNodeOf(e.get(1))));
      }
      return new SipNode.Dict(entries);
    }
    throw new AssertionError("unexpected meaning node " + node);
  }
}
