package dev.ireestubs.abi;

import static com.google.common.truth.Truth.assertThat;

import dev.ireestubs.testing.SharedData;
import dev.ireestubs.vmfb.VmfbExport;
import dev.ireestubs.vmfb.VmfbModule;
import dev.ireestubs.vmfb.VmfbReader;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one rule for "takes a wait and a signal fence": by reflection, or by IREE's naming. */
class CoarseFencesTest {

  @Test
  void theModelAttributeSaysSoWhateverTheName() {
    Map<String, String> attributes = Map.of(Reflection.MODEL, Reflection.COARSE_FENCES);
    assertThat(CoarseFences.applies("main", attributes, "0rrr_r")).isTrue();
    assertThat(CoarseFences.applies(null, attributes, null)).isTrue();
  }

  @Test
  void aCallingConventionWithoutTwoTrailingRefsCannotTakeFencesWhateverTheReflection() {
    Map<String, String> attributes = Map.of(Reflection.MODEL, Reflection.COARSE_FENCES);
    assertThat(CoarseFences.applies("f", attributes, "0i_i")).isFalse();
    assertThat(CoarseFences.applies("f", attributes, "0rr_r")).isTrue();
    // Reflection.resolve ignores the model there too, with a warning.
    Reflection.Resolved r = CoarseFences.resolve("f", attributes, "0i_i");
    assertThat(r.signature().model()).isEqualTo(FunctionSignature.CallingModel.SYNC);
    assertThat(r.warnings()).isNotEmpty();
  }

  @Test
  void aModelTheModuleStatesDecidesOverTheName() {
    Map<String, String> other = Map.of(Reflection.MODEL, "coarse-fence~");
    assertThat(CoarseFences.applies("f$async", other, "0rrr_r")).isFalse();
    assertThat(CoarseFences.resolve("f$async", other, "0rrr_r").signature().model())
        .isEqualTo(FunctionSignature.CallingModel.SYNC);
  }

  @Test
  void anAsyncDeclarationSaysSo() {
    Map<String, String> attributes =
        Map.of(Reflection.DECLARATION, "  async func @f(%a: tensor<4xf32>) -> (%b: tensor<4xf32>)");
    assertThat(CoarseFences.applies("f", attributes, "0rrr_r")).isTrue();
    assertThat(
            CoarseFences.applies(
                "f", Map.of(Reflection.DECLARATION, "asynchronous func @f() -> ()"), "0v_v"))
        .isFalse();
  }

  @Test
  void anAsyncTwinWhoseCallingConventionEndsInTwoRefsByItsName() {
    assertThat(CoarseFences.applies("tf2onnx$async", Map.of(), "0rrr_r")).isTrue();
    assertThat(CoarseFences.applies("module.tf2onnx$async", Map.of(), "0rr_v")).isTrue();
    assertThat(CoarseFences.applies("tf2onnx$async", Map.of(), "0ri_r")).isFalse();
    assertThat(CoarseFences.applies("tf2onnx$async", Map.of(), "0r_r")).isFalse();
    assertThat(CoarseFences.applies("tf2onnx$async", Map.of(), "")).isFalse();
    assertThat(CoarseFences.applies("tf2onnx$async", Map.of(), "not a cconv")).isFalse();
    assertThat(CoarseFences.applies("tf2onnx", Map.of(), "0rrr_r")).isFalse();
    assertThat(CoarseFences.applies("$async", Map.of(), "0rr_r")).isFalse();
  }

  @Test
  void theNamingRuleAddsTheModelSoTheResolvedSignatureDropsTheFences() {
    Map<String, String> attributes = CoarseFences.attributes("f$async", Map.of(), "0rrr_r");
    assertThat(attributes).containsExactly(Reflection.MODEL, Reflection.COARSE_FENCES);
    FunctionSignature s = CoarseFences.resolve("f$async", Map.of(), "0rrr_r").signature();
    assertThat(s.model()).isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
    assertThat(s.arguments()).hasSize(1);
    assertThat(s.results()).hasSize(1);
    assertThat(s.vmArgumentCount()).isEqualTo(3);
  }

  @Test
  void attributesAreLeftAsTheyAreWhenTheRuleDoesNotApplyOrTheModuleSaysItself() {
    Map<String, String> none = Map.of();
    assertThat(CoarseFences.attributes("f", none, "0rrr_r")).isSameInstanceAs(none);
    Map<String, String> sync = Map.of(Reflection.MODEL, "sync-something");
    assertThat(CoarseFences.attributes("f$async", sync, "0rrr_r")).isSameInstanceAs(sync);
    assertThat(CoarseFences.resolve("f", none, "0rrr_r").signature().model())
        .isEqualTo(FunctionSignature.CallingModel.SYNC);
  }

  @Test
  void namesOfTwins() {
    assertThat(CoarseFences.asyncName("f")).isEqualTo("f$async");
    assertThat(CoarseFences.syncName("f$async")).isEqualTo(Optional.of("f"));
    assertThat(CoarseFences.syncName("f")).isEmpty();
    assertThat(CoarseFences.syncName("$async")).isEmpty();
    assertThat(CoarseFences.syncName(null)).isEmpty();
  }

  /** micro_speech (an ONNX import with no reflection at all) exports tf2onnx$async, 0rrr_r. */
  @Test
  void theRealModelsAsyncExportIsCoarseFencesAndItsWrapperIsNot() throws IOException {
    VmfbModule module =
        VmfbReader.read(
            SharedData.require(
                "models/2026-06_iree-embedded_micro_speech_kws_x86_64_generic_bc17.vmfb"));
    VmfbExport async = module.export("tf2onnx$async").orElseThrow();
    VmfbExport sync = module.export("tf2onnx").orElseThrow();
    assertThat(async.reflection().asMap()).isEmpty();
    FunctionSignature fenced = async.signature().signature();
    assertThat(fenced.model()).isEqualTo(FunctionSignature.CallingModel.COARSE_FENCES);
    assertThat(fenced.arguments()).hasSize(1);
    assertThat(CallingConvention.parse("0rrr_r").matches(fenced)).isTrue();
    assertThat(sync.signature().signature().model()).isEqualTo(FunctionSignature.CallingModel.SYNC);
  }
}
