package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReflectionTest {

  private static final String JSON = "{\"a\":[\"i32\"],\"r\":[\"i32\"],\"v\":1}";
  private static final String DECL =
      "sync func @f(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)";

  @Test
  void jsonWinsOverEverythingElse() {
    Map<String, String> attrs = new LinkedHashMap<>();
    attrs.put("iree.abi.declaration", DECL);
    attrs.put("f", "I6!B3!d4R6!B3!d4");
    attrs.put("iree.abi", JSON);
    Reflection.Resolved r = Reflection.resolve(attrs, "0r_r");
    assertThat(r.source()).isEqualTo("iree.abi");
    assertThat(r.signature()).isEqualTo(AbiJson.parseFunction(JSON));
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void coarseFencesModelAppliesToJson() {
    Reflection.Resolved r =
        Reflection.resolve(Map.of("iree.abi", JSON, "iree.abi.model", "coarse-fences"), null);
    assertThat(r.signature().model()).isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
  }

  @Test
  void coarseFencesModelAppliesToTheDeclarationAndDropsTheFencesOfACallingConvention() {
    Reflection.Resolved declared =
        Reflection.resolve(
            Map.of("iree.abi.declaration", DECL, "iree.abi.model", "coarse-fences"), "0rrr_r");
    assertThat(declared.signature().model())
        .isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
    assertThat(declared.signature().arguments()).hasSize(1);

    // Only the calling convention: its last two refs are the wait and signal fences.
    Reflection.Resolved cc =
        Reflection.resolve(Map.of("iree.abi.model", "coarse-fences"), "0rIrr_rr");
    assertThat(cc.source()).isEqualTo("calling convention");
    assertThat(cc.signature().model()).isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
    assertThat(cc.signature().arguments())
        .containsExactly(AbiType.Ref.any(), new AbiType.Scalar(ElementType.I64))
        .inOrder();
    assertThat(cc.signature().results()).hasSize(2);
    assertThat(cc.warnings()).isEmpty();
    assertThat(CallingConvention.parse("0rIrr_rr").mismatches(cc.signature())).isEmpty();

    // A convention that cannot hold the fences: taken as it is, with a warning.
    Reflection.Resolved odd =
        Reflection.resolve(Map.of("iree.abi.model", "coarse-fences"), "0ri_r");
    assertThat(odd.signature().model()).isEqualTo(FunctionSignature.CallingModel.SYNC);
    assertThat(odd.signature().arguments()).hasSize(2);
    assertThat(odd.warnings())
        .containsExactly(
            "iree.abi.model is coarse-fences, but the calling convention 0ri_r does not end in the"
                + " two fence refs; the model was ignored");
  }

  @Test
  void declarationThenV0ThenCallingConvention() {
    assertThat(Reflection.resolve(Map.of("iree.abi.declaration", DECL), "0r_r").source())
        .isEqualTo("iree.abi.declaration");
    Reflection.Resolved v0 = Reflection.resolve(Map.of("fv", "1", "f", "I6!B3!d4R6!B3!d4"), "0r_r");
    assertThat(v0.source()).isEqualTo("f");
    assertThat(v0.signature().format()).isEqualTo(ReflectionFormat.V0_RAW);
    Reflection.Resolved cc = Reflection.resolve(Map.of(), "0rr_r");
    assertThat(cc.source()).isEqualTo("calling convention");
    assertThat(cc.signature().arguments()).hasSize(2);
  }

  @Test
  void anUnparsableDeclarationFallsBackWithAWarning() {
    Reflection.Resolved r =
        Reflection.resolve(Map.of("iree.abi.declaration", "this is not a declaration"), "0i_i");
    assertThat(r.source()).isEqualTo("calling convention");
    assertThat(r.warnings()).hasSize(1);
    assertThat(r.warnings().get(0)).startsWith("the iree.abi.declaration does not parse (");
  }

  @Test
  void malformedJsonAndNothingAtAllAreErrors() {
    assertThrows(
        AbiParseException.class, () -> Reflection.resolve(Map.of("iree.abi", "{\"a\":"), "0i_i"));
    IllegalArgumentException none =
        assertThrows(
            IllegalArgumentException.class, () -> Reflection.resolve(Map.of("x", "y"), null));
    assertThat(none)
        .hasMessageThat()
        .isEqualTo(
            "no usable reflection among the attributes [x] (iree.abi, iree.abi.declaration or f) and no"
                + " calling convention");
  }

  @Test
  void attributesOfPicksTheFormatByTheFirstCharacter() {
    assertThat(Reflection.attributesOf(" " + JSON)).containsExactly("iree.abi", " " + JSON);
    assertThat(Reflection.attributesOf(DECL)).containsExactly("iree.abi.declaration", DECL);
  }
}
