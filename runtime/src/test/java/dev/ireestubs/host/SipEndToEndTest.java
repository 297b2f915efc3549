package dev.ireestubs.host;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ireestubs.abi.AbiParseException;
import dev.ireestubs.abi.AbiType;
import dev.ireestubs.abi.ElementType;
import dev.ireestubs.abi.FunctionSignature;
import dev.ireestubs.abi.ReflectionFormat;
import dev.ireestubs.abi.SipSignature;
import dev.ireestubs.abi.SipStructure;
import dev.ireestubs.abi.V0RawSignature;
import dev.ireestubs.abi.V0Reflection;
import dev.ireestubs.invoke.DynamicFunction;
import dev.ireestubs.invoke.IreeValueException;
import dev.ireestubs.ndarray.FloatArray;
import dev.ireestubs.ndarray.UByteArray;
import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vm.VmList;
import dev.ireestubs.vm.VmValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The V0 structured ABI called end to end: Java structures are flattened into the raw list by leaf
 * index, a host module registered with the raw signature runs, and the raw results are rebuilt into
 * the result structure.
 */
class SipEndToEndTest {

  @Test
  void everyRealSipSignatureFlattensAsItsMeaningSays() {
    int sips = 0;
    int raws = 0;
    for (JsonNode row : SharedData.jsonLines("v0-signatures.jsonl")) {
      String value = row.get("value").asText();
      JsonNode meaning = row.get("meaning");
      if (row.get("attr").asText().equals("f")) {
        if (meaning == null || meaning.isNull()) {
          continue; // the one historic string that breaks the grammar (tested in abi)
        }
        FunctionSignature raw = V0RawSignature.parse(value);
        roundTripRaw(raw, raws);
        raws++;
        continue;
      }
      SipSignature sip = SipSignature.parse(value);
      int inputs = sip.inputIndices().size();
      int results = sip.resultIndices().size();
      FunctionSignature raw =
          FunctionSignature.of(scalars(inputs), scalars(results), ReflectionFormat.V0_RAW);
      SipStructure structure = SipStructure.of(sip, raw);
      AtomicReference<VmList> received = new AtomicReference<>();
      HostModule module =
          HostModule.builder("module")
              .function(
                  "f",
                  raw,
                  args -> {
                    received.set(args);
                    VmList out = VmList.variant(results);
                    for (int j = 0; j < results; j++) {
                      out.push(VmValue.i32(2000 + j));
                    }
                    return out;
                  })
              .build();
      DynamicFunction f = DynamicFunction.sip(module.function("module.f"), structure);
      JsonNode in = meaning.get("inputs");
      List<Object> positional = new ArrayList<>();
      Map<String, Object> named = new LinkedHashMap<>();
      if (in != null && !in.isNull()) {
        if (in.has("dict")) {
          named.putAll((Map<String, Object>) valueOf(in, 1000));
        } else if (in.has("seq")) {
          positional.addAll((List<?>) valueOf(in, 1000));
        } else {
          positional.add(valueOf(in, 1000));
        }
      }
      Object returned = f.call(positional, named);
      for (int i = 0; i < inputs; i++) {
        assertWithMessage("%s raw slot %s", value, i)
            .that(received.get().get(i))
            .isEqualTo(VmValue.i32(1000 + i));
      }
      JsonNode out = meaning.get("results");
      Object expected = out == null || out.isNull() ? null : valueOf(out, 2000);
      assertWithMessage("%s results", value).that(returned).isEqualTo(expected);
      sips++;
    }
    System.out.println(
        "V0 end to end: "
            + sips
            + " SIP signatures flattened into raw slots by leaf index and rebuilt as their meaning"
            + " states; "
            + raws
            + " raw signatures called positionally through host modules");
    assertThat(sips).isEqualTo(15);
    assertThat(raws).isEqualTo(29);
  }

  /** The Java value a meaning tree describes: leaf n holds {@code base + n}. */
  @SuppressWarnings("unchecked")
  private static Object valueOf(JsonNode node, int base) {
    if (node.has("leaf")) {
      return base + node.get("leaf").asInt();
    }
    if (node.has("seq")) {
      List<Object> out = new ArrayList<>();
      for (JsonNode e : node.get("seq")) {
        out.add(valueOf(e.get(1), base));
      }
      return Collections.unmodifiableList(out);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (JsonNode e : node.get("dict")) {
      out.put(e.get(0).asText(), valueOf(e.get(1), base));
    }
    return Collections.unmodifiableMap(out);
  }

  private static List<AbiType> scalars(int n) {
    List<AbiType> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new AbiType.Scalar(ElementType.I32));
    }
    return out;
  }

  private static void roundTripRaw(FunctionSignature raw, long seed) {
    SampleValues samples = new SampleValues(seed);
    List<Object> args = new ArrayList<>();
    raw.arguments().forEach(a -> args.add(samples.of(a)));
    List<Object> results = new ArrayList<>();
    raw.results().forEach(r -> results.add(samples.of(r)));
    Object expected = results.isEmpty() ? null : results.size() == 1 ? results.get(0) : results;
    AtomicReference<List<Object>> received = new AtomicReference<>();
    HostModule module =
        HostModule.builder("module")
            .valueFunction(
                "f",
                raw,
                a -> {
                  received.set(a);
                  return expected;
                })
            .build();
    Object returned = DynamicFunction.of(module.function("module.f"), raw).call(args.toArray());
    assertThat(received.get()).isEqualTo(args);
    assertThat(returned).isEqualTo(expected);
  }

  record Point(float x, float y) {}

  @Test
  void nestedDictInSequenceInDictWithDynamicDimsAndUnsignedElements() {
    // inputs: dict {images: seq [dict {pixels: raw 1, mask: raw 0}], scale: raw 2}
    // raw: mask ui8[?x4] (t8, d-1), pixels f32[2x?], scale f32 scalar
    String f = "I26!B8!t8d-1d4B8!t0d2d-1S3!t0R16!B8!t0d2d-1S3!t0";
    // results: seq [dict {sum: raw 1, out: raw 0}]
    String sip =
        "I54!D50!K7!images"
            + "S27!k0D21!K5!mask_0K7!pixels_1"
            + "K6!scale_2"
            + "R27!S23!k0D17!K4!out_0K4!sum_1";
    FunctionSignature raw = V0RawSignature.parse(f);
    SipStructure structure =
        new V0Reflection(
                java.util.Optional.of("1"),
                java.util.Optional.of(raw),
                java.util.Optional.empty(),
                java.util.Optional.of("sip"),
                java.util.Optional.of("1"),
                java.util.Optional.of(SipSignature.parse(sip)))
            .structure()
            .orElseThrow();
    assertThat(structure.signature().arguments().get(0)).isInstanceOf(AbiType.Named.class);

    HostModule module =
        HostModule.builder("module")
            .valueFunction(
                "f",
                raw,
                args -> {
                  UByteArray mask = (UByteArray) args.get(0);
                  FloatArray pixels = (FloatArray) args.get(1);
                  float scale = (Float) args.get(2);
                  FloatArray out = FloatArray.zeros(pixels.shape());
                  float sum = 0;
                  for (int i = 0; i < pixels.size(); i++) {
                    float v = pixels.getFlat(i) * scale * mask.getFlat(0);
                    out.setFlat(v, i);
                    sum += v;
                  }
                  return List.of(out, sum);
                })
            .build();
    DynamicFunction call = DynamicFunction.sip(module.function("module.f"), structure);
    UByteArray mask = UByteArray.of(new int[] {200, 1, 1, 1}, 1, 4);
    FloatArray pixels = FloatArray.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
    Object result =
        call.call(
            List.of(),
            Map.of("images", List.of(Map.of("pixels", pixels, "mask", mask)), "scale", 0.5f));
    List<?> seq = (List<?>) result;
    Map<?, ?> dict = (Map<?, ?>) seq.get(0);
    assertThat(dict.get("sum")).isEqualTo(2100f);
    assertThat(((FloatArray) dict.get("out")).shape()).isEqualTo(new long[] {2, 3});

    IreeValueException missing =
        argumentError(
            () ->
                call.call(
                    List.of(), Map.of("images", List.of(Map.of("pixels", pixels)), "scale", 1f)));
    assertThat(missing)
        .hasMessageThat()
        .isEqualTo("f: images[0]: missing key 'mask'; expected keys [mask, pixels]");
    IreeValueException shape =
        argumentError(
            () ->
                call.call(
                    List.of(),
                    Map.of(
                        "images",
                        List.of(Map.of("pixels", FloatArray.zeros(3, 3), "mask", mask)),
                        "scale",
                        1f)));
    assertThat(shape)
        .hasMessageThat()
        .isEqualTo(
            "f: images[0].pixels: expected tensor<2x?xf32> but got tensor<3x3xf32>"
                + " (dimension 0 is 3, not 2)");
  }

  @Test
  void leavesThatDoNotFillTheRawSlotsAreRefused() {
    FunctionSignature raw = V0RawSignature.parse("I6!S3!t0R1!");
    AbiParseException e =
        assertThrows(
            AbiParseException.class,
            () -> SipStructure.of(SipSignature.parse("I12!S9!k0_0k1_1R1!"), raw));
    assertThat(e)
        .hasMessageThat()
        .contains("the SIP signature has 2 input leaves but the raw signature (f) has 1 inputs");
  }

  record Ids(int classIds, int x) {}

  @Test
  void recordComponentsMatchSnakeCaseKeysAsInStubs() {
    FunctionSignature raw = FunctionSignature.of(scalars(2), List.of(), ReflectionFormat.V0_RAW);
    SipStructure structure =
        SipStructure.of(SipSignature.parse("I32!S28!k0D22!K10!class_ids_0K2!x_1R1!"), raw);
    AtomicReference<VmList> received = new AtomicReference<>();
    HostModule module =
        HostModule.builder("module")
            .function(
                "f",
                raw,
                args -> {
                  received.set(args);
                  return VmList.variant(0);
                })
            .build();
    DynamicFunction.sip(module.function("module.f"), structure)
        .call(List.of(new Ids(7, 8)), Map.of());
    assertThat(received.get()).isEqualTo(VmList.of(VmValue.i32(7), VmValue.i32(8)));
  }

  /** The argument-side {@link IreeValueException} {@code call} throws. */
  private static IreeValueException argumentError(Executable call) {
    IreeValueException e = assertThrows(IreeValueException.class, call);
    assertThat(e.side()).isEqualTo(IreeValueException.Side.ARGUMENT);
    return e;
  }
}
